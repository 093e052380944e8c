/**
 * A whole DRAFT run in one process (tests, benchmarks, the CLI's local mode, evaluations): every explored tool of
 * a documentation set through the per-tool loop (loop.ts), then one tool-level rewrite per category (spec
 * draft.md step 5), assembled into the next documentation set. The edge runs the same pieces with one Durable
 * Object per tool instead.
 *
 * `only` restricts the run to some tools (docs that follow drift re-document only the changed ones); the others
 * keep their documentation and history from the starting set. A continued set starts each explored tool from its
 * current documentation and appends to its version history.
 */

import { type ApiSurface, isApiSurface } from '../apis/surface/model.ts';
import type { ApiCatalog } from '../apis/types.ts';
import type { EmbeddingModel, TextModel } from '../models/types.ts';
import { addUsage, emptyUsage, type Usage } from '../models/types.ts';
import { renderPrompt } from '../prompts/registry.ts';
import type { ToolTarget } from '../sessions/targets.ts';
import type { Surface } from '../surfaces/model.ts';
import type { KernelDeps } from '../world/kernel/kernel.ts';
import type { World } from '../world/types.ts';
import { apiDocSet } from './api.ts';
import { type DraftOptionsInput, resolveDraftOptions } from './config.ts';
import {
  type Category,
  type DocEntry,
  type DocSet,
  explored,
  initialDocSet,
  markServed,
  toolDocLine,
} from './docset.ts';
import { advanceTool, callSeed, type DraftContext, type DraftToolState, initialToolState } from './loop.ts';
import { parseSummaryAnswer } from './parse.ts';

/** The tool states a run starts with: the explored tools of `set` (restricted to `only` when given). */
export function toolStatesFor(set: DocSet, only?: readonly string[]): DraftToolState[] {
  const lines = new Map(set.tools.map((t) => [t.key, toolDocLine(t.doc)]));
  return set.tools
    .filter((t) => explored(t.category) && (only === undefined || only.includes(t.key)))
    .map((t) =>
      initialToolState(
        t.key,
        t.category,
        t.doc,
        set.tools.filter((o) => o.key !== t.key && explored(o.category)).map((o) => lines.get(o.key)!),
        set.options,
      ),
    );
}

/**
 * A documentation set with finished tool states folded in: a tool's new versions are appended after its own
 * (a continued set's history thus restarts its iteration numbers at 1 after each run).
 */
export function applyToolStates(set: DocSet, states: readonly DraftToolState[]): DocSet {
  const byKey = new Map(states.map((s) => [s.key, s]));
  const tools: DocEntry[] = set.tools.map((t) => {
    const s = byKey.get(t.key);
    if (s?.phase !== 'done' || !s.stop) return t;
    return {
      ...t,
      doc: s.doc,
      versions: [...t.versions, ...s.versions.slice(1)],
      stop: s.stop,
      flags: s.flags ?? [],
      modelCalls: t.modelCalls + s.modelCalls,
      toolCalls: t.toolCalls + s.toolCalls,
    };
  });
  const model = states.find((s) => s.model)?.model ?? set.model;
  return { ...set, tools, model };
}

export interface SummaryContext {
  model: TextModel;
  /**
   * The explored server: each tool's `not-served` flag is checked against it (docset.ts `markServed`), so a name
   * the server no longer serves is never presented as current documentation.
   */
  server?: Surface | ApiSurface;
  now?: Date;
  signal?: AbortSignal;
}

/** The tool-level rewrite of one category from its tools' final documentation. */
export async function summarizeCategory(
  set: DocSet,
  category: Category,
  ctx: SummaryContext,
): Promise<{ description: string; usage: Usage }> {
  const o = set.options;
  const messages = renderPrompt('draft/summarize', {
    category,
    tools: set.tools.filter((t) => t.category === category).map((t) => toolDocLine(t.doc)),
  });
  const r = await ctx.model.generate(
    {
      messages,
      temperature: o.temperature,
      topP: o.topP,
      maxTokens: o.maxTokens,
      seed: callSeed(o, `category:${category}`, 0, 'summarize'),
    },
    ctx.signal,
  );
  return { description: parseSummaryAnswer(r.candidates[0]?.text ?? ''), usage: r.usage };
}

/**
 * The documentation set after a run: the finished tool states folded in, then one tool-level rewrite per category
 * that had a tool explored (spec draft.md step 5).
 */
export async function finishDocSet(
  start: DocSet,
  states: readonly DraftToolState[],
  ctx: SummaryContext,
): Promise<{ docset: DocSet; usage: Usage }> {
  let usage = emptyUsage();
  const docset = settleDocSet(start, states, ctx);
  const touched = new Set(states.filter((s) => s.phase === 'done').map((s) => s.category));
  const categories = [];
  for (const c of docset.categories) {
    if (!touched.has(c.name)) {
      categories.push(c);
      continue;
    }
    const summary = await summarizeCategory(docset, c.name, ctx);
    usage = addUsage(usage, summary.usage);
    categories.push({ ...c, description: summary.description });
  }
  return {
    docset: { ...docset, categories, simulated: docset.simulated || ctx.model.capabilities.simulated },
    usage,
  };
}

