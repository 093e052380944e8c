/**
 * One typed settings object from which every training and serving config is rendered (LLaMA-Factory YAML, TRL
 * JSON, DeepSpeed JSON, the vLLM command). Defaults are the seed paper's fine-tuning settings (ToolEVO: full
 * fine-tuning, learning rate 2e-5, cosine schedule, warmup ratio 0.03, 8 epochs, max length 1024); everything the
 * seed does not state is marked "ours" below and chosen to be ordinary for an 8B model.
 *
 * Paper values (ToolEVO, spec §8.3): base model Meta-Llama-3-8B (the base model, not Instruct), global batch 512
 * (per-device 8 × gradient accumulation 8 × 8 GPUs), full fine-tuning, lr 2e-5, cosine, warmup 3 %, 8 epochs.
 *
 * Max length: the paper's cutoff is 1024, but tooldrift's training records are longer. The SFT record's system
 * message is now ToolEvo's SFT prompt (header and tool list, no few-shots), yet whole SFT records of a simulated
 * search are still over 1024 tokens by the validator's estimate, and a DPO prompt carries the agent prompt head
 * (1,508 Llama-3 tokens measured, whole DPO sequences 1,566–2,232). At 1024 every record is truncated, so the
 * default is 4096, which fits them (`maxLength: 1024` gives the paper's value); the validator and the training
 * scripts report how many records exceed whatever is chosen.
 */
import { z } from 'zod';

export const FINETUNING = ['full', 'lora'] as const;

const LoraSchema = z.strictObject({
  /** LoRA rank (ours). */
  rank: z.number().int().min(1).max(1024).default(64),
  alpha: z.number().int().min(1).default(128),
  dropout: z.number().min(0).max(1).default(0.05),
});

const DpoSchema = z.strictObject({
  /** DPO is optional and not in the seed's recipe; these are TRL's / common defaults (ours). */
  beta: z.number().positive().default(0.1),
  /** The usual order of magnitude for full-parameter DPO of 7–8B models (ours). */
  learningRate: z.number().positive().default(5e-7),
  epochs: z.number().positive().default(1),
});

const ServeSchema = z.strictObject({
  /** `--served-model-name`: what tooldrift sends as `model` (MODEL_NAME). */
  servedModelName: z
    .string()
    .regex(/^[A-Za-z0-9._:/-]+$/)
    .default('tooldrift-sft'),
  host: z.string().min(1).default('0.0.0.0'),
  port: z.number().int().min(1).max(65535).default(8000),
  /**
   * `--max-model-len`: inference prompts are longer than training records (the MCTS prompt grows by a step and
   * an observation of up to 1,024 whitespace tokens per depth), so this is the model's native context by default
   * (8,192 for Llama-3-8B), independent of the training max length.
   */
  maxModelLen: z.number().int().min(256).default(8192),
  /**
   * `--max-logprobs`: the model layer sends `logprobs: true` without `top_logprobs` (the sampled token's
   * log-prob only, for MCTS priors), which any value ≥ 1 serves; 5 as in the top-level README.
   */
  maxLogprobs: z.number().int().min(1).default(5),
  /** `--seed`: the engine seed; tooldrift also sends a per-request `seed`. */
  seed: z.number().int().min(0).default(0),
  tensorParallelSize: z.number().int().min(1).default(1),
  /** How tooldrift reaches the server (OPENAI_BASE_URL host). */
  publicHost: z.string().min(1).default('127.0.0.1'),
});

export const TrainSettingsSchema = z.strictObject({
  /** Hugging Face id or local path; a placeholder to override (gated: accept the licence on the Hub first). */
  baseModel: z.string().min(1).default('meta-llama/Meta-Llama-3-8B'),
  /** LLaMA-Factory chat template of the base model (`llama3`, `qwen`, …). */
  template: z.string().min(1).default('llama3'),
  /** ToolEVO fine-tunes all parameters; LoRA is the single-GPU fallback. */
  finetuning: z.enum(FINETUNING).default('full'),
  learningRate: z.number().positive().default(2e-5),
  scheduler: z.enum(['cosine', 'linear', 'constant_with_warmup']).default('cosine'),
  warmupRatio: z.number().min(0).max(1).default(0.03),
  epochs: z.number().positive().default(8),
  /** Training sequence length in tokens (4096 fits tooldrift's records; the paper's 1024 truncates them). */
  maxLength: z.number().int().min(64).default(4096),
  bf16: z.boolean().default(true),
  /** The paper's: 8 sequences per GPU × 8 accumulation × 8 GPUs = 512 sequences per optimizer step. */
  perDeviceBatchSize: z.number().int().min(1).default(8),
  gradientAccumulation: z.number().int().min(1).default(8),
  gpus: z.number().int().min(1).default(8),
  /** ZeRO-3 shards parameters, gradients and optimizer state across GPUs (needed for full FT of 8B). */
  deepspeed: z.enum(['zero3', 'zero2', 'none']).default('zero3'),
  gradientCheckpointing: z.boolean().default(true),
  seed: z.number().int().min(0).default(42),
  lora: LoraSchema.default(LoraSchema.parse({})),
  dpo: DpoSchema.default(DpoSchema.parse({})),
  serve: ServeSchema.default(ServeSchema.parse({})),
});

export type TrainSettings = z.output<typeof TrainSettingsSchema>;
export type TrainSettingsInput = z.input<typeof TrainSettingsSchema>;

/** The seed's settings with this project's defaults for the rest. */
export const SEED_SETTINGS: TrainSettings = TrainSettingsSchema.parse({});

/** Validated settings from partial overrides (unknown keys are errors, not silently ignored). */
export function resolveSettings(input: TrainSettingsInput = {}): TrainSettings {
  return TrainSettingsSchema.parse(input);
}

/** Sequences per optimizer step. */
export function globalBatchSize(s: TrainSettings): number {
  return s.perDeviceBatchSize * s.gradientAccumulation * s.gpus;
}

/** Where each trainer writes its model, relative to the run folder. */
export function outputDirs(s: TrainSettings) {
  return {
    llamafactorySft: `checkpoints/llamafactory-sft-${s.finetuning}`,
    llamafactoryDpo: `checkpoints/llamafactory-dpo-${s.finetuning}`,
    trlSft: `checkpoints/trl-sft-${s.finetuning}`,
    trlDpo: `checkpoints/trl-dpo-${s.finetuning}`,
  };
}
