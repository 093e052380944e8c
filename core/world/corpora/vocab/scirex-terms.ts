/**
 * Vocabulary of the synthetic SciREX corpus: tasks with their benchmark datasets (SciREX "Material") and
 * metrics, plus the parts method names and paper prose are built from. Names are given in display form
 * ("Penn Treebank (Word Level)"); `scirex.ts` derives the underscore canonical form SciREX uses in its relation
 * tuples (`Penn_Treebank__Word_Level_`) by replacing every character other than a letter, digit or `-` with `_`.
 * No two display names of the same category may map to the same canonical form.
 */

export type ScirexDomain = 'vision' | 'language' | 'speech' | 'rl' | 'graph' | 'generative';

/** How a metric's scores look. `range` bounds the values; `decimals` lists the precisions papers use. */
export interface ScirexMetric {
  name: string;
  range: readonly [number, number];
  decimals: readonly number[];
  /** Some papers write the score with a `%` sign (`82.0%`). */
  percent?: boolean;
  /** Magnitude suffix instead of a plain number: parameter counts `22M`, frame counts `190k`. */
  suffix?: 'M' | 'k';
  /** Error-like metric: a better model scores lower (the generator keeps a paper's metrics consistent). */
  lowerIsBetter?: boolean;
  /** Not a quality measure (model size, training frames): drawn independently of the paper's quality. */
  independent?: boolean;
}

export interface ScirexTask {
  name: string;
  domain: ScirexDomain;
  materials: readonly string[];
  metrics: readonly ScirexMetric[];
  /** What a method for this task does, as a verb phrase ("segments every pixel of an image"). */
  goal: string;
  weight?: number;
}

const accuracy = (lo = 60, hi = 99.5): ScirexMetric => ({
  name: 'Accuracy',
  range: [lo, hi],
  decimals: [1, 2],
  percent: true,
});
const f1 = (lo = 70, hi = 96): ScirexMetric => ({ name: 'F1', range: [lo, hi], decimals: [1, 2] });
const params: ScirexMetric = {
  name: 'Params',
  range: [1.2, 180],
  decimals: [0, 1],
  suffix: 'M',
  independent: true,
};

