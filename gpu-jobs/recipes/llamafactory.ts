/**
 * LLaMA-Factory recipe: the `dataset_info.json` entries for the exported files and the training YAMLs
 * (`llamafactory-cli train <yaml>`, run from the run folder: every path here is relative to it).
 *
 * SFT uses the export as is: LLaMA-Factory's sharegpt format with OpenAI-style tags reads
 * `{"messages": [system, user, assistant]}` (a leading system message becomes the system prompt); the `meta`
 * column is ignored. DPO needs one conversion: LLaMA-Factory's sharegpt preference format wants `chosen` and
 * `rejected` as single message objects after a `messages` prompt, while the export (TRL's conversational format)
 * holds one-message lists, so `toLlamaFactoryDpoLine` rewrites each line into `dpo.llamafactory.jsonl`.
 */

import type { Scalar } from 'yaml';
import { stringify } from 'yaml';
import { outputDirs, type TrainSettings } from './settings.ts';

export const SFT_DATASET = 'tooldrift_sft';
export const DPO_DATASET = 'tooldrift_dpo';
export const SFT_FILE = 'sft.jsonl';
export const DPO_FILE = 'dpo.jsonl';
export const DPO_LLAMAFACTORY_FILE = 'dpo.llamafactory.jsonl';
export const DEEPSPEED_FILE = (stage: 'zero3' | 'zero2') => `deepspeed/ds_${stage}.json`;

const TAGS = {
  role_tag: 'role',
  content_tag: 'content',
  user_tag: 'user',
  assistant_tag: 'assistant',
  system_tag: 'system',
};

/** `dataset_info.json` of the run folder (LLaMA-Factory's `dataset_dir`). */
export function datasetInfo(options: { dpo: boolean }): Record<string, unknown> {
  const info: Record<string, unknown> = {
    [SFT_DATASET]: {
      file_name: SFT_FILE,
      formatting: 'sharegpt',
      columns: { messages: 'messages' },
      tags: TAGS,
    },
  };
  if (options.dpo) {
    info[DPO_DATASET] = {
      file_name: DPO_LLAMAFACTORY_FILE,
      formatting: 'sharegpt',
      ranking: true,
      columns: { messages: 'messages', chosen: 'chosen', rejected: 'rejected' },
      tags: TAGS,
    };
  }
  return info;
}

/** One exported DPO line → LLaMA-Factory's sharegpt preference line (throws on a line that is not a DPO record). */
export function toLlamaFactoryDpoLine(line: string): string {
  const record = JSON.parse(line) as { prompt?: unknown; chosen?: unknown; rejected?: unknown };
  const one = (v: unknown, field: string) => {
    if (!Array.isArray(v) || v.length !== 1)
      throw new Error(`DPO record: "${field}" must be a one-message list`);
    return v[0] as unknown;
  };
  if (!Array.isArray(record.prompt)) throw new Error('DPO record: "prompt" must be a list of messages');
  return JSON.stringify({
    messages: record.prompt,
    chosen: one(record.chosen, 'chosen'),
    rejected: one(record.rejected, 'rejected'),
  });
}

/** The whole DPO export converted (blank lines skipped; validate first, this does not). */
export function toLlamaFactoryDpo(text: string): string {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => `${toLlamaFactoryDpoLine(l)}\n`)
    .join('');
}

function common(s: TrainSettings) {
  const method: Record<string, unknown> = { finetuning_type: s.finetuning };
  if (s.finetuning === 'lora') {
    method.lora_rank = s.lora.rank;
    method.lora_alpha = s.lora.alpha;
    method.lora_dropout = s.lora.dropout;
    method.lora_target = 'all';
  }
  if (s.deepspeed !== 'none') method.deepspeed = DEEPSPEED_FILE(s.deepspeed);
  return {
    model: { model_name_or_path: s.baseModel, trust_remote_code: false },
    method,
    data: {
      dataset_dir: '.',
      template: s.template,
      cutoff_len: s.maxLength,
      overwrite_cache: true,
      preprocessing_num_workers: 8,
    },
    train: {
      per_device_train_batch_size: s.perDeviceBatchSize,
      gradient_accumulation_steps: s.gradientAccumulation,
      lr_scheduler_type: s.scheduler,
      warmup_ratio: s.warmupRatio,
      bf16: s.bf16,
      gradient_checkpointing: s.gradientCheckpointing,
      seed: s.seed,
      ddp_timeout: 180000000,
    },
    output: {
      logging_steps: 5,
      save_strategy: 'epoch',
      plot_loss: true,
      overwrite_output_dir: true,
      report_to: 'none',
    },
  };
}

