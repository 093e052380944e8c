/**
 * `tooldrift retrieve bench`: the Chain-of-Tools retrieval benchmark on the user's own files, in Node, without a
 * server (issue 14 §6). Files are JSON Lines: tools `{"name", "description", "parameters"?}`, queries
 * `{"query", "tools": [gold names]}`. Prints per ranker n, top-1, top-5, NDCG@1/5/10 (binary relevance, %), the
 * time to build it and the mean time per query; `--json` prints `{"rankers": {id: {n, top1, …}}}`. Bad files
 * get a line-numbered message and exit code 2.
 */
import { readFile } from 'node:fs/promises';
import { type BenchStep, RANKER_IDS, type RankerId, runBench } from '../../core/retrieval/bench.ts';
import { FUSION_OPTIONS, type FusionOption } from '../../core/retrieval/cotools/fusion.ts';
import type { RetrieverTrainOptions } from '../../core/retrieval/cotools/retriever.ts';
import {
  AUTO_STEPS,
  RETRIEVER_PRESET_IDS,
  RETRIEVER_PRESETS,
  type RetrieverPreset,
  type RetrieverSettings,
} from '../../core/retrieval/cotools/schedule.ts';
import {
  JsonlError,
  parseQueriesJsonl,
  parseQueriesSkippingUnknown,
  parseToolsJsonl,
  type SkippedLine,
} from '../../core/retrieval/jsonl.ts';
import { TOOL_TEXT_FORMATS, type ToolTextFormat } from '../../core/retrieval/text.ts';
import type { QueryExample, Tool } from '../../core/retrieval/types.ts';
import { type CliIO, parse, printHelp, printJson } from '../context.ts';
import { EXIT_USAGE } from '../http.ts';
import { CliError } from '../problem.ts';
import { Progress } from '../progress.ts';
import { DEFAULT_ENCODER, ENCODER_IDS, type EncoderId, loadEncoder } from '../retrieval/encoders.ts';
import { renderTable } from '../table.ts';

/** One preset's values as the help prints them. */
function presetLine(p: RetrieverSettings): string {
  const schedule =
    p.steps === 'auto'
      ? `${AUTO_STEPS.passes} passes over the training queries in optimiser steps (${AUTO_STEPS.min}–${AUTO_STEPS.max}), ${p.warmup * 100} % warm-up then linear decay, early stopping (patience ${p.patience}) on a held-out ${p.devShare * 100} % of them`
      : `${p.epochs} epochs at a constant rate`;
  return `${schedule}; lr ${p.lr}, batch ${p.batchSize} × ${p.accumulation} accumulation, W_dim lr ${p.wDimLr}, D = ${p.intermediate ?? '4 × encoder size'}, scale ${p.scale}, tool text ${p.toolText}, fusion ${p.fusion}`;
}

export const RETRIEVE_HELP = `Usage: tooldrift retrieve bench --tools tools.jsonl --queries test.jsonl [--train train.jsonl]
         [--dev dev.jsonl] [--rankers bm25,char,dense,hybrid,cotools] [--encoder use|lexical]
         [--preset default|paper] [--skip-unknown] [--json]

Ranks the tools of tools.jsonl for every query of test.jsonl and reports, per ranker, n, top-1 and top-5
accuracy (a gold tool first / among the first five) and NDCG@1/@5/@10 with binary relevance, in percent.
Runs locally; no server or network is used.

  --tools FILE       JSON Lines: {"name": "...", "description": "...", "parameters": {...}?}
  --queries FILE     JSON Lines: {"query": "...", "tools": ["gold tool name", ...]}
  --train FILE       training queries (same format); required by the cotools ranker
  --dev FILE         dev queries, scored after training (training report)
  --rankers LIST     comma-separated, from ${RANKER_IDS.join(', ')} (default: all; cotools only with --train)
  --encoder E        frozen encoder for dense, hybrid and cotools: use (Universal Sentence Encoder lite,
                     bundled weights) or lexical (default ${DEFAULT_ENCODER})
  --preset P         cotools training setting (default: default):
                       default  ${presetLine(RETRIEVER_PRESETS.default)}
                       paper    ${presetLine(RETRIEVER_PRESETS.paper)}
  --epochs N --steps N --lr X --batch N --accumulation N --intermediate D --warmup X --patience N --seed S
                     override the preset's values (--epochs alone: whole epochs instead of a step budget;
                     --patience 0: no early stopping)
  --scale X          multiply cotools scores inside the training softmax (tooldrift option; the paper: 1)
  --tool-text F      how tools are written for the encoder: sentence (split name: description) or paper
                     ("tool name: …, tool description: …"); default: the preset's
  --wdim-lr X        W_dim's learning rate (the spec: 0.01; 0 keeps W_dim at ones — held-out tools then lose
                     nothing to it, core/retrieval/README.md)
  --fusion F         how trained cotools ranks: none (V_Q · V_T, the paper) or char (plus λ × the untrained
                     character n-gram similarity, λ chosen on the early-stopping dev split); default: the preset's
  --skip-unknown     skip query lines (--queries, --train, --dev) whose gold tool is not in the pool and count
                     them, instead of rejecting the file
  --json             print {"rankers": {"bm25": {"n", "top1", "top5", "ndcg1", "ndcg5", "ndcg10"}, ...}}
  -h, --help         this help`;