export const SCIREX_TASKS: readonly ScirexTask[] = [
  {
    name: 'Language Modelling',
    domain: 'language',
    materials: [
      'Penn Treebank (Word Level)',
      'WikiText-2',
      'WikiText-103',
      'One Billion Word',
      'enwik8',
      'Text8',
    ],
    metrics: [
      { name: 'Test perplexity', range: [18, 120], decimals: [1, 2], lowerIsBetter: true },
      { name: 'Validation perplexity', range: [18, 125], decimals: [1, 2], lowerIsBetter: true },
      { name: 'Bit per Character (BPC)', range: [0.94, 1.45], decimals: [2, 3], lowerIsBetter: true },
      params,
    ],
    goal: 'assigns probabilities to sequences of words',
    weight: 1.5,
  },
  {
    name: 'Image Classification',
    domain: 'vision',
    materials: ['CIFAR-10', 'CIFAR-100', 'ImageNet', 'SVHN', 'STL-10', 'MNIST'],
    metrics: [
      { name: 'Percentage error', range: [1.2, 35], decimals: [2], lowerIsBetter: true },
      { name: 'Top 1 Accuracy', range: [62, 90], decimals: [1, 2], percent: true },
      { name: 'Top 5 Accuracy', range: [85, 98.5], decimals: [1, 2], percent: true },
      params,
    ],
    goal: 'recognises the object category shown in an image',
    weight: 1.6,
  },
  {
    name: 'Semantic Segmentation',
    domain: 'vision',
    materials: [
      'CamVid',
      'Cityscapes test',
      'PASCAL VOC 2012 test',
      'ADE20K',
      'PASCAL Context',
      'NYU Depth v2',
    ],
    metrics: [
      { name: 'Mean IoU', range: [38, 86], decimals: [1, 2], percent: true },
      { name: 'Pixel Accuracy', range: [72, 95], decimals: [1, 2] },
    ],
    goal: 'assigns a semantic label to every pixel of an image',
    weight: 1.4,
  },
  {
    name: 'Object Detection',
    domain: 'vision',
    materials: ['COCO test-dev', 'PASCAL VOC 2007', 'KITTI Cars Moderate', 'WIDER Face (Hard)'],
    metrics: [
      { name: 'Box AP', range: [21, 58], decimals: [1] },
      { name: 'AP50', range: [40, 78], decimals: [1] },
      { name: 'MAP', range: [55, 88], decimals: [1, 2], percent: true },
    ],
    goal: 'localises and classifies the objects in an image',
    weight: 1.3,
  },
  {
    name: 'Machine Translation',
    domain: 'language',
    materials: [
      'WMT2014 English-German',
      'WMT2014 English-French',
      'IWSLT2015 German-English',
      'WMT2016 English-Romanian',
    ],
    metrics: [{ name: 'BLEU score', range: [20, 44], decimals: [1, 2] }],
    goal: 'translates sentences from a source language into a target language',
    weight: 1.3,
  },
  {
    name: 'Sentiment Analysis',
    domain: 'language',
    materials: [
      'Yelp Fine-grained classification',
      'Yelp Binary classification',
      'IMDb',
      'SST-2 Binary classification',
      'SST-5 Fine-grained classification',
      'Amazon Review Polarity',
    ],
    metrics: [{ name: 'Error', range: [2.5, 42], decimals: [2], lowerIsBetter: true }, accuracy(45, 97)],
    goal: 'predicts the sentiment expressed in a text',
    weight: 1.3,
  },
  {
    name: 'Natural Language Inference',
    domain: 'language',
    materials: ['MultiNLI', 'SNLI', 'SciTail', 'QNLI'],
    metrics: [
      { name: 'Matched', range: [70, 92], decimals: [1] },
      { name: 'Mismatched', range: [70, 92], decimals: [1] },
      { name: '% Test Accuracy', range: [78, 93], decimals: [1] },
      { name: '% Train Accuracy', range: [82, 99], decimals: [1] },
    ],
    goal: 'decides whether a premise entails a hypothesis',
  },
  {
    name: 'Question Answering',
    domain: 'language',
    materials: ['SQuAD1.1', 'SQuAD2.0', 'TriviaQA', 'NewsQA', 'WikiQA'],
    metrics: [
      { name: 'EM', range: [40, 90], decimals: [1, 3] },
      f1(50, 94),
      { name: 'MAP', range: [0.6, 0.85], decimals: [3, 4] },
    ],
    goal: 'extracts the answer to a question from a passage',
    weight: 1.3,
  },
  {
    name: 'Named Entity Recognition',
    domain: 'language',
    materials: ['CoNLL 2003 (English)', 'OntoNotes v5 (English)', 'WNUT 2017', 'GENIA'],
    metrics: [f1(45, 94)],
    goal: 'finds and types the named entities in a sentence',
  },
  {
    name: 'Dependency Parsing',
    domain: 'language',
    materials: ['Penn Treebank', 'Chinese Treebank', 'Universal Dependencies'],
    metrics: [
      { name: 'UAS', range: [85, 97.5], decimals: [2] },
      { name: 'LAS', range: [82, 96], decimals: [2] },
      { name: 'POS', range: [95, 98], decimals: [2] },
    ],
    goal: 'recovers the syntactic head of every word',
  },
  {
    name: 'Constituency Parsing',
    domain: 'language',
    materials: ['Penn Treebank', 'Chinese Treebank', 'French Treebank'],
    metrics: [{ name: 'F1 score', range: [82, 96.5], decimals: [1, 2] }],
    goal: 'builds the phrase-structure tree of a sentence',
    weight: 0.7,
  },
  {
    name: 'Speech Recognition',
    domain: 'speech',
    materials: [
      'LibriSpeech test-clean',
      'LibriSpeech test-other',
      'TIMIT',
      'Switchboard + Hub500',
      'WSJ eval92',
    ],
    metrics: [
      {
        name: 'Word Error Rate (WER)',
        range: [1.8, 22],
        decimals: [1, 2],
        percent: true,
        lowerIsBetter: true,
      },
      { name: 'Percentage error', range: [12, 25], decimals: [1], lowerIsBetter: true },
    ],
    goal: 'transcribes spoken audio into text',
  },
  {
    name: 'Atari Games',
    domain: 'rl',
    materials: [
      "Atari 2600 Montezuma's Revenge",
      'Atari 2600 Breakout',
      'Atari 2600 Pong',
      'Atari 2600 Seaquest',
      'Atari 2600 Ms. Pacman',
      'Atari 2600 Space Invaders',
    ],
    metrics: [
      { name: 'Score', range: [-21, 48000], decimals: [0, 1] },
      { name: 'Medium Human-Normalized Score', range: [40, 450], decimals: [1], percent: true },
      { name: 'Frames', range: [10, 900], decimals: [0], suffix: 'k', independent: true },
    ],
    goal: 'learns to play a game directly from pixels',
    weight: 1.2,
  },
  {
    name: 'Scene Text Detection',
    domain: 'vision',
    materials: ['ICDAR 2015', 'ICDAR 2013', 'MSRA-TD500', 'Total-Text', 'SCUT-CTW1500'],
    metrics: [
      { name: 'F-Measure', range: [70, 92], decimals: [1, 2], percent: true },
      { name: 'Precision', range: [75, 94], decimals: [1] },
      { name: 'Recall', range: [65, 90], decimals: [1] },
    ],
    goal: 'localises text regions in natural images',
  },
  {
    name: 'Unsupervised image classification',
    domain: 'generative',
    materials: ['MNIST', 'SVHN', 'CIFAR-10', 'STL-10'],
    metrics: [accuracy(40, 99)],
    goal: 'clusters images into classes without using labels',
    weight: 0.8,
  },
  {
    name: 'Image Generation',
    domain: 'generative',
    materials: ['CIFAR-10', 'CelebA 64x64', 'LSUN Bedroom 256 x 256', 'ImageNet 64x64'],
    metrics: [
      { name: 'Inception score', range: [6, 10.5], decimals: [2] },
      { name: 'FID', range: [2.5, 45], decimals: [1, 2], lowerIsBetter: true },
    ],
    goal: 'synthesises realistic images',
  },
  {
    name: 'Link Prediction',
    domain: 'graph',
    materials: ['FB15k-237', 'WN18RR', 'FB15k', 'WN18', 'YAGO3-10'],
    metrics: [
      { name: 'MRR', range: [0.24, 0.95], decimals: [3] },
      { name: 'Hits@10', range: [0.4, 0.96], decimals: [3] },
      { name: 'Hits@1', range: [0.15, 0.94], decimals: [3] },
    ],
    goal: 'predicts missing links in a knowledge graph',
  },
  {
    name: 'Node Classification',
    domain: 'graph',
    materials: ['Cora', 'Citeseer', 'Pubmed', 'PPI'],
    metrics: [accuracy(62, 90), { name: 'F1', range: [0.6, 0.99], decimals: [3] }],
    goal: 'labels the nodes of a graph from a few labelled examples',
  },
  {
    name: 'Text Classification',
    domain: 'language',
    materials: ['AG News', 'DBpedia', 'Yahoo! Answers', 'TREC-6', '20 Newsgroups'],
    metrics: [{ name: 'Error', range: [0.6, 30], decimals: [2], lowerIsBetter: true }, accuracy(70, 99.4)],
    goal: 'assigns topic labels to documents',
  },
  {
    name: 'Pose Estimation',
    domain: 'vision',
    materials: ['MPII Human Pose', 'COCO Keypoints', 'Leeds Sports Poses'],
    metrics: [
      { name: 'PCKh-0.5', range: [84, 94], decimals: [1] },
      { name: 'AP', range: [60, 78], decimals: [1] },
    ],
    goal: 'localises the body joints of people in an image',
  },
  {
    name: 'Text Summarization',
    domain: 'language',
    materials: ['CNN / Daily Mail', 'GigaWord', 'DUC 2004 Task 1', 'arXiv'],
    metrics: [
      { name: 'ROUGE-1', range: [28, 45], decimals: [2] },
      { name: 'ROUGE-2', range: [9, 22], decimals: [2] },
      { name: 'ROUGE-L', range: [25, 42], decimals: [2] },
    ],
    goal: 'produces short summaries of long documents',
  },
  {
    name: 'Semantic Role Labeling',
    domain: 'language',
    materials: ['CoNLL 2005', 'CoNLL 2012', 'OntoNotes'],
    metrics: [f1(76, 89)],
    goal: 'identifies who did what to whom in a sentence',
    weight: 0.7,
  },
  {
    name: 'Relation Extraction',
    domain: 'language',
    materials: ['TACRED', 'SemEval-2010 Task 8', 'NYT Corpus', 'ACE 2005'],
    metrics: [f1(55, 90), { name: 'P@10%', range: [60, 92], decimals: [1] }],
    goal: 'classifies the relation holding between two entity mentions',
  },
  {
    name: 'Action Recognition In Videos',
    domain: 'vision',
    materials: ['UCF101', 'HMDB-51', 'Kinetics-400', 'Something-Something V1'],
    metrics: [
      { name: 'Accuracy', range: [40, 98.5], decimals: [1, 2], percent: true },
      { name: 'Vid acc@1', range: [60, 82], decimals: [1] },
    ],
    goal: 'recognises human actions in video clips',
  },
  {
    name: 'Person Re-Identification',
    domain: 'vision',
    materials: ['Market-1501', 'DukeMTMC-reID', 'CUHK03', 'MSMT17'],
    metrics: [
      { name: 'Rank-1', range: [60, 96], decimals: [1, 2] },
      { name: 'MAP', range: [40, 90], decimals: [1, 2] },
    ],
    goal: 'matches images of the same person across cameras',
  },
  {
    name: 'Visual Question Answering',
    domain: 'vision',
    materials: ['VQA v2', 'VQA v1', 'CLEVR', 'GQA'],
    metrics: [{ name: 'Percentage correct', range: [55, 98.8], decimals: [1, 2] }],
    goal: 'answers natural-language questions about images',
  },
  {
    name: 'Image Captioning',
    domain: 'vision',
    materials: ['COCO Captions', 'Flickr30k', 'nocaps'],
    metrics: [
      { name: 'BLEU-4', range: [26, 41], decimals: [1] },
      { name: 'CIDEr', range: [85, 135], decimals: [1] },
      { name: 'METEOR', range: [22, 30], decimals: [1] },
    ],
    goal: 'describes the content of an image in a sentence',
  },
  {
    name: 'Face Verification',
    domain: 'vision',
    materials: ['Labeled Faces in the Wild', 'YouTube Faces DB', 'MegaFace', 'IJB-A'],
    metrics: [accuracy(90, 99.8), { name: 'TAR @ FAR=0.01', range: [0.8, 0.99], decimals: [3] }],
    goal: 'decides whether two face images show the same person',
  },
  {
    name: 'Part-Of-Speech Tagging',
    domain: 'language',
    materials: ['Penn Treebank', 'UD', 'Ritter'],
    metrics: [accuracy(88, 98)],
    goal: 'tags every word with its part of speech',
    weight: 0.7,
  },
];

