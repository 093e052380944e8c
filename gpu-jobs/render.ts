/**
 * Renders every config of a run folder from one settings object (gpu-jobs/recipes/settings.ts; defaults are the
 * seed's), next to the exported files:
 *
 *   settings.json               the resolved settings (what everything below came from)
 *   dataset_info.json           LLaMA-Factory dataset entries (dataset_dir is the run folder)
 *   dpo.llamafactory.jsonl      dpo.jsonl in LLaMA-Factory's preference layout (when dpo.jsonl is there)
 *   llamafactory/sft.yaml, dpo.yaml     `llamafactory-cli train llamafactory/sft.yaml`
 *   trl/sft.json, dpo.json      `python gpu-jobs/python/train_sft.py trl/sft.json` (or through accelerate)
 *   deepspeed/ds_zero3.json     (or ds_zero2.json) for either trainer
 *   serve.sh                    the vLLM command for the chosen trainer and stage
 *   tooldrift.env               MODEL_PROVIDER / OPENAI_BASE_URL / MODEL_NAME for provider `openai`
 *
 * Usage: npx tsx gpu-jobs/render.ts --run runs/x [--settings FILE.json] [--base-model ID] [--template NAME]
 *   [--finetuning full|lora] [--max-length N] [--gpus N] [--served-model-name NAME] [--public-host HOST]
 *   [--serve llamafactory:sft|llamafactory:dpo|trl:sft|trl:dpo] [--drop-over-length]
 * Exit codes: 0 written (warnings allowed), 2 usage or settings error.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { runIfScript, usageMessage } from './cli.ts';
import {
  DEEPSPEED_FILE,
  DPO_FILE,
  DPO_LLAMAFACTORY_FILE,
  datasetInfo,
  deepspeedConfig,
  llamaFactoryDpo,
  llamaFactorySft,
  SFT_FILE,
  toLlamaFactoryDpo,
  toYaml,
} from './recipes/llamafactory.ts';
import {
  globalBatchSize,
  resolveSettings,
  type TrainSettings,
  type TrainSettingsInput,
} from './recipes/settings.ts';
import { trlDpo, trlSft } from './recipes/trl.ts';
import {
  type Stage,
  type Trainer,
  tooldriftEnv,
  tooldriftStartCommand,
  vllmServeCommand,
} from './recipes/vllm.ts';
import {
  type Io,
  overLengthWarning,
  PROCESS_IO,
  summarizeReport,
  UsageError,
  validateFile,
} from './validate.ts';

export interface RenderOptions {
  serve?: { trainer: Trainer; stage: Stage };
  dropOverLength?: boolean;
}

export interface RenderResult {
  /** Paths written, relative to the run folder, in writing order. */
  files: string[];
  warnings: string[];
}

