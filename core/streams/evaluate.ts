/**
 * Evaluation over time (issue 26 §4): after a release and its maintenance, a fixed suite — the same seeded tasks
 * (the kernel: ToolQA-D tasks) or queries (an imported API: its query set) at every release — answered by several
 * agent configurations. A configuration is a registered method with some aid slots filled from what maintenance
 * left (core/methods/presets.ts `presetAids`); the combined agent is the `combined-greedy` preset itself. Nothing
 * here is a new agent: runs go through the registry (`runEvalTask` on the kernel, the method's `runApi` on an API)
 * with aids resolved by the ordinary providers (core/aids `resolveAids`) over an in-process `AidContext`.
 *
 * Every task run becomes a `TaskRecord` with what the verdict is recomputed from (the answer and the gold answer;
 * on an API the operations called and the gold path); the series (series.ts) recomputes success from them.
 * The tool-update memory of a memory-carrying method is carried task to task and release to release, as the
 * agent built it (the method's `memory.carry`); maintenance never edits it.
 */

import { surfaceApiDocs } from '../aids/api-docs.ts';
import { ApiToolPool } from '../aids/api-pool.ts';
import { type AidContext, type AidSlot, AidsSchema, resolveAids } from '../aids/index.ts';
import type { MockWorld } from '../apis/mock/world.ts';
import type { QueryItem } from '../apis/querysets.ts';
import { type ApiDocTool, apiToolList } from '../apis/surface/docs.ts';
import type { ApiSurface } from '../apis/surface/model.ts';
import type { ApiCatalog } from '../apis/types.ts';
import { docsetToolList } from '../draft/render.ts';
import { type EvalTaskInput, runEvalTask } from '../evals/run-task.ts';
import { EvalSuiteSchema } from '../evals/suite.ts';
import { getPreset, type MethodPreset, presetAids } from '../methods/presets.ts';
import { getMethod, type MethodId } from '../methods/registry.ts';
import type { EmbeddingModel, TextModel } from '../models/types.ts';
import type { ApiPromptDocs } from '../prompts/toolevo.ts';
import { syntheticCatalog } from '../retrieval/catalog.ts';
import type { Tool } from '../retrieval/types.ts';
import type { ApiRef } from '../sessions/api.ts';
import { apiTarget } from '../sessions/targets.ts';
import { demonstrationsFor } from '../ste/demonstrations.ts';
import { ExemplarMemory } from '../ste/memory.ts';
import type { Surface } from '../surfaces/model.ts';
import { hash128 } from '../util/random.ts';
import type { KernelDeps } from '../world/kernel/kernel.ts';
import type { Gold } from '../world/tasks/types.ts';
import type { World } from '../world/types.ts';
import type { MaintenanceState } from './maintain.ts';

export type StreamBackendKind = 'kernel' | 'api';

/** An agent configuration of the evaluation: a method and the aid slots maintenance fills. */
export interface StreamConfiguration {
  id: string;
  label: string;
  method: MethodId;
  aids: readonly AidSlot[];
  /** Where it applies (an API has no UpdateTool: the memory configuration is kernel-only). */
  backends: readonly StreamBackendKind[];
}

const combined: MethodPreset = getPreset('combined-greedy');

/** Stale docs without aids; tool-update memory only; each aid alone; all aids with maintenance (the preset). */
export const STREAM_CONFIGURATIONS: readonly StreamConfiguration[] = [
  { id: 'stale', label: 'stale docs, no aids', method: 'greedy', aids: [], backends: ['kernel', 'api'] },
  {
    id: 'memory',
    label: 'tool-update memory only',
    method: 'greedy-memory',
    aids: [],
    backends: ['kernel'],
  },
  {
    id: 'draft',
    label: 'DRAFT docs only',
    method: 'greedy',
    aids: ['documentation'],
    backends: ['kernel', 'api'],
  },
  {
    id: 'ste',
    label: 'STE demonstrations only',
    method: 'greedy',
    aids: ['demonstrations'],
    backends: ['kernel', 'api'],
  },
  {
    id: 'pool',
    label: 'tool retrieval only',
    method: 'greedy',
    aids: ['toolPool'],
    backends: ['kernel', 'api'],
  },
  {
    id: 'combined',
    label: `all aids + maintenance (${combined.id})`,
    method: combined.method,
    aids: combined.aids,
    backends: ['kernel', 'api'],
  },
];