/**
 * The finished tool states folded in and each name checked against the explored server, without the tool-level
 * rewrites: what `finishDocSet` rewrites, and the set a run ends with when its key's quota ran out before them.
 */
export function settleDocSet(
  start: DocSet,
  states: readonly DraftToolState[],
  ctx: Pick<SummaryContext, 'server' | 'now'>,
): DocSet {
  const applied = applyToolStates(start, states);
  return ctx.server ? markServed(applied, ctx.server, ctx.now) : applied;
}

export interface StartDocSetInput {
  /** The surface whose documentation a fresh set starts from (a kernel surface, or an imported API's). */
  docs?: Surface | ApiSurface;
  /** An API surface's catalog (its operations' tags name the categories of catalog tools). */
  catalog?: ApiCatalog;
  /** A stored set to continue (docs that follow drift): its documentation and history are the start. */
  from?: { id: string; set: DocSet };
  server: string;
  model: string;
  simulated: boolean;
  /** The embedding model that measures φ and Δ in this run (recorded in the set). */
  encoder?: string;
  /** Options; a continued set keeps its own unless overridden here. */
  options?: DraftOptionsInput;
}

/** The documentation set a run starts from: fresh from a surface, or continuing a stored set. */
export function startDocSet(input: StartDocSetInput): DocSet {
  if (input.from) {
    const { id, set } = input.from;
    const options = resolveDraftOptions({ ...set.options, ...input.options });
    return {
      ...set,
      options,
      parent: id,
      source: { docs: set.source.docs, server: input.server },
      model: input.model,
      ...(input.encoder ? { encoder: input.encoder } : {}),
      // Documentation written partly by the simulator stays labelled as such.
      simulated: set.simulated || input.simulated,
    };
  }
  if (!input.docs) throw new Error('startDocSet needs docs or from');
  const options = resolveDraftOptions(input.options);
  const set = isApiSurface(input.docs)
    ? apiDocSet(input.docs, input.server, input.model, input.simulated, options, input.catalog)
    : initialDocSet(input.docs, input.server, input.model, input.simulated, options);
  return input.encoder ? { ...set, encoder: input.encoder } : set;
}

interface DraftRunBase {
  model: TextModel;
  embedder: EmbeddingModel;
  options?: DraftOptionsInput;
  /** Continue from this stored documentation set instead of the docs surface's. */
  from?: { id: string; set: DocSet };
  /** Only these tool keys. */
  only?: readonly string[];
  now?: Date;
  signal?: AbortSignal;
  /** Called after each finished tool (progress). */
  onTool?: (state: DraftToolState) => void;
}

/** A run on a kernel surface over the world, or on any exploration target (an imported API's operations). */
export type DraftRunInput = DraftRunBase &
  (
    | {
        world: World;
        /** The surface whose documentation DRAFT starts from (ignored when `from` is given). */
        docs: Surface;
        server: Surface;
        /** Kernel dependencies for the explorations. */
        deps: KernelDeps;
        target?: undefined;
      }
    | {
        /** What answers the explorations (`apiTarget`: the API's session step over its mock). */
        target: ToolTarget;
        /** The API surface whose documentation DRAFT starts from (ignored when `from` is given). */
        docs: ApiSurface;
        catalog?: ApiCatalog;
        /** The API surface the target serves: documented names it does not serve are flagged `not-served`. */
        server?: ApiSurface;
      }
  );

export interface DraftRunResult {
  docset: DocSet;
  states: DraftToolState[];
  usage: Usage;
}

export async function runDraft(input: DraftRunInput): Promise<DraftRunResult> {
  const start = startDocSet({
    ...(input.from ? { from: input.from } : { docs: input.docs }),
    ...(input.target && input.catalog ? { catalog: input.catalog } : {}),
    server: input.target ? input.target.surfaceId : input.server.id,
    model: input.model.model,
    simulated: input.model.capabilities.simulated,
    encoder: input.embedder.model,
    ...(input.options ? { options: input.options } : {}),
  });
  const ctx: DraftContext = input.target
    ? { model: input.model, embedder: input.embedder, target: input.target }
    : {
        model: input.model,
        embedder: input.embedder,
        world: input.world,
        server: input.server,
        deps: input.deps,
      };
  if (input.now) ctx.now = input.now;
  if (input.signal) ctx.signal = input.signal;
  const states: DraftToolState[] = [];
  let usage = emptyUsage();
  for (const s of toolStatesFor(start, input.only)) {
    const done = await advanceTool(s, ctx);
    usage = addUsage(usage, done.usage);
    states.push(done);
    input.onTool?.(done);
  }
  const finished = await finishDocSet(start, states, {
    model: input.model,
    ...(input.target ? (input.server ? { server: input.server } : {}) : { server: input.server }),
    ...(input.now ? { now: input.now } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  return { docset: finished.docset, states, usage: addUsage(usage, finished.usage) };
}
