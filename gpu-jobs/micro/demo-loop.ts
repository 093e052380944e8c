/**
 * `npm run demo:loop`: ToolEvo's loop in miniature on one CPU, with tiny models trained here.
 *
 *   1. explore — ToolEvo's tree search with the **simulated policy** on the train tasks of a seeded world, once on
 *      `pc` (static tools: the Static-SFT data) and once on `s-in` (drifting tools: the ToolEvo data); the SFT
 *      records the exports API would serve (gpu-jobs/micro/explore.ts), validated by gpu-jobs/validate.ts;
 *   2. train — one tokenizer on both exports, one initialisation (seeded), then two tiny llama policies from that
 *      initialisation with the same budget (optimizer steps × records per step), one per export
 *      (gpu-jobs/micro/train.py, 1 thread); the initialisation itself is exported as the untrained model;
 *   3. serve — each GGUF behind the OpenAI-compatible server of `npm run model:serve` (in this process);
 *   4. evaluate — the greedy ReAct method (temperature 0, ≤ 20 steps, P_c documentation) through tooldrift's
 *      `openai` provider on the test tasks of `pc`, `s-in` and `s-ood`, asked with ToolEvo's SFT prompt (the
 *      ReAct methods' `prompt: "sft"`, as `tooldrift eval --prompt sft` asks; how the paper evaluates its
 *      fine-tuned models, spec §8.3, in the layout of the records they were trained on); a prompt that outgrows the model's context
 *      ends the episode as an empty generation (ToolQA-D's prompt-length rule, spec §5.3), not as a run error;
 *   5. print the Table 2–4-shaped comparison (success % per dataset × difficulty, the paper's averages) and the
 *      error taxonomy, with the wall time of every stage.
 *
 * The policies are tiny networks trained on simulator trajectories: the table says what this data and budget do
 * to such a network, not what a language model would do. Everything is seeded; the seed is printed.
 *
 *   npm run demo:loop -- [--seed demo-1] [--out runs/micro-demo] [--train-per-group 4] [--trees 2]
 *     [--test-per-group 1] [--steps 200] [--batch 4] [--python python3]
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { EvalDetail } from '../../cli/api-types.ts';
import { resultsTable, taxonomyTable } from '../../cli/table.ts';
import { aggregate, type ResultRow } from '../../core/evals/aggregate.ts';
import { EvalSuiteSchema } from '../../core/evals/suite.ts';
import { classifyRun, RUN_ERROR } from '../../core/evals/taxonomy.ts';
import { greedy } from '../../core/methods/greedy.ts';
import type { ReactOptions } from '../../core/methods/react.ts';
import { suiteMethodOptions } from '../../core/methods/registry.ts';
import { createTextModel } from '../../core/models/factory.ts';
import { PC_SURFACE } from '../../core/surfaces/builtin.ts';
import { hash128 } from '../../core/util/random.ts';
import { createKernelDeps } from '../../core/world/kernel-deps.ts';
import { generateWorld } from '../../core/world/world.ts';
import { Engine } from '../../scripts/model-server/engine.ts';
import { createModelServer } from '../../scripts/model-server/server.ts';
import { cleanJsonl, formatReport, validateJsonl } from '../validate.ts';
import {
  BUILTIN_SURFACES,
  exploreToSft,
  MICRO_DATASETS,
  MICRO_WORLD,
  microTasks,
  positiveInt,
} from './explore.ts';

const SURFACES = ['pc', 's-in', 's-ood'] as const;
const MAX_LENGTH = 4096;
/** Completion tokens per step (`npm run model:serve -- … --max-tokens 256`); gpu-jobs' DPO recipe uses 256 per step. */
const STEP_MAX_TOKENS = 256;

export const POLICIES = [
  { id: 'untrained', label: 'untrained (shared init)', data: null },
  { id: 'static-sft', label: 'Static-SFT (pc data)', data: 'pc' },
  { id: 'toolevo', label: 'ToolEvo (s-in data)', data: 's-in' },
] as const;

interface Stage {
  name: string;
  seconds: number;
  /** CPU seconds the stage used (this process's threads, or the training process's own count). */
  cpuSeconds: number;
  /** Its outputs came from an earlier run; the times are those it took then. */
  reused?: boolean;
}

