/**
 * The STE fine-tuning recipe end to end (gpu-jobs/recipes/ste.ts): one folder per continual-learning round, each
 * with its training set (its own STE records plus the 10 % replay of every earlier round), validated like every
 * export, and the LLaMA-Factory / TRL configs rendered with the paper's settings; round k starts from round
 * k − 1's checkpoint.
 *
 *   npx tsx gpu-jobs/ste.ts --out runs/ste-cl --url http://localhost:8787 --key dev-user-key --run R1 --run R2
 *   npx tsx gpu-jobs/ste.ts --out runs/ste-cl --round r1.jsonl --round r2.jsonl     (exports saved before)
 *     [--no-replay] [--replay-fraction 0.1] [--general FILE] [--documentation none|agent-prompt]
 *     [--trainer llamafactory|trl] [--settings FILE.json] [--base-model ID] [--template NAME] [--epochs N]
 *     [--gpus N] [--max-length N]
 *
 * With `--run`, each round is GET /v1/exports/ste-sft.jsonl?run=ID (streamed to disk; the key only in the
 * Authorization header). One round is plain STE fine-tuning. Files: `round-K/export.jsonl` (the round's records as
 * exported), `round-K/sft.jsonl` (its training set), the rendered configs of `render.ts` in each round folder,
 * `train.sh` (the rounds in order) and `manifest.json` (sources, counts, replay, validation, settings).
 *
 * Exit codes: 0 written (warnings allowed), 1 written but some lines are defective, 2 usage error, 3 the server
 * refused or could not be reached.
 */
