/**
 * The STE fine-tuning recipe (spec `ste.md`, "Fine-tuning" and "Continual learning"; paper §3 and §4.4): the
 * settings of the paper and the authors' run scripts, and the training set of each continual-learning round.
 *
 * Settings (the paper unless marked): one epoch (the run scripts use 2: `epochs: 2`), a global batch of 64
 * sequences — the authors' `run_ft_CL.sh`: 4 GPUs × micro-batch 1 × 16 accumulation —, lr 2e-5, warm-up ratio
 * 0.03 with a cosine schedule (`llama_finetuning.py`), 2,048 tokens (`--max_words_dataset 2048`), full fine-tuning,
 * base model Llama-2-Chat-7B (the paper also tunes Llama-2-Chat-13B and Mistral-Instruct-7B). Everything else is
 * the shared recipe's (`settings.ts`): the same validation, chat format, LLaMA-Factory and TRL renderers.
 *
 * Continual learning (data_proc_format.py): tools arrive in rounds; round k trains the model of round k − 1 on
 * round k's records plus a replay of 10 % of each earlier round's exemplars — Python's `round(0.1 × n)` exemplars,
 * seeded by the earlier round (core/ste/rehearsal.ts) — each replayed exemplar with both of its records (the
 * call and the answer, `meta.exemplarId`). `replay: false` is the paper's "without rehearsal" row. The paper also
 * mixes 2,000 general instruction examples (FLAN) into every round; tooldrift has none to ship, so general records
 * are optional (`general`: lines in the same SFT format).
 */
import { rehearsalSample } from '../../core/ste/rehearsal.ts';
import { resolveSettings, type TrainSettings, type TrainSettingsInput } from './settings.ts';

/** The paper's STE fine-tuning settings over the shared recipe's defaults. */
export const STE_SETTINGS_INPUT = {
  baseModel: 'meta-llama/Llama-2-7b-chat-hf',
  template: 'llama2',
  finetuning: 'full',
  learningRate: 2e-5,
  scheduler: 'cosine',
  warmupRatio: 0.03,
  epochs: 1,
  maxLength: 2048,
  perDeviceBatchSize: 1,
  gradientAccumulation: 16,
  gpus: 4,
} as const satisfies TrainSettingsInput;

/** STE settings with overrides (unknown keys are errors, as for every recipe). */
export function steSettings(overrides: TrainSettingsInput = {}): TrainSettings {
  return resolveSettings({ ...STE_SETTINGS_INPUT, ...overrides });
}

/** One parsed line of an STE SFT export: its text as served and the exemplar it belongs to. */
export interface SteLine {
  text: string;
  exemplarId: string;
}

/** The exemplar id of an export line (`meta.exemplarId`), or the line itself when it has none (one group each). */
export function steLine(text: string): SteLine {
  let id: unknown;
  try {
    id = (JSON.parse(text) as { meta?: { exemplarId?: unknown } }).meta?.exemplarId;
  } catch {
    id = undefined;
  }
  return { text, exemplarId: typeof id === 'string' ? id : `line:${text}` };
}

/** An export's lines grouped by exemplar, in first-seen order. */
export function exemplarGroups(lines: readonly SteLine[]): SteLine[][] {
  const groups = new Map<string, SteLine[]>();
  for (const l of lines) {
    const g = groups.get(l.exemplarId);
    if (g) g.push(l);
    else groups.set(l.exemplarId, [l]);
  }
  return [...groups.values()];
}

export interface RoundReplay {
  /** 1-based round the replay comes from. */
  round: number;
  exemplars: number;
  records: number;
}

export interface RoundTrainingSet {
  lines: string[];
  /** Round k's own exemplars and records. */
  own: { exemplars: number; records: number };
  replayed: RoundReplay[];
  general: number;
}

/**
 * The training lines of round `k` (1-based) of `rounds` (each round: its export's lines in order): its own
 * records, then — with replay — the sampled exemplars of each earlier round (both records each), then the general
 * records.
 */
export function steRoundTrainingSet(
  rounds: readonly (readonly SteLine[])[],
  k: number,
  options: { replay: boolean; fraction?: number; general?: readonly string[] },
): RoundTrainingSet {
  const own = rounds[k - 1];
  if (!own) throw new RangeError(`no round ${k} among ${rounds.length}`);
  const lines = own.map((l) => l.text);
  const replayed: RoundReplay[] = [];
  if (options.replay) {
    for (let j = 1; j < k; j++) {
      const groups = exemplarGroups(rounds[j - 1] as readonly SteLine[]);
      const sample = rehearsalSample({ id: String(j), exemplars: groups }, options.fraction);
      const records = sample.flat().map((l) => l.text);
      lines.push(...records);
      replayed.push({ round: j, exemplars: sample.length, records: records.length });
    }
  }
  const general = options.general ?? [];
  lines.push(...general);
  return {
    lines,
    own: { exemplars: exemplarGroups(own).length, records: own.length },
    replayed,
    general: general.length,
  };
}