const OPTIONS = {
  tools: { type: 'string' },
  queries: { type: 'string' },
  train: { type: 'string' },
  dev: { type: 'string' },
  rankers: { type: 'string' },
  encoder: { type: 'string' },
  preset: { type: 'string' },
  epochs: { type: 'string' },
  steps: { type: 'string' },
  warmup: { type: 'string' },
  patience: { type: 'string' },
  'tool-text': { type: 'string' },
  fusion: { type: 'string' },
  'wdim-lr': { type: 'string' },
  'skip-unknown': { type: 'boolean' },
  lr: { type: 'string' },
  batch: { type: 'string' },
  accumulation: { type: 'string' },
  intermediate: { type: 'string' },
  seed: { type: 'string' },
  scale: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function readText(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(
      [
        `${flag} ${path}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`,
      ],
      EXIT_USAGE,
    );
  }
}

function fileError(path: string, err: unknown): never {
  if (err instanceof JsonlError) throw new CliError([`${path}:${err.line}: ${err.reason}`], EXIT_USAGE);
  throw err;
}

async function loadTools(path: string): Promise<Tool[]> {
  const text = await readText(path, '--tools');
  try {
    const tools = parseToolsJsonl(text);
    if (tools.length === 0) throw new CliError([`${path}: no tools.`], EXIT_USAGE);
    return tools;
  } catch (err) {
    return fileError(path, err);
  }
}

/** A query file; with `skipped` (--skip-unknown) lines naming a tool not in the pool are left out and listed. */
async function loadQueries(
  path: string,
  flag: string,
  tools: Tool[],
  skipped?: Map<string, SkippedLine[]>,
): Promise<QueryExample[]> {
  const text = await readText(path, flag);
  try {
    let queries: QueryExample[];
    if (skipped) {
      const parsed = parseQueriesSkippingUnknown(text, tools);
      queries = parsed.queries;
      if (parsed.skipped.length > 0) skipped.set(flag, parsed.skipped);
    } else queries = parseQueriesJsonl(text, tools);
    if (queries.length === 0) throw new CliError([`${path}: no queries.`], EXIT_USAGE);
    return queries;
  } catch (err) {
    return fileError(path, err);
  }
}

function oneOf<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new CliError(
      [`--${flag} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}.`],
      EXIT_USAGE,
    );
  return value as T;
}

function share(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n >= 1)
    throw new CliError(
      [`--${flag} must be a number from 0 up to (not including) 1, got ${JSON.stringify(value)}.`],
      EXIT_USAGE,
    );
  return n;
}

function count(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0)
    throw new CliError([`--${flag} must be a whole number ≥ 0, got ${JSON.stringify(value)}.`], EXIT_USAGE);
  return n;
}

function positive(flag: string, value: string | undefined, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    throw new CliError(
      [`--${flag} must be a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(value)}.`],
      EXIT_USAGE,
    );
  return n;
}