/** The stage table: one line per stage, the sum of all, and — when some were reused — what this run took. */
function stageLines(stages: Stage[], thisRun: number): string[] {
  const width = Math.max(...stages.map((s) => s.name.length), 26);
  const line = (name: string, seconds: number, cpu: number) =>
    `  ${name.padEnd(width)} ${seconds.toFixed(0).padStart(6)} s  (${cpu.toFixed(0).padStart(5)} s CPU)`;
  const fresh = stages.filter((s) => !s.reused);
  return [
    ...stages.map((s) => line(s.name, s.seconds, s.cpuSeconds)),
    line('all stages', sum(stages, 'seconds'), sum(stages, 'cpuSeconds')),
    ...(fresh.length < stages.length
      ? [line('this run (the rest reused)', thisRun, sum(fresh, 'cpuSeconds'))]
      : []),
  ];
}

function sum(stages: Stage[], field: 'seconds' | 'cpuSeconds'): number {
  return stages.reduce((total, s) => total + s[field], 0);
}

function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Runs a command, echoing its lines with a prefix; rejects on a non-zero exit. */
function run(cmd: string, args: string[], prefix: string): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, OMP_NUM_THREADS: '1' },
    });
    const echo = (data: Buffer) => {
      for (const line of data.toString('utf8').split('\n'))
        if (line.trim() !== '') log(`  ${prefix} ${line}`);
    };
    child.stdout.on('data', echo);
    child.stderr.on('data', echo);
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0 ? ok() : fail(new Error(`${cmd} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

/**
 * Runs a stage and records its wall and CPU time in `stages.json`. A stage whose outputs exist from an
 * interrupted run with the same options (`done` says so) is reused and marked as such, with the times it took
 * when it ran (from `stages.json`, or `recorded` — e.g. a training's own JSON summary), so a rerun resumes where
 * the last one stopped and the table still shows what every stage cost.
 */
async function timed(
  stages: Stage[],
  dir: string,
  name: string,
  done: boolean,
  task: () => Promise<number | undefined>,
  recorded?: () => Omit<Stage, 'name'> | undefined,
): Promise<void> {
  log(`\n== ${name}`);
  const file = join(dir, 'stages.json');
  const times: Record<string, Omit<Stage, 'name'>> = existsSync(file)
    ? JSON.parse(readFileSync(file, 'utf8'))
    : {};
  if (done) {
    const earlier = times[name] ?? recorded?.();
    stages.push({
      name: `${name} (reused${earlier ? '' : ', time not recorded'})`,
      seconds: earlier?.seconds ?? 0,
      cpuSeconds: earlier?.cpuSeconds ?? 0,
      reused: true,
    });
    log('   reused: its outputs exist from an earlier run with the same options');
    return;
  }
  const started = performance.now();
  const cpu = process.cpuUsage();
  const childCpu = await task();
  const seconds = (performance.now() - started) / 1000;
  const own = process.cpuUsage(cpu);
  const cpuSeconds = childCpu ?? (own.user + own.system) / 1e6;
  stages.push({ name, seconds, cpuSeconds });
  times[name] = { seconds, cpuSeconds };
  writeFileSync(file, `${JSON.stringify(times, null, 2)}\n`);
  log(`   ${name}: ${seconds.toFixed(0)} s wall, ${cpuSeconds.toFixed(0)} s CPU`);
}

/** The CPU seconds a training process reported in its JSON summary. */
function trainingCpu(file: string): number {
  return Number((JSON.parse(readFileSync(file, 'utf8')) as { cpuSeconds?: number }).cpuSeconds ?? 0);
}

/** The wall and CPU seconds a training process reported in its JSON summary, if it wrote one. */
function trainingTimes(file: string): Omit<Stage, 'name'> | undefined {
  if (!existsSync(file)) return undefined;
  const t = JSON.parse(readFileSync(file, 'utf8')) as { seconds?: number; cpuSeconds?: number };
  return { seconds: Number(t.seconds ?? 0), cpuSeconds: Number(t.cpuSeconds ?? 0) };
}

export interface DemoOptions {
  seed: string;
  out: string;
  trainPerGroup: number;
  trees: number;
  testPerGroup: number;
  steps: number;
  batch: number;
  python: string;
}

export async function demoLoop(o: DemoOptions): Promise<void> {
  const stages: Stage[] = [];
  const started = performance.now();
  const dir = resolve(o.out, o.seed);
  mkdirSync(dir, { recursive: true });
  const trainSeed = (hash128(`micro/${o.seed}/train`)[0] as number) % 1_000_000;
  // Outputs of an earlier run are reused only when it ran with the same options for them (the evaluation's
  // own options, the output folder and the Python command change none of them).
  const optionsFile = join(dir, 'options.json');
  const { testPerGroup: _t, out: _o, python: _p, ...producing } = o;
  const key = `${JSON.stringify(producing)}\n`;
  const sameOptions = existsSync(optionsFile) && readFileSync(optionsFile, 'utf8') === key;
  if (!sameOptions) for (const f of readdirSync(dir)) rmSync(join(dir, f), { force: true });
  writeFileSync(optionsFile, key);
  const have = (...files: string[]) => sameOptions && files.every((f) => existsSync(join(dir, f)));
  log(`demo:loop seed ${o.seed} (training seed ${trainSeed}); files in ${dir}`);
  log('Every trajectory comes from the simulated policy; the policies are tiny models trained on them.');

  // 1. Explore and export.
  const data: Record<string, string> = {};
  for (const surface of ['pc', 's-in'] as const) {
    data[surface] = join(dir, `${surface}.sft.jsonl`);
    await timed(
      stages,
      dir,
      `explore ${surface} (simulator) + export SFT`,
      have(`${surface}.sft.jsonl`),
      async () => {
        const result = await exploreToSft({
          surface,
          seed: `${o.seed}/${surface}`,
          perGroup: o.trainPerGroup,
          treesPerTask: o.trees,
          simulations: 8,
          k: 3,
          world: MICRO_WORLD,
          onTree: (done, total) => {
            if (done % 10 === 0 || done === total) log(`   tree ${done}/${total}`);
          },
        });
        const cleaned = cleanJsonl('sft', result.jsonl, { maxLength: MAX_LENGTH });
        const file = data[surface] as string;
        log(`   ${result.records} records (${result.successes}/${result.trajectories} Finish paths correct)`);
        log(`   ${formatReport(file, validateJsonl('sft', cleaned.text, { maxLength: MAX_LENGTH }))}`);
        writeFileSync(file, cleaned.text);
      },
    );
  }

  // 2. Tokenizer, shared initialisation, two trainings with the same budget.
  const tokenizer = join(dir, 'tokenizer.json');
  const gguf = (id: string) => join(dir, `${id}.gguf`);
  const common = ['--tokenizer', tokenizer, '--seed', String(trainSeed), '--init-seed', String(trainSeed)];
  // A model is reused only when it was trained from the files on disk now (an export regenerated since, e.g.
  // after its file was deleted, invalidates the tokenizer and the trainings made from the old one).
  const trainedOn = (id: string, sft: string | null) => {
    if (!have(`${id}.gguf`, `${id}.json`, 'tokenizer.json')) return false;
    const t = JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) as {
      sftSha256?: string | null;
      tokenizerSha256?: string;
    };
    return t.tokenizerSha256 === sha256File(tokenizer) && (sft === null || t.sftSha256 === sha256File(sft));
  };
  const tokenizerFrom = join(dir, 'tokenizer.sources');
  const sources = `${sha256File(data.pc as string)} ${sha256File(data['s-in'] as string)}\n`;
  const tokenizerCurrent = existsSync(tokenizerFrom) && readFileSync(tokenizerFrom, 'utf8') === sources;
  // train.py reads a tokenizer file that exists: one made from other exports is removed so it is trained anew.
  if (!tokenizerCurrent) rmSync(tokenizer, { force: true });
  await timed(
    stages,
    dir,
    'tokenizer + initialisation (untrained model)',
    tokenizerCurrent && trainedOn('untrained', null),
    () =>
      run(
        o.python,
        [
          'gpu-jobs/micro/train.py',
          ...common,
          '--tokenizer-data',
          data.pc as string,
          data['s-in'] as string,
          '--steps',
          '0',
          '--out',
          gguf('untrained'),
          '--json',
          join(dir, 'untrained.json'),
        ],
        '[init]',
      ).then(() => {
        writeFileSync(tokenizerFrom, sources);
        return trainingCpu(join(dir, 'untrained.json'));
      }),
    () => trainingTimes(join(dir, 'untrained.json')),
  );
  for (const policy of POLICIES.filter((p) => p.data !== null)) {
    const sft = data[policy.data as string] as string;
    await timed(
      stages,
      dir,
      `train ${policy.label}`,
      trainedOn(policy.id, sft),
      () =>
        run(
          o.python,
          [
            'gpu-jobs/micro/train.py',
            ...common,
            '--sft',
            data[policy.data as string] as string,
            '--steps',
            String(o.steps),
            '--batch',
            String(o.batch),
            '--out',
            gguf(policy.id),
            '--json',
            join(dir, `${policy.id}.json`),
          ],
          `[${policy.id}]`,
        ).then(() => trainingCpu(join(dir, `${policy.id}.json`))),
      () => trainingTimes(join(dir, `${policy.id}.json`)),
    );
  }

  // 3 + 4. Serve each model and evaluate it with greedy on the three surfaces.
  const world = generateWorld(MICRO_WORLD);
  const tasks = await microTasks(world, 'test', o.testPerGroup);
  const suite = EvalSuiteSchema.parse({
    methods: ['greedy'],
    surfaces: [...SURFACES],
    datasets: [...MICRO_DATASETS],
    sampleSize: o.testPerGroup,
    seed: o.seed,
    greedy: { prompt: 'sft' },
  });
  const greedyOptions = suiteMethodOptions(suite, greedy) as ReactOptions;
  const planned = new Map<string, number>();
  for (const t of tasks)
    planned.set(
      `${t.dataset}\u0000${t.difficulty}`,
      (planned.get(`${t.dataset}\u0000${t.difficulty}`) ?? 0) + 1,
    );
  const table: EvalDetail['table'] = [];
  const taxonomyRows: EvalDetail['taxonomy']['rows'] = [];
  let columns: EvalDetail['columns'] = [];
  let taxonomyMeta: Pick<EvalDetail['taxonomy'], 'categories' | 'groups'> | undefined;
  for (const policy of POLICIES) {
    await timed(stages, dir, `serve + evaluate ${policy.label}`, false, async () => {
      const engine = await Engine.load({ modelPath: gguf(policy.id), threads: 1 });
      // A ReAct step is far shorter than 256 tokens; the cap keeps a rambling model from filling the context.
      const server = createModelServer({
        engine,
        modelName: `tooldrift-micro-${policy.id}`,
        defaultMaxTokens: STEP_MAX_TOKENS,
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      const { port } = server.address() as AddressInfo;
      // A prompt over the model's context ends the episode as an empty generation (core/agents/react-loop.ts).
      const model = createTextModel({
        provider: 'openai',
        model: `tooldrift-micro-${policy.id}`,
        baseUrl: `http://127.0.0.1:${port}/v1`,
        timeoutMs: 300_000,
        maxRetries: 1,
      });
      const rows: ResultRow[] = [];
      try {
        for (const surfaceId of SURFACES) {
          let correct = 0;
          for (const [i, task] of tasks.entries()) {
            const surface = BUILTIN_SURFACES[surfaceId] as (typeof BUILTIN_SURFACES)[string];
            const row: ResultRow = {
              method: 'greedy',
              surface: surfaceId,
              dataset: task.dataset,
              difficulty: task.difficulty,
              correct: false,
              errorClass: RUN_ERROR,
              modelCalls: 0,
              inputTokens: 0,
              outputTokens: 0,
              latencyMs: 0,
            };
            try {
              const outcome = await greedy.run({
                task: {
                  id: task.id,
                  question: task.question,
                  gold: task.gold,
                  dataset: task.dataset,
                  difficulty: task.difficulty,
                },
                options: greedyOptions,
                model,
                world,
                surface,
                deps: createKernelDeps({ gold: task.gold }),
                aids: { documentation: PC_SURFACE, updateMemory: [] },
                limits: { maxSteps: suite.maxSteps },
                seeds: {
                  model: hash128(`eval/${o.seed}/greedy/${surfaceId}/${task.id}`)[0] as number,
                  search: task.id,
                },
              });
              Object.assign(row, {
                correct: outcome.correct,
                errorClass: classifyRun(outcome),
                modelCalls: outcome.modelCalls,
                inputTokens: outcome.inputTokens,
                outputTokens: outcome.outputTokens,
                latencyMs: outcome.latencyMs,
              });
            } catch (error) {
              // A task run whose model call still failed after the client's retries (a server that went away,
              // a timeout): recorded as a run error, as evaluations do.
              log(
                `   ${task.id} on ${surfaceId}: run error: ${error instanceof Error ? error.message : String(error)}`,
              );
            }
            rows.push(row);
            if (row.correct) correct++;
            process.stdout.write(
              `\r   ${policy.id} on ${surfaceId}: task ${i + 1}/${tasks.length}, ${correct} correct`,
            );
          }
          process.stdout.write('\n');
        }
      } finally {
        server.close();
        await engine.dispose();
      }
      const agg = aggregate(suite, planned, rows);
      columns = agg.columns;
      taxonomyMeta = {
        categories: [...agg.taxonomy.categories],
        groups: [...agg.taxonomy.groups],
      };
      for (const r of agg.table)
        table.push({ ...r, method: policy.label } as unknown as EvalDetail['table'][number]);
      for (const r of agg.taxonomy.rows)
        taxonomyRows.push({
          ...r,
          method: policy.label,
        } as unknown as EvalDetail['taxonomy']['rows'][number]);
      const usage = agg.usage;
      log(
        `   ${usage.modelCalls} model calls, ${usage.inputTokens} prompt + ${usage.outputTokens} completion tokens`,
      );
    });
  }

  const total = (performance.now() - started) / 1000;
  const summary = [
    `demo:loop seed ${o.seed} — greedy (SFT prompt, temperature 0), ${tasks.length} test tasks per surface ` +
      `(${o.testPerGroup} per dataset × difficulty), tiny models trained on SIMULATOR trajectories`,
    '',
    'Success rate (%)',
    resultsTable({ columns, table } as Pick<EvalDetail, 'columns' | 'table'>),
    '',
    'Error taxonomy (failed task runs)',
    taxonomyTable({
      taxonomy: { ...(taxonomyMeta as NonNullable<typeof taxonomyMeta>), rows: taxonomyRows },
    } as Pick<EvalDetail, 'taxonomy'>),
    '',
    'Wall time (and CPU time) per stage',
    ...stageLines(stages, total),
  ].join('\n');
  log(`\n${summary}`);
  writeFileSync(join(dir, 'summary.txt'), `${summary}\n`);
  const trainings = POLICIES.map((p) => ({
    id: p.id,
    ...JSON.parse(readFileSync(join(dir, `${p.id}.json`), 'utf8')),
  }));
  writeFileSync(
    join(dir, 'summary.json'),
    `${JSON.stringify({ seed: o.seed, trainSeed, options: o, stages, columns, table, taxonomy: taxonomyRows, trainings: trainings.map(({ losses: _l, tokenLengths: _t, ...t }) => t) }, null, 2)}\n`,
  );
}