/** Pieces of method names per domain: `{prefix}{core}` (DenseNet), `{acronym}-{core}` (AWD-LSTM), … */
export const METHOD_PREFIXES: Readonly<Record<ScirexDomain, readonly string[]>> = {
  vision: [
    'Res',
    'Dense',
    'Pyramid',
    'Dilated',
    'Mobile',
    'Squeeze',
    'Deformable',
    'Cascade',
    'Refine',
    'Atrous',
    'Fused',
    'Shuffle',
    'Efficient',
    'Wide',
    'Deep',
    'Hyper',
    'Multi',
    'Context',
    'Feature',
    'Spatial',
  ],
  language: [
    'Bi',
    'Multi',
    'Hier',
    'Sparse',
    'Gated',
    'Quasi',
    'Tree',
    'Deep',
    'Cross',
    'Span',
    'Syntax',
    'Char',
    'Dynamic',
    'Memory',
    'Latent',
    'Neural',
    'Fast',
    'Recursive',
    'Pointer',
    'Self',
  ],
  speech: ['Deep', 'Conv', 'Listen', 'Wave', 'Jasper', 'Quartz', 'Context', 'Streaming', 'Dual', 'Mono'],
  rl: [
    'Bootstrapped',
    'Dueling',
    'Rainbow',
    'Noisy',
    'Distributional',
    'Prioritized',
    'Recurrent',
    'Curious',
    'Ape',
    'Go',
  ],
  graph: ['Graph', 'Conv', 'Rotat', 'Tucker', 'Compl', 'Hyper', 'Relational', 'Gated', 'Simple', 'Cluster'],
  generative: [
    'Pixel',
    'Style',
    'Progressive',
    'Info',
    'Spectral',
    'Big',
    'Cycle',
    'Adversarial',
    'Variational',
    'Wasserstein',
  ],
};