export function configurationsFor(kind: StreamBackendKind): StreamConfiguration[] {
  return STREAM_CONFIGURATIONS.filter((c) => c.backends.includes(kind));
}

/** One task run, with what its verdict is recomputed from. */
export interface TaskRecord {
  release: number;
  configuration: string;
  /** The task id (kernel) or the query's index in its set (API). */
  task: string;
  /** Kernel: the Finish answer (null: none) and the gold answer. */
  answer?: string | null;
  gold?: Gold;
  /** API: the operations called, in order, and the gold path (Correct Path Rate, the paper's subsequence). */
  called?: string[];
  goldPath?: string[];
  /** The verdict at run time (the series recomputes it; a disagreement is a bug, tests compare). */
  correct: boolean;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
}

export type EvaluationSuite =
  | {
      kind: 'kernel';
      world: World;
      /** The kernel's sandboxes; each task's run judges Finish against that task's gold. */
      deps: KernelDeps;
      /** The fixed tasks, in the order a memory-carrying method meets them. */
      tasks: readonly EvalTaskInput['task'][];
      /** The retrieval pool's base distractors (a toolset's tools); retired names join them. */
      distractors: readonly Tool[];
      maxSteps: number;
    }
  | {
      kind: 'api';
      api: ApiRef;
      catalog: ApiCatalog;
      world: MockWorld;
      items: readonly QueryItem[];
      maxSteps: number;
    };

export interface EvaluateReleaseInput {
  /** Every model seed of the suite derives from it. */
  seed: string;
  release: { n: number; surface: Surface | ApiSurface };
  /** The documentation the agents were built with: release 0's surface (stale from release 1 on). */
  base: Surface | ApiSurface;
  /** What maintenance left for this release (null: no maintenance — aid configurations are skipped). */
  state: MaintenanceState | null;
  suite: EvaluationSuite;
  configurations: readonly StreamConfiguration[];
  /** The memory each memory-carrying configuration ends the previous release with (by configuration id). */
  memory: Readonly<Record<string, readonly string[]>>;
  model: TextModel;
  /** Embeds exemplar queries for the demonstrations aid. */
  embedder: EmbeddingModel;
  now: Date;
  signal?: AbortSignal;
  onTask?: (configuration: string, done: number, total: number) => void;
}

export interface ReleaseEvaluation {
  records: TaskRecord[];
  /** The memory each memory-carrying configuration ends this release with. */
  memory: Record<string, readonly string[]>;
  /**
   * What maintenance could not give: a single-aid configuration whose aid has nothing is skipped (`slot` absent:
   * the configuration did not run); the combined configuration runs without that aid (`slot` names it).
   */
  notes: { configuration: string; slot?: AidSlot; reason: string }[];
}

/** Distractors of a kernel stream's retrieval pool: a seeded slice of the synthetic tool catalog. */
export function poolDistractors(seed: string, size = 500): Tool[] {
  return syntheticCatalog({
    seed,
    tools: size,
    seenTools: 10,
    trainPerTool: 1,
    dev: 0,
    testSeen: 0,
    testUnseen: 0,
  }).tools.map((t) => ({ name: t.name, description: t.description }));
}

/** Ids of what maintenance left at a release, as the aids name them. */
export function releaseRefs(n: number) {
  return { docset: `docs-r${n}`, demonstrations: `ste-r${n}`, pool: `pool-r${n}` };
}