export async function main(argv: string[]): Promise<number> {
  let options: DemoOptions;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        seed: { type: 'string' },
        out: { type: 'string' },
        'train-per-group': { type: 'string' },
        trees: { type: 'string' },
        'test-per-group': { type: 'string' },
        steps: { type: 'string' },
        batch: { type: 'string' },
        python: { type: 'string' },
      },
      strict: true,
    });
    options = {
      seed: values.seed ?? 'demo-1',
      out: values.out ?? 'runs/micro-demo',
      trainPerGroup: positiveInt(values['train-per-group'], 'train-per-group', 4),
      trees: positiveInt(values.trees, 'trees', 2),
      testPerGroup: positiveInt(values['test-per-group'], 'test-per-group', 1),
      steps: positiveInt(values.steps, 'steps', 200),
      batch: positiveInt(values.batch, 'batch', 4),
      python: values.python ?? 'python3',
    };
  } catch (error) {
    process.stderr.write(`demo:loop: ${error instanceof Error ? error.message : String(error)}\n`);
    process.stderr.write(
      'usage: npm run demo:loop -- [--seed demo-1] [--out runs/micro-demo] [--train-per-group 4] [--trees 2] [--test-per-group 1] [--steps 200] [--batch 4] [--python python3]\n',
    );
    return 2;
  }
  await demoLoop(options);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`demo:loop: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