/** The SFT YAML as an object (sections flattened; LLaMA-Factory reads one flat mapping). */
export function llamaFactorySft(s: TrainSettings): Record<string, unknown> {
  const c = common(s);
  return {
    ...c.model,
    stage: 'sft',
    do_train: true,
    ...c.method,
    dataset: SFT_DATASET,
    ...c.data,
    output_dir: outputDirs(s).llamafactorySft,
    ...c.output,
    ...c.train,
    learning_rate: s.learningRate,
    num_train_epochs: s.epochs,
  };
}

/** DPO from the SFT model (optional; not part of the seed's recipe). */
export function llamaFactoryDpo(s: TrainSettings): Record<string, unknown> {
  const c = common(s);
  const sftOut = outputDirs(s).llamafactorySft;
  return {
    // LoRA: the base model plus the SFT adapter; full: the SFT checkpoint itself.
    ...(s.finetuning === 'lora'
      ? { model_name_or_path: s.baseModel, adapter_name_or_path: sftOut }
      : { model_name_or_path: sftOut }),
    trust_remote_code: false,
    stage: 'dpo',
    do_train: true,
    ...c.method,
    pref_beta: s.dpo.beta,
    pref_loss: 'sigmoid',
    dataset: DPO_DATASET,
    ...c.data,
    output_dir: outputDirs(s).llamafactoryDpo,
    ...c.output,
    ...c.train,
    learning_rate: s.dpo.learningRate,
    num_train_epochs: s.dpo.epochs,
  };
}

/** A non-integer number, so that the YAML emitter can write it in a form YAML 1.1 readers take as a float. */
class YamlFloat {
  constructor(readonly value: number) {}
}

/**
 * `5e-7` is a string to PyYAML (YAML 1.1 wants a dot in the mantissa and a signed exponent), and LLaMA-Factory
 * reads its YAML with PyYAML-based loaders: exponent forms are written as `5.0e-7`, the rest as JavaScript does.
 */
export function yamlFloatText(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const plain = String(value);
  if (!plain.includes('e')) return plain.includes('.') ? plain : `${plain}.0`;
  const [mantissa = '', exponent = ''] = value.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}e${exponent.startsWith('-') ? exponent : `+${exponent.replace('+', '')}`}`;
}

function markFloats(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? value : new YamlFloat(value);
  if (Array.isArray(value)) return value.map(markFloats);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, markFloats(v)]));
  return value;
}

const FLOAT_TAG = {
  tag: 'tag:yaml.org,2002:float',
  default: true,
  identify: (v: unknown) => v instanceof YamlFloat,
  resolve: (text: string) => Number(text),
  stringify: (item: Scalar) => yamlFloatText((item.value as YamlFloat).value),
};

/** YAML text with a comment header (floats in a form YAML 1.1 and 1.2 readers agree on). */
export function toYaml(value: unknown, header: readonly string[]): string {
  const comments = header.map((l) => (l === '' ? '#' : `# ${l}`)).join('\n');
  return `${comments}\n${stringify(markFloats(value), { lineWidth: 0, customTags: [FLOAT_TAG] })}`;
}

/**
 * DeepSpeed config with "auto" values filled in by the HF Trainer from the training arguments (used by both
 * LLaMA-Factory and TRL). ZeRO-3 gathers 16-bit weights on save so the checkpoint is servable by vLLM.
 */
export function deepspeedConfig(stage: 'zero3' | 'zero2'): Record<string, unknown> {
  const zero: Record<string, unknown> =
    stage === 'zero3'
      ? {
          stage: 3,
          overlap_comm: false,
          contiguous_gradients: true,
          sub_group_size: 1e9,
          reduce_bucket_size: 'auto',
          stage3_prefetch_bucket_size: 'auto',
          stage3_param_persistence_threshold: 'auto',
          stage3_max_live_parameters: 1e9,
          stage3_max_reuse_distance: 1e9,
          stage3_gather_16bit_weights_on_model_save: true,
        }
      : {
          stage: 2,
          allgather_partitions: true,
          allgather_bucket_size: 5e8,
          overlap_comm: false,
          reduce_scatter: true,
          reduce_bucket_size: 5e8,
          contiguous_gradients: true,
          round_robin_gradients: true,
        };
  return {
    train_batch_size: 'auto',
    train_micro_batch_size_per_gpu: 'auto',
    gradient_accumulation_steps: 'auto',
    gradient_clipping: 'auto',
    zero_allow_untested_optimizer: true,
    fp16: {
      enabled: 'auto',
      loss_scale: 0,
      loss_scale_window: 1000,
      initial_scale_power: 16,
      hysteresis: 2,
      min_loss_scale: 1,
    },
    bf16: { enabled: 'auto' },
    zero_optimization: zero,
  };
}