import { copyFileSync, createWriteStream, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { parseArgs } from 'node:util';
import { STE_SFT_DOCUMENTATION, type SteSftDocumentation } from '../core/ste/sft.ts';
import { runIfScript, usageMessage } from './cli.ts';
import { ExportHttpError, openExport, publicBaseUrl } from './export.ts';
import { SFT_FILE } from './recipes/llamafactory.ts';
import { outputDirs, type TrainSettings, type TrainSettingsInput } from './recipes/settings.ts';
import { type RoundReplay, steLine, steRoundTrainingSet, steSettings } from './recipes/ste.ts';
import type { Trainer } from './recipes/vllm.ts';
import { renderRun } from './render.ts';
import {
  formatSummary,
  type Io,
  jsonlLines,
  PROCESS_IO,
  type ReportSummary,
  summarizeReport,
  UsageError,
  validateFile,
} from './validate.ts';

export const ROUND_EXPORT_FILE = 'export.jsonl';

export interface SteRecipeOptions {
  outDir: string;
  /** Each round: an STE run id to download, or a local export file. */
  rounds: ({ run: string } | { file: string })[];
  baseUrl?: string;
  key?: string;
  documentation?: SteSftDocumentation;
  replay: boolean;
  fraction?: number;
  /** General instruction records (SFT format) added to every round. */
  general?: string;
  trainer: Trainer;
  settings: TrainSettingsInput;
  fetch?: typeof fetch;
}

export interface RoundManifest {
  round: number;
  source: { run: string; url: string } | { file: string };
  own: { exemplars: number; records: number };
  replayed: RoundReplay[];
  general: number;
  /** The model this round starts from. */
  baseModel: string;
  validation: ReportSummary;
  warnings: string[];
}

export interface SteRecipeManifest {
  tool: 'tooldrift gpu-jobs/ste.ts';
  replay: { enabled: boolean; fraction: number };
  trainer: Trainer;
  settings: TrainSettings;
  rounds: RoundManifest[];
}

/** The folder of round k (1-based). */
export const roundDir = (k: number) => `round-${k}`;

/** Where a round's trainer writes its model, relative to the round folder. */
function trainedDir(s: TrainSettings, trainer: Trainer): string {
  const dirs = outputDirs(s);
  return trainer === 'llamafactory' ? dirs.llamafactorySft : dirs.trlSft;
}

async function downloadRound(
  options: SteRecipeOptions,
  run: string,
  target: string,
): Promise<{ run: string; url: string }> {
  const base = publicBaseUrl(options.baseUrl ?? '');
  const url = new URL(`${base}/v1/exports/ste-sft.jsonl`);
  url.searchParams.set('run', run);
  url.searchParams.set('documentation', options.documentation ?? 'none');
  const body = await openExport(url.toString(), {
    key: options.key ?? '',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const part = `${target}.part`;
  await pipeline(Readable.fromWeb(body as WebReadableStream), createWriteStream(part));
  renameSync(part, target);
  return { run, url: url.toString() };
}

function readLines(path: string): string[] {
  return jsonlLines(readFileSync(path, 'utf8'))
    .map((l) => l.text)
    .filter((t) => t.trim() !== '');
}

/** Writes every round's folder, `train.sh` and `manifest.json`; throws ExportHttpError on a refused download. */
export async function buildSteRecipe(options: SteRecipeOptions): Promise<SteRecipeManifest> {
  if (options.rounds.length === 0) throw new UsageError('at least one round (--run or --round) is needed');
  const base = steSettings(options.settings);
  if (base.finetuning === 'lora' && options.rounds.length > 1)
    throw new UsageError(
      'continual learning chains full checkpoints (round k starts from round k − 1): use finetuning full',
    );
  mkdirSync(options.outDir, { recursive: true });
  const sources: RoundManifest['source'][] = [];
  const exported: string[][] = [];
  for (const [i, round] of options.rounds.entries()) {
    const dir = join(options.outDir, roundDir(i + 1));
    mkdirSync(dir, { recursive: true });
    const target = join(dir, ROUND_EXPORT_FILE);
    if ('run' in round) sources.push(await downloadRound(options, round.run, target));
    else {
      copyFileSync(round.file, target);
      sources.push({ file: round.file });
    }
    exported.push(readLines(target));
  }
  const rounds = exported.map((lines) => lines.map(steLine));
  const general = options.general ? readLines(options.general) : [];
  const fraction = options.fraction ?? 0.1;
  const manifestRounds: RoundManifest[] = [];
  let previous: TrainSettings | null = null;
  for (let k = 1; k <= rounds.length; k++) {
    const dir = join(options.outDir, roundDir(k));
    const set = steRoundTrainingSet(rounds, k, { replay: options.replay, fraction, general });
    writeFileSync(join(dir, SFT_FILE), set.lines.map((l) => `${l}\n`).join(''));
    // Round k fine-tunes round k − 1's model (paths relative to the round folder, where the trainers run).
    const settings: TrainSettings = previous
      ? steSettings({
          ...options.settings,
          baseModel: `../${roundDir(k - 1)}/${trainedDir(previous, options.trainer)}`,
        })
      : base;
    const rendered = await renderRun(dir, settings, { serve: { trainer: options.trainer, stage: 'sft' } });
    const report = await validateFile('sft', join(dir, SFT_FILE), { maxLength: settings.maxLength });
    manifestRounds.push({
      round: k,
      source: sources[k - 1] as RoundManifest['source'],
      own: set.own,
      replayed: set.replayed,
      general: set.general,
      baseModel: settings.baseModel,
      validation: summarizeReport(report),
      // No DPO data in STE: the renderer's DPO notes do not apply.
      warnings: rendered.warnings.filter((w) => !/dpo/i.test(w)),
    });
    previous = settings;
  }
  const train =
    options.trainer === 'llamafactory'
      ? (k: number) => `(cd ${roundDir(k)} && FORCE_TORCHRUN=1 llamafactory-cli train llamafactory/sft.yaml)`
      : (k: number) =>
          `(cd ${roundDir(k)} && accelerate launch --num_processes ${base.gpus} "$GPU_JOBS/python/train_sft.py" trl/sft.json)`;
  writeFileSync(
    join(options.outDir, 'train.sh'),
    [
      '#!/usr/bin/env bash',
      "# STE continual learning: each round fine-tunes the previous round's model (rendered by gpu-jobs/ste.ts).",
      "# Run from this folder; for TRL set GPU_JOBS to the path of tooldrift's gpu-jobs folder.",
      'set -euo pipefail',
      ...rounds.map((_, i) => train(i + 1)),
      '',
    ].join('\n'),
  );
  const manifest: SteRecipeManifest = {
    tool: 'tooldrift gpu-jobs/ste.ts',
    replay: { enabled: options.replay, fraction },
    trainer: options.trainer,
    settings: base,
    rounds: manifestRounds,
  };
  writeFileSync(join(options.outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

const USAGE =
  'usage: npx tsx gpu-jobs/ste.ts --out DIR (--run ID … --url URL [--key KEY | env TOOLDRIFT_KEY] | --round FILE …) [--no-replay] [--replay-fraction X] [--general FILE] [--documentation none|agent-prompt] [--trainer llamafactory|trl] [--settings FILE.json] [--base-model ID] [--template NAME] [--epochs N] [--gpus N] [--max-length N]';

function parseSteArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      out: { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
      run: { type: 'string', multiple: true },
      round: { type: 'string', multiple: true },
      'no-replay': { type: 'boolean', default: false },
      'replay-fraction': { type: 'string' },
      general: { type: 'string' },
      documentation: { type: 'string' },
      trainer: { type: 'string' },
      settings: { type: 'string' },
      'base-model': { type: 'string' },
      template: { type: 'string' },
      epochs: { type: 'string' },
      gpus: { type: 'string' },
      'max-length': { type: 'string' },
    },
    strict: true,
  });
}

function positiveNumber(raw: string, flag: string, integer: boolean): number {
  const n = Number(raw);
  if (!(n > 0) || (integer && !Number.isInteger(n)))
    throw new UsageError(`${flag} must be a positive ${integer ? 'integer' : 'number'}, got ${raw}`);
  return n;
}

/** The options the command line describes (UsageError naming the flag otherwise). */
export function steRecipeOptions(argv: string[]): SteRecipeOptions {
  const { values } = parseSteArgs(argv);
  if (!values.out) throw new UsageError('--out DIR is required');
  const runs = values.run ?? [];
  const files = values.round ?? [];
  if (runs.length > 0 && files.length > 0)
    throw new UsageError('give rounds as --run or as --round, not both');
  const key = values.key ?? process.env.TOOLDRIFT_KEY;
  if (runs.length > 0 && (!values.url || !key))
    throw new UsageError('--run needs --url and --key (or TOOLDRIFT_KEY)');
  if (values.url) publicBaseUrl(values.url);
  const documentation = values.documentation ?? 'none';
  if (!(STE_SFT_DOCUMENTATION as readonly string[]).includes(documentation))
    throw new UsageError(
      `--documentation must be ${STE_SFT_DOCUMENTATION.join(' or ')}, got ${documentation}`,
    );
  const trainer = values.trainer ?? 'llamafactory';
  if (trainer !== 'llamafactory' && trainer !== 'trl')
    throw new UsageError(`--trainer must be llamafactory or trl, got ${trainer}`);
  const fraction =
    values['replay-fraction'] === undefined
      ? 0.1
      : positiveNumber(values['replay-fraction'], '--replay-fraction', false);
  if (fraction > 1) throw new UsageError(`--replay-fraction must be at most 1, got ${fraction}`);
  const settings = (
    values.settings ? JSON.parse(readFileSync(values.settings, 'utf8')) : {}
  ) as TrainSettingsInput;
  if (values['base-model']) settings.baseModel = values['base-model'];
  if (values.template) settings.template = values.template;
  if (values.epochs) settings.epochs = positiveNumber(values.epochs, '--epochs', false);
  if (values.gpus) settings.gpus = positiveNumber(values.gpus, '--gpus', true);
  if (values['max-length']) settings.maxLength = positiveNumber(values['max-length'], '--max-length', true);
  return {
    outDir: values.out,
    rounds: runs.length > 0 ? runs.map((run) => ({ run })) : files.map((file) => ({ file })),
    ...(values.url ? { baseUrl: values.url } : {}),
    ...(key ? { key } : {}),
    documentation: documentation as SteSftDocumentation,
    replay: !values['no-replay'],
    fraction,
    ...(values.general ? { general: values.general } : {}),
    trainer,
    settings,
  };
}

export async function main(argv: string[], io: Io = PROCESS_IO, fetchImpl?: typeof fetch): Promise<number> {
  let options: SteRecipeOptions;
  try {
    options = { ...steRecipeOptions(argv), ...(fetchImpl ? { fetch: fetchImpl } : {}) };
    steSettings(options.settings);
  } catch (error) {
    const message = usageMessage(error);
    io.err(`ste: ${message}`);
    io.err(USAGE);
    return 2;
  }
  let manifest: SteRecipeManifest;
  try {
    manifest = await buildSteRecipe(options);
  } catch (error) {
    if (error instanceof ExportHttpError) {
      io.err(`ste: ${error.message}`);
      return 3;
    }
    if (error instanceof UsageError) {
      io.err(`ste: ${error.message}`);
      io.err(USAGE);
      return 2;
    }
    throw error;
  }
  let defects = 0;
  for (const r of manifest.rounds) {
    defects += r.validation.defects;
    const replay = r.replayed.map((x) => `${x.exemplars} exemplars of round ${x.round}`).join(', ');
    io.out(
      `${roundDir(r.round)}: ${r.own.exemplars} exemplars (${r.own.records} records)${replay ? ` + replay of ${replay}` : ''}${r.general ? ` + ${r.general} general records` : ''}; starts from ${r.baseModel}`,
    );
    io.out(formatSummary(join(options.outDir, roundDir(r.round), SFT_FILE), r.validation));
    for (const w of r.warnings) io.err(`ste: warning: ${w}`);
  }
  io.out(`wrote ${join(options.outDir, 'train.sh')} and ${join(options.outDir, 'manifest.json')}`);
  return defects > 0 ? 1 : 0;
}

runIfScript(import.meta.url, 'ste', (argv) => main(argv));
