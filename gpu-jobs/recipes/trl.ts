/**
 * TRL recipe: JSON configs read by gpu-jobs/python/train_sft.py and train_dpo.py. `args` is passed verbatim as
 * keyword arguments to TRL's `SFTConfig` / `DPOConfig` (both extend transformers' `TrainingArguments`), so every
 * key here is a documented TRL/transformers argument name; the rest (model, data file, LoRA) is read by the
 * scripts. Paths are relative to the run folder, where the scripts are started.
 */
import { DEEPSPEED_FILE, DPO_FILE, SFT_FILE } from './llamafactory.ts';
import { outputDirs, type TrainSettings } from './settings.ts';

/** Longest step text the DPO completion holds (a Thought/Action/Action Input step; ours). */
export const DPO_MAX_COMPLETION_TOKENS = 256;

export interface TrlConfig {
  kind: 'sft' | 'dpo';
  model_name_or_path: string;
  /** LoRA adapter to start from (DPO after LoRA SFT). */
  adapter_name_or_path: string | null;
  train_file: string;
  /** peft.LoraConfig kwargs, or null for full fine-tuning. */
  lora: Record<string, unknown> | null;
  /** Records over args.max_length (real tokenizer count): dropped when true, else truncated by TRL and counted. */
  drop_over_length: boolean;
  args: Record<string, unknown>;
}

function lora(s: TrainSettings): Record<string, unknown> | null {
  if (s.finetuning !== 'lora') return null;
  return {
    r: s.lora.rank,
    lora_alpha: s.lora.alpha,
    lora_dropout: s.lora.dropout,
    target_modules: 'all-linear',
    task_type: 'CAUSAL_LM',
  };
}

function trainingArgs(s: TrainSettings, outputDir: string) {
  const args: Record<string, unknown> = {
    output_dir: outputDir,
    lr_scheduler_type: s.scheduler,
    warmup_ratio: s.warmupRatio,
    max_length: s.maxLength,
    bf16: s.bf16,
    per_device_train_batch_size: s.perDeviceBatchSize,
    gradient_accumulation_steps: s.gradientAccumulation,
    gradient_checkpointing: s.gradientCheckpointing,
    logging_steps: 5,
    save_strategy: 'epoch',
    seed: s.seed,
    report_to: 'none',
  };
  if (s.deepspeed !== 'none') args.deepspeed = DEEPSPEED_FILE(s.deepspeed);
  return args;
}

/**
 * SFT: the script turns each `messages` record into a conversational prompt ([system, user]) / completion
 * ([assistant]) pair, so the loss covers the assistant turn only (`completion_only_loss`), observations
 * included, as the agent saw the path.
 */
export function trlSft(s: TrainSettings, options: { dropOverLength?: boolean } = {}): TrlConfig {
  return {
    kind: 'sft',
    model_name_or_path: s.baseModel,
    adapter_name_or_path: null,
    train_file: SFT_FILE,
    lora: lora(s),
    drop_over_length: options.dropOverLength ?? false,
    args: {
      ...trainingArgs(s, outputDirs(s).trlSft),
      learning_rate: s.learningRate,
      num_train_epochs: s.epochs,
      completion_only_loss: true,
      packing: false,
    },
  };
}

/** DPO from the SFT output (optional; not in the seed's recipe). */
export function trlDpo(s: TrainSettings, options: { dropOverLength?: boolean } = {}): TrlConfig {
  const sftOut = outputDirs(s).trlSft;
  const maxCompletion = Math.min(DPO_MAX_COMPLETION_TOKENS, Math.floor(s.maxLength / 2));
  return {
    kind: 'dpo',
    model_name_or_path: s.finetuning === 'lora' ? s.baseModel : sftOut,
    adapter_name_or_path: s.finetuning === 'lora' ? sftOut : null,
    train_file: DPO_FILE,
    lora: lora(s),
    drop_over_length: options.dropOverLength ?? false,
    args: {
      ...trainingArgs(s, outputDirs(s).trlDpo),
      learning_rate: s.dpo.learningRate,
      num_train_epochs: s.dpo.epochs,
      beta: s.dpo.beta,
      loss_type: 'sigmoid',
      max_prompt_length: s.maxLength - maxCompletion,
      max_completion_length: maxCompletion,
    },
  };
}