function header(s: TrainSettings, what: string): string[] {
  return [
    `${what} — rendered by gpu-jobs/render.ts from settings.json; edit the settings and re-render rather than this file.`,
    `Run from the run folder. Global batch = ${s.perDeviceBatchSize} per GPU x ${s.gradientAccumulation} accumulation x ${s.gpus} GPU(s) = ${globalBatchSize(s)}.`,
    `Settings: lr ${s.learningRate}, ${s.scheduler}, warmup ratio ${s.warmupRatio}, ${s.epochs} epochs, max length ${s.maxLength}.`,
  ];
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** Writes the configs of `runDir`; validation of the exported files (when present) turns into warnings. */
export async function renderRun(
  runDir: string,
  settings: TrainSettings,
  options: RenderOptions = {},
): Promise<RenderResult> {
  const files: string[] = [];
  const warnings: string[] = [];
  const write = (rel: string, text: string) => {
    const path = join(runDir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    files.push(rel);
  };
  const s = settings;
  const hasSft = existsSync(join(runDir, SFT_FILE));
  const hasDpo = existsSync(join(runDir, DPO_FILE));
  if (!hasSft) warnings.push(`${SFT_FILE} is not in ${runDir} yet: run gpu-jobs/export.ts first`);

  for (const [kind, file, present] of [
    ['sft', SFT_FILE, hasSft],
    ['dpo', DPO_FILE, hasDpo],
  ] as const) {
    if (!present) continue;
    const report = await validateFile(kind, join(runDir, file), { maxLength: s.maxLength });
    if (report.defects.length > 0)
      warnings.push(
        `${file}: ${report.defects.length} defective line(s); run gpu-jobs/validate.ts for details`,
      );
    const over = overLengthWarning(file, summarizeReport(report));
    if (over) warnings.push(over);
  }

  write('settings.json', json(s));
  write('dataset_info.json', json(datasetInfo({ dpo: hasDpo })));
  if (hasDpo) write(DPO_LLAMAFACTORY_FILE, toLlamaFactoryDpo(readFileSync(join(runDir, DPO_FILE), 'utf8')));
  write('llamafactory/sft.yaml', toYaml(llamaFactorySft(s), header(s, 'LLaMA-Factory SFT')));
  const trlOptions = { dropOverLength: options.dropOverLength ?? false };
  write('trl/sft.json', json(trlSft(s, trlOptions)));
  if (hasDpo) {
    write(
      'llamafactory/dpo.yaml',
      toYaml(llamaFactoryDpo(s), header(s, 'LLaMA-Factory DPO (optional, after SFT)')),
    );
    write('trl/dpo.json', json(trlDpo(s, trlOptions)));
  } else {
    warnings.push(`${DPO_FILE} is not in ${runDir}: DPO configs skipped`);
  }
  if (s.deepspeed !== 'none') write(DEEPSPEED_FILE(s.deepspeed), json(deepspeedConfig(s.deepspeed)));

  const serve = options.serve ?? { trainer: 'llamafactory', stage: 'sft' };
  if (serve.stage === 'dpo' && !hasDpo) warnings.push('serving the DPO model, but no DPO data was exported');
  write(
    'serve.sh',
    [
      '#!/usr/bin/env bash',
      `# vLLM for tooldrift provider \`openai\` (${serve.trainer} ${serve.stage} model). Run from the run folder.`,
      '# Add --api-key KEY to require a key; then give tooldrift the same key as secret OPENAI_API_KEY (.dev.vars).',
      'set -euo pipefail',
      `exec ${vllmServeCommand(s, serve.trainer, serve.stage)}`,
      '',
    ].join('\n'),
  );
  write(
    'tooldrift.env',
    [
      '# tooldrift variables for provider `openai` on the server of serve.sh (wrangler vars; see edge/env.ts).',
      `# Local: ${tooldriftStartCommand(s)}`,
      ...Object.entries(tooldriftEnv(s)).map(([k, v]) => `${k}=${v}`),
      '',
    ].join('\n'),
  );
  return { files, warnings };
}

const SERVE = /^(llamafactory|trl):(sft|dpo)$/;

function parseRenderArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      run: { type: 'string' },
      settings: { type: 'string' },
      'base-model': { type: 'string' },
      template: { type: 'string' },
      finetuning: { type: 'string' },
      'max-length': { type: 'string' },
      gpus: { type: 'string' },
      'served-model-name': { type: 'string' },
      'public-host': { type: 'string' },
      serve: { type: 'string' },
      'drop-over-length': { type: 'boolean', default: false },
    },
    strict: true,
  });
}

function int(raw: string, flag: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new UsageError(`${flag} must be an integer, got ${raw}`);
  return n;
}

/** Settings from an optional JSON file with command-line overrides on top. */
export function settingsFromArgs(values: ReturnType<typeof parseRenderArgs>['values']): TrainSettingsInput {
  const input = (
    values.settings ? JSON.parse(readFileSync(values.settings, 'utf8')) : {}
  ) as TrainSettingsInput;
  if (values['base-model']) input.baseModel = values['base-model'];
  if (values.template) input.template = values.template;
  if (values.finetuning) input.finetuning = values.finetuning as TrainSettingsInput['finetuning'];
  if (values['max-length']) input.maxLength = int(values['max-length'], '--max-length');
  if (values.gpus) input.gpus = int(values.gpus, '--gpus');
  if (values['served-model-name'] || values['public-host']) {
    input.serve = { ...input.serve };
    if (values['served-model-name']) input.serve.servedModelName = values['served-model-name'];
    if (values['public-host']) input.serve.publicHost = values['public-host'];
  }
  return input;
}

export async function main(argv: string[], io: Io = PROCESS_IO): Promise<number> {
  let settings: TrainSettings;
  let runDir: string;
  let serve: RenderOptions['serve'];
  let values: ReturnType<typeof parseRenderArgs>['values'];
  try {
    values = parseRenderArgs(argv).values;
    if (!values.run) throw new UsageError('--run DIR is required');
    runDir = values.run;
    settings = resolveSettings(settingsFromArgs(values));
    if (values.serve) {
      const m = SERVE.exec(values.serve);
      if (!m)
        throw new UsageError(
          `--serve must be trainer:stage (llamafactory|trl):(sft|dpo), got ${values.serve}`,
        );
      serve = { trainer: m[1] as Trainer, stage: m[2] as Stage };
    }
  } catch (error) {
    const message = usageMessage(error);
    io.err(`render: ${message}`);
    io.err(
      'usage: npx tsx gpu-jobs/render.ts --run DIR [--settings FILE.json] [--max-length N] … (see gpu-jobs/README.md)',
    );
    return 2;
  }
  mkdirSync(runDir, { recursive: true });
  const result = await renderRun(runDir, settings, {
    ...(serve ? { serve } : {}),
    dropOverLength: values['drop-over-length'],
  });
  for (const f of result.files) io.out(`wrote ${join(runDir, f)}`);
  for (const w of result.warnings) io.err(`render: warning: ${w}`);
  return 0;
}

runIfScript(import.meta.url, 'render', (argv) => main(argv));