/** Lookups over a release's maintenance state (the edge reads the same things from D1). */
export function maintenanceAidContext(input: {
  n: number;
  surfaces: readonly (Surface | ApiSurface)[];
  state: MaintenanceState | null;
  distractors: readonly Tool[];
  embedder: EmbeddingModel;
}): AidContext {
  const refs = releaseRefs(input.n);
  let memory: Promise<ExemplarMemory> | null = null;
  return {
    // Kernel suites resolve aids through it (an API suite's documentation is its tool list, below).
    surface: async (id) => (input.surfaces.find((s) => s.id === id) as Surface | undefined) ?? null,
    docset: async (id) => (id === refs.docset ? (input.state?.docset ?? null) : null),
    async demonstrations(set, count) {
      const exemplars = input.state?.demonstrations ?? [];
      if (set !== refs.demonstrations || exemplars.length === 0) return null;
      memory ??= (async () => {
        const m = new ExemplarMemory(input.embedder);
        await m.add(exemplars);
        return m;
      })();
      const m = await memory;
      return (question) => demonstrationsFor(m, question, count);
    },
    toolset: async (id, limit) =>
      id === refs.pool ? [...(input.state?.retired ?? []), ...input.distractors].slice(0, limit) : null,
  };
}

/** Why an aid slot has nothing to give with this maintenance state (null: it has). */
function missing(slot: AidSlot, state: MaintenanceState | null): string | null {
  if (slot === 'documentation' && !state?.docset) return 'no documentation set (maintenance without DRAFT)';
  if (slot === 'demonstrations' && !state?.demonstrations.length)
    return 'no STE exemplars (maintenance without STE, or an exploration that kept none)';
  return null;
}

export async function evaluateRelease(input: EvaluateReleaseInput): Promise<ReleaseEvaluation> {
  const records: TaskRecord[] = [];
  const memoryOut: Record<string, readonly string[]> = {};
  const notes: ReleaseEvaluation['notes'] = [];
  const { release, suite } = input;
  const refs = releaseRefs(release.n);
  const ctx = maintenanceAidContext({
    n: release.n,
    surfaces: [release.surface, input.base],
    state: input.state,
    distractors: suite.kind === 'kernel' ? suite.distractors : [],
    embedder: input.embedder,
  });
  for (const c of input.configurations) {
    if (!c.backends.includes(suite.kind)) continue;
    const gaps = c.aids.map((slot) => ({ slot, reason: missing(slot, input.state) }));
    const lacking = gaps.filter((g) => g.reason !== null) as { slot: AidSlot; reason: string }[];
    if (lacking.length > 0 && lacking.length === c.aids.length) {
      notes.push({ configuration: c.id, reason: lacking.map((g) => g.reason).join('; ') });
      continue;
    }
    for (const g of lacking) notes.push({ configuration: c.id, slot: g.slot, reason: g.reason });
    const slots = c.aids.filter((slot) => !lacking.some((g) => g.slot === slot));
    const method = getMethod(c.method);
    let memory: readonly string[] = input.memory[c.id] ?? [];
    const aids = AidsSchema.parse(
      presetAids(
        { ...combined, method: c.method, aids: c.aids },
        {
          ...refs,
          poolSurfaces: [release.surface.id],
          memory,
        },
      ),
    );
    const total = suite.kind === 'kernel' ? suite.tasks.length : suite.items.length;
    if (suite.kind === 'kernel') {
      const evalSuite = EvalSuiteSchema.parse({
        methods: [c.method],
        surfaces: [release.surface.id],
        promptSurface: input.base.id,
        aids,
        maxSteps: suite.maxSteps,
        seed: input.seed,
      });
      const resolved = await resolveAids(evalSuite.aids, input.base.id, ctx);
      for (const [i, task] of suite.tasks.entries()) {
        const o = await runEvalTask({
          method: c.method,
          suite: evalSuite,
          task,
          model: input.model,
          world: suite.world,
          surface: release.surface as Surface,
          docs: resolved.documentation,
          // Finish is judged against the task's gold (the edge's eval group does the same per task).
          deps: { ...suite.deps, gold: task.gold },
          ...(method.memory ? { memory } : {}),
          now: input.now,
          ...(input.signal ? { signal: input.signal } : {}),
          ...(resolved.demonstrations ? { demonstrations: resolved.demonstrations } : {}),
          ...(resolved.toolPool ? { toolPool: resolved.toolPool } : {}),
        });
        if (method.memory) memory = method.memory.carry(memory, o) as readonly string[];
        records.push({
          release: release.n,
          configuration: c.id,
          task: task.id,
          answer: o.answer,
          gold: task.gold,
          correct: o.correct,
          modelCalls: o.modelCalls,
          inputTokens: o.inputTokens,
          outputTokens: o.outputTokens,
        });
        input.onTask?.(c.id, i + 1, total);
      }
    } else {
      if (!method.runApi) throw new Error(`method ${c.method} does not run on imported APIs`);
      const docs: ApiPromptDocs =
        slots.includes('documentation') && input.state?.docset
          ? {
              kind: 'api',
              toolList: apiDocsetToolList(input.state.docset, input.base as ApiSurface, input.now),
            }
          : { kind: 'api', toolList: apiToolList(input.base as ApiSurface, { now: input.now }) };
      const lookup = aids.demonstrations
        ? await ctx.demonstrations?.(aids.demonstrations.set, aids.demonstrations.count)
        : undefined;
      const pool = slots.includes('toolPool')
        ? streamApiPool(
            release.surface as ApiSurface,
            input.state?.retired ?? [],
            input.now,
            aids.toolPool?.topK,
          )
        : null;
      for (const [i, item] of suite.items.entries()) {
        const target = apiTarget({
          api: suite.api,
          server: { kind: 'surface', surface: release.surface as ApiSurface },
          deps: { catalog: suite.catalog, world: suite.world, backend: { mode: 'seeded' } },
          now: input.now,
          query: { text: item.query, index: item.index, gold: item.gold },
        });
        const seed = `${input.seed}/${c.method}/${item.index}`;
        const o = await method.runApi({
          query: { question: item.query },
          target,
          docs,
          options: method.options.parse({}),
          model: input.model,
          aids: {
            updateMemory: memory,
            ...(lookup ? { demonstrations: lookup } : {}),
            ...(pool ? { toolPool: pool } : {}),
          },
          ...(method.memory ? { memory } : {}),
          limits: { maxSteps: suite.maxSteps },
          seeds: { model: hash128(seed)[0] as number, search: seed },
          now: input.now,
          ...(input.signal ? { signal: input.signal } : {}),
        });
        if (method.memory) memory = method.memory.carry(memory, o) as readonly string[];
        records.push({
          release: release.n,
          configuration: c.id,
          task: String(item.index),
          called: o.api?.called ?? [],
          goldPath: o.api?.goldPath ?? [],
          correct: o.api?.correctPath?.subsequence ?? false,
          modelCalls: o.modelCalls,
          inputTokens: o.inputTokens,
          outputTokens: o.outputTokens,
        });
        input.onTask?.(c.id, i + 1, total);
      }
    }
    if (method.memory) memoryOut[c.id] = memory;
  }
  return { records, memory: memoryOut, notes };
}