export const METHOD_CORES: Readonly<Record<ScirexDomain, readonly string[]>> = {
  vision: ['Net', 'CNN', 'Seg', 'Det', 'RCNN', 'Former', 'ViT', 'Pose', 'Track', 'Caps'],
  language: ['LSTM', 'RNN', 'Transformer', 'BERT', 'Attn', 'Parser', 'Tagger', 'DNN', 'GRU', 'Encoder'],
  speech: ['Speech', 'ASR', 'CTC', 'LAS', 'Net', 'Former'],
  rl: ['DQN', 'A3C', 'PPO', 'Agent', 'Explorer', 'Q-learning'],
  graph: ['GCN', 'GAT', 'E', 'Sage', 'ConvE', 'GNN', 'Walk'],
  generative: ['GAN', 'VAE', 'Flow', 'Autoencoder', 'Net', 'Diffusion'],
};

/** Components a method section can describe, per domain. */
export const METHOD_COMPONENTS: Readonly<Record<ScirexDomain, readonly string[]>> = {
  vision: [
    'residual connections',
    'a pyramid pooling module',
    'dilated convolutions',
    'a feature pyramid',
    'depthwise separable convolutions',
    'an attention-based refinement head',
    'multi-scale feature fusion',
    'a lightweight decoder',
    'deformable sampling',
    'channel-wise gating',
    'a region proposal network',
  ],
  language: [
    'a bidirectional encoder',
    'multi-head self-attention',
    'a character-level embedding layer',
    'weight-dropped recurrent connections',
    'a pointer mechanism',
    'a highway network',
    'a biaffine classifier',
    'a shared multi-task encoder',
    'a gated memory cell',
    'a span representation layer',
    'a copy mechanism',
  ],
  speech: [
    'a convolutional front end',
    'a connectionist temporal classification loss',
    'an attention-based decoder',
    'a streaming encoder',
    'SpecAugment-style masking',
    'a language-model rescoring step',
  ],
  rl: [
    'an ensemble of value heads',
    'a dueling value decomposition',
    'prioritized experience replay',
    'a distributional value estimate',
    'an intrinsic curiosity bonus',
    'noisy linear layers',
    'a recurrent policy',
  ],
  graph: [
    'a spectral graph convolution',
    'neighbourhood attention',
    'a relation-specific projection',
    'a complex-valued embedding space',
    'a sampling-based aggregator',
    'a multi-hop propagation scheme',
  ],
  generative: [
    'an adversarial objective',
    'a latent code prior',
    'a progressive growing schedule',
    'spectral normalisation',
    'a mutual-information regulariser',
    'a cycle-consistency loss',
    'an autoregressive decoder',
  ],
};