function parseRankers(value: string | undefined, hasTrain: boolean): RankerId[] {
  if (value === undefined) return RANKER_IDS.filter((r) => r !== 'cotools' || hasTrain);
  const ids = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !(RANKER_IDS as readonly string[]).includes(id));
  if (unknown.length > 0 || ids.length === 0)
    throw new CliError(
      [
        `--rankers: unknown ranker ${JSON.stringify(unknown[0] ?? value)}; choose from ${RANKER_IDS.join(', ')}.`,
      ],
      EXIT_USAGE,
    );
  if (ids.includes('cotools') && !hasTrain)
    throw new CliError(
      ['The cotools ranker is trained: pass --train train.jsonl (or leave cotools out of --rankers).'],
      EXIT_USAGE,
    );
  return [...new Set(ids)] as RankerId[];
}

const pct = (x: number) => x.toFixed(2);

export async function retrieveCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse('retrieve', args, OPTIONS, true);
  if (values.help) return printHelp(io, RETRIEVE_HELP, values.help);
  if (positionals.length !== 1 || positionals[0] !== 'bench')
    throw new CliError(
      [
        'Say what to do: `tooldrift retrieve bench --tools F --queries F`.',
        'Run `tooldrift retrieve --help` for the options.',
      ],
      EXIT_USAGE,
    );
  if (!values.tools || !values.queries)
    throw new CliError(['--tools FILE and --queries FILE are required.'], EXIT_USAGE);
  const encoderId = (values.encoder ?? DEFAULT_ENCODER) as EncoderId;
  if (!ENCODER_IDS.includes(encoderId))
    throw new CliError(
      [`--encoder must be one of ${ENCODER_IDS.join(', ')}, got ${JSON.stringify(values.encoder)}.`],
      EXIT_USAGE,
    );
  const rankers = parseRankers(values.rankers, values.train !== undefined);
  const cotools: RetrieverTrainOptions = {};
  const setIf = <K extends keyof RetrieverTrainOptions>(key: K, v: RetrieverTrainOptions[K] | undefined) => {
    if (v !== undefined) cotools[key] = v;
  };
  setIf('preset', oneOf<RetrieverPreset>('preset', values.preset, RETRIEVER_PRESET_IDS));
  setIf('epochs', positive('epochs', values.epochs, true));
  setIf('steps', positive('steps', values.steps, true));
  setIf('warmup', share('warmup', values.warmup));
  setIf('patience', count('patience', values.patience));
  setIf('toolText', oneOf<ToolTextFormat>('tool-text', values['tool-text'], TOOL_TEXT_FORMATS));
  setIf('fusion', oneOf<FusionOption>('fusion', values.fusion, FUSION_OPTIONS));
  setIf('lr', positive('lr', values.lr, false));
  setIf('batchSize', positive('batch', values.batch, true));
  setIf('accumulation', positive('accumulation', values.accumulation, true));
  setIf('intermediate', positive('intermediate', values.intermediate, true));
  setIf('seed', values.seed);
  setIf('scale', positive('scale', values.scale, false));
  setIf('wDimLr', share('wdim-lr', values['wdim-lr']));

  const tools = await loadTools(values.tools);
  const skipped = values['skip-unknown'] ? new Map<string, SkippedLine[]>() : undefined;
  const queries = await loadQueries(values.queries, '--queries', tools, skipped);
  const train = values.train ? await loadQueries(values.train, '--train', tools, skipped) : undefined;
  const dev = values.dev ? await loadQueries(values.dev, '--dev', tools, skipped) : undefined;
  // What --skip-unknown left out, per file: the count, and the first lines with the tool they name.
  const skippedNotes = [...(skipped ?? [])].map(
    ([flag, lines]) =>
      `${flag}: skipped ${lines.length} line${lines.length === 1 ? '' : 's'} naming a tool not in the pool (${lines
        .slice(0, 3)
        .map((l) => `line ${l.line}: ${JSON.stringify(l.tool)}`)
        .join(', ')}${lines.length > 3 ? ', …' : ''}).`,
  );
  const needsEncoder = rankers.some((r) => r !== 'bm25' && r !== 'char');
  let progress: Progress | undefined;
  let label = '';
  const onStep = (step: BenchStep) => {
    if (step.label !== label) {
      progress?.finish(step.total, step.total);
      label = step.label;
      progress = new Progress({
        label: step.label,
        unit: step.unit,
        tty: io.stderrIsTTY,
        write: io.stderr,
        ...(io.now ? { now: io.now } : {}),
        intervalMs: io.progressIntervalMs ?? 5_000,
      });
    }
    if (step.done >= step.total) {
      progress?.finish(step.done, step.total);
      progress = undefined;
      label = '';
    } else progress?.update(step.done, step.total);
  };
  // The encoder is loaded only when a ranker needs it (USE takes ≈ 0.3 s and ≈ 250 MB).
  const encoder = needsEncoder ? await loadEncoder(encoderId, tools) : await loadEncoder('lexical', tools);
  const report = await runBench({
    tools,
    sets: { test: queries },
    rankers,
    encoder,
    train,
    dev,
    cotools,
    onStep,
  });
  progress?.abort();

  if (values.json) {
    printJson(io, {
      rankers: Object.fromEntries(
        Object.entries(report.rankers).map(([id, r]) => [
          id,
          { ...r.sets.test, buildMs: r.buildMs, queryMs: Number(r.queryMs.toFixed(3)) },
        ]),
      ),
      pool: report.pool,
      encoder: needsEncoder ? report.encoder : null,
      encodeMs: Math.round(report.encodeMs),
      toolText: report.toolText,
      ...(skipped
        ? { skipped: Object.fromEntries([...skipped].map(([flag, lines]) => [flag.slice(2), lines])) }
        : {}),
      ...(report.training ? { training: report.training } : {}),
    });
    return 0;
  }
  const rows = Object.entries(report.rankers).map(([id, r]) => {
    const s = r.sets.test;
    return [
      id,
      String(s?.n ?? 0),
      pct(s?.top1 ?? 0),
      pct(s?.top5 ?? 0),
      pct(s?.ndcg1 ?? 0),
      pct(s?.ndcg5 ?? 0),
      pct(s?.ndcg10 ?? 0),
      String(r.buildMs),
      r.queryMs.toFixed(2),
    ];
  });
  io.stdout(
    `${renderTable({
      header: [
        [
          { text: 'ranker' },
          { text: 'n' },
          { text: 'top-1' },
          { text: 'top-5' },
          { text: 'NDCG@1' },
          { text: 'NDCG@5' },
          { text: 'NDCG@10' },
          { text: 'build ms' },
          { text: 'ms/query' },
        ],
      ],
      align: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
      rows,
    })}\n`,
  );
  const notes = [`${report.pool} tools, ${queries.length} queries.`, ...skippedNotes];
  if (needsEncoder)
    notes.push(
      `Encoder ${report.encoder} (${report.dimensions}-d, tool text ${report.toolText}): pool encoded in ${Math.round(report.encodeMs)} ms.`,
    );
  if (report.training) {
    const t = report.training;
    const stop = t.stopping;
    notes.push(
      `cotools trained on ${t.pairs} queries in ${Math.round(t.ms)} ms (preset ${t.options.preset}, ${t.steps.done} of ${t.steps.budget} optimiser steps); loss per epoch: ${t.epochs.map((e) => e.loss.toFixed(4)).join(', ')}.`,
    );
    if (stop)
      notes.push(
        `cotools early stopping: ${stop.dev} queries of trained tools and ${stop.devUnseen} of held-out tools kept out of training, ranked among ${stop.candidates} tools; best dev MRR ${(stop.scores.find((x) => x.step === stop.bestStep)?.mrr ?? 0).toFixed(3)} at step ${stop.bestStep} (scored at steps ${stop.scores.map((x) => x.step).join(', ')}).`,
      );
    if (t.fusion)
      notes.push(
        `cotools fusion with char: λ = ${t.fusion.weight}, chosen on the early-stopping dev split (dev MRR ${t.fusion.scores.map((x) => `λ ${x.weight}: ${x.mrr.toFixed(3)}`).join(', ')}).`,
      );
    if (t.dev)
      notes.push(`cotools dev (${t.dev.n} queries): top-1 ${pct(t.dev.top1)}, top-5 ${pct(t.dev.top5)}.`);
  }
  io.stdout(`${notes.join('\n')}\n`);
  return 0;
}