/**
 * The retrieval pool of an API stream's release (issue 26 §2): the operations the release serves, documented as
 * served, and every name earlier releases retired as a distractor with the description its last release gave it
 * (maintenance's `retired`), retrieved per step by the API `toolPool` aid (core/aids/api-pool.ts; bm25, top k as the
 * kernel's pool).
 */
export function streamApiPool(surface: ApiSurface, retired: readonly Tool[], now: Date, k = 3): ApiToolPool {
  const served = surfaceApiDocs(surface, { now }).tools ?? [];
  const names = new Set(served.map((t) => t.name));
  const distractors: ApiDocTool[] = retired
    .filter((t) => !names.has(t.name))
    .map((t) => ({ name: t.name, operation: t.name, line: `${t.name}, ${t.description}` }));
  return new ApiToolPool([...served, ...distractors], { k, ranker: 'bm25' });
}

/**
 * A DRAFT set of an imported API as the agent's tool list: the set's current tools (`(n) Name[params], …`, their
 * names and routes as DRAFT found them on the server), then the API's Finish line.
 */
export function apiDocsetToolList(
  set: Parameters<typeof docsetToolList>[0],
  base: ApiSurface,
  now: Date,
): string {
  const lines = docsetToolList(set).split('\n').filter(Boolean);
  const finish = apiToolList(base, { now }).split('\n').at(-1) as string;
  return [...lines, finish.replace(/^\(\d+\)/, `(${lines.length + 1})`)].join('\n');
}