/** Free-standing sentences for introductions, related work and conclusions ({task} is the task's display name). */
export const SCIREX_FILLER = {
  intro: [
    '{task} has attracted considerable attention in recent years .',
    'Despite steady progress , {task} remains challenging because of the large variability of real-world data .',
    'Most existing approaches rely on hand-crafted pipelines that are difficult to tune .',
    'Recent deep learning models have substantially improved the state of the art in {task} .',
    'In this paper , we revisit the design of models for {task} from a simple but principled perspective .',
    'A key difficulty is that annotated data is expensive to collect at scale .',
    'We argue that much of the remaining error stems from a lack of global context .',
  ],
  related: [
    'Early work on {task} relied on carefully engineered features [ reference ] .',
    'Several authors have proposed end-to-end trainable architectures for {task} [ reference ] [ reference ] .',
    'Our work is also related to methods that share parameters across tasks [ reference ] .',
    'Ensembling and data augmentation are orthogonal to our contribution and could be combined with it .',
    'Unlike prior work , we do not require any external resources during training .',
  ],
  conclusion: [
    'We believe the proposed approach is a useful baseline for future work on {task} .',
    'In future work we plan to extend the model to other modalities .',
    'The code and pretrained models will be made publicly available .',
    'Our analysis suggests that further gains are possible with larger training sets .',
  ],
  implementation: [
    'All models are trained with stochastic gradient descent with momentum 0.9 .',
    'We use a batch size of 64 and an initial learning rate of 0.001 , decayed by a factor of 10 twice .',
    'Training takes about two days on four GPUs .',
    'Hyperparameters are selected on the validation set .',
    'We apply dropout with rate 0.3 to all hidden layers .',
  ],
} as const;
