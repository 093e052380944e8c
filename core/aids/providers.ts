/**
 * Aid providers: how a requested aid becomes what a method run is given. One provider per slot; a slot without a
 * provider is declared (its options validate) but answers "not available yet". The extension contract is written
 * down in README.md: to make `demonstrations`, `toolPool` or a docset-backed `documentation` available, implement
 * its `resolve` here (reading stores only through the `AidContext` the caller passes) and add the resolved value
 * to `ResolvedAids` — methods and requests do not change.
 */

import type { DocSet } from '../draft/docset.ts';
import { docsetPromptSurface } from '../draft/render.ts';
import type { SteDemonstration } from '../prompts/ste.ts';
import { Bm25Ranker } from '../retrieval/bm25.ts';
import { CharRanker } from '../retrieval/char.ts';
import { ALWAYS_RETRIEVE, buildToolPool, type ToolGate, ToolPoolRetriever } from '../retrieval/tool-pool.ts';
import type { Tool } from '../retrieval/types.ts';
import type { Surface } from '../surfaces/model.ts';
import {
  AID_SLOTS,
  type AidSlot,
  type Aids,
  DemonstrationsAidSchema,
  DocumentationAidSchema,
  MAX_TOOL_POOL,
  ToolPoolAidSchema,
  UpdateMemoryAidSchema,
} from './slots.ts';

/** What a method run is given (every slot a provider resolved; absent slots were not requested). */
export interface ResolvedAids {
  /** The documentation surface the agent's prompt shows. Always present (default: the request's promptSurface). */
  documentation: Surface;
  /** UpdateTool descriptions listed from the first step on. */
  updateMemory: readonly string[];
  /**
   * STE demonstrations for a question (the `demonstrations` slot): the exemplars most similar to it, shown
   * before the agent's turn (core/ste/demonstrations.ts). Absent when the slot was not requested.
   */
  demonstrations?: (question: string) => Promise<readonly SteDemonstration[]>;
  /**
   * The Chain-of-Tools pool (the `toolPool` slot): per step, the documentation surface of the tools retrieved
   * so far (core/retrieval/tool-pool.ts). When present it replaces `documentation` in the agent's prompt.
   */
  toolPool?: ToolPoolRetriever;
}

/** Lookups the edge provides to providers (stores live in the edge, not in core). */
export interface AidContext {
  /** A built-in or stored surface by id, or null. */
  surface(id: string): Promise<Surface | null>;
  /**
   * The demonstrations of an exemplar set (an STE run id) for a question, `count` at most; null when the set
   * does not exist or has no exemplars. Absent: this caller cannot serve the slot.
   */
  demonstrations?(
    set: string,
    count: number,
  ): Promise<((question: string) => Promise<SteDemonstration[]>) | null>;
  /** A stored DRAFT documentation set by id, or null. */
  docset(id: string): Promise<DocSet | null>;
  /**
   * The tools of a toolset (the toolPool aid's distractors) in pool order, at most `limit`; null when it does
   * not exist (or another user key owns it). Absent: this caller cannot serve the slot.
   */
  toolset?(id: string, limit: number): Promise<Tool[] | null>;
  /**
   * The trained Tool Judge of a toolset as a retrieval gate; a string says why there is none (never trained, no
   * judge, another frozen encoder), null when the toolset does not exist. Absent: `judge: "trained"` is not
   * available to this caller.
   */
  toolsetJudge?(id: string): Promise<ToolGate | string | null>;
}

/** A requested aid that cannot be given: the slot's member is the JSON pointer of the request field. */
export class AidUnavailableError extends Error {
  constructor(
    readonly slot: AidSlot,
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'AidUnavailableError';
  }
}

export interface AidProvider<S extends AidSlot = AidSlot> {
  slot: S;
  summary: string;
  /** Whether the slot can be served at all (a declared slot without a provider: false). */
  available: boolean;
  /** The slot's options (zod); listed in GET /v1/methods. */
  options: (typeof SLOT_SCHEMAS)[S];
  /**
   * Why a validated request for this slot cannot be served here (e.g. "not available yet"), checked when a
   * request is validated so that it fails with a 400 before any work; null when it can be served.
   */
  unavailable(options: NonNullable<Aids[S]>): string | null;
}

const SLOT_SCHEMAS = {
  documentation: DocumentationAidSchema,
  updateMemory: UpdateMemoryAidSchema,
  demonstrations: DemonstrationsAidSchema,
  toolPool: ToolPoolAidSchema,
} as const;

export const NOT_AVAILABLE = 'is not available yet';

export const AID_PROVIDERS: { [S in AidSlot]: AidProvider<S> } = {
  documentation: {
    slot: 'documentation',
    available: true,
    summary: 'The tool documentation the agent reads: a surface’s docs, or a DRAFT documentation set.',
    options: DocumentationAidSchema,
    unavailable: () => null,
  },
  updateMemory: {
    slot: 'updateMemory',
    available: true,
    summary: 'Tool-update memory: UpdateTool descriptions listed among the tools from the first step on.',
    options: UpdateMemoryAidSchema,
    unavailable: () => null,
  },
  demonstrations: {
    slot: 'demonstrations',
    available: true,
    summary:
      'STE exemplars of a run (`set`: the run id), the `count` most similar to the question, shown as demonstrations.',
    options: DemonstrationsAidSchema,
    unavailable: () => null,
  },
  toolPool: {
    slot: 'toolPool',
    available: true,
    summary:
      'Chain-of-Tools: the surface’s tools hidden among a toolset’s distractors; the prompt documents only the `topK` tools retrieved per step (and, after a deprecation error, for the retired tool).',
    options: ToolPoolAidSchema,
    unavailable: () => null,
  },
};

export interface AidIssue {
  /** Path of the offending member below the `aids` object. */
  path: (string | number)[];
  message: string;
}

/**
 * Problems with a request's aids for the methods that will run: a slot without a provider, or a slot a method
 * does not use (so that a requested aid is never silently ignored).
 */
export function aidIssues(
  aids: Aids | undefined,
  methods: readonly { id: string; aids: readonly AidSlot[] }[],
): AidIssue[] {
  if (aids === undefined) return [];
  const issues: AidIssue[] = [];
  for (const slot of AID_SLOTS) {
    const options = aids[slot];
    if (options === undefined) continue;
    const why = (AID_PROVIDERS[slot] as AidProvider).unavailable(options as never);
    if (why !== null) {
      issues.push({ path: [slot], message: why });
      continue;
    }
    for (const m of methods)
      if (!m.aids.includes(slot))
        issues.push({ path: [slot], message: `method ${m.id} does not use the ${slot} aid` });
  }
  return issues;
}

/** The documentation surface id a request resolves to: the documentation aid, else `promptSurface`. */
export function documentationSurfaceId(aids: Aids | undefined, promptSurface: string): string {
  return aids?.documentation?.surface ?? promptSurface;
}

/**
 * Resolves validated, available aids for a run: the documentation is a surface's, or a DRAFT documentation set's
 * rendered like the surface it started from. Throws AidUnavailableError for a documentation surface or set that
 * does not exist (`field` is the request member that named it).
 */
export async function resolveAids(
  aids: Aids | undefined,
  promptSurface: string,
  ctx: AidContext,
): Promise<ResolvedAids> {
  const resolved: ResolvedAids = {
    documentation: await resolveDocumentation(aids, promptSurface, ctx),
    updateMemory: aids?.updateMemory?.lines ?? [],
  };
  const demos = aids?.demonstrations;
  if (demos) {
    const lookup = ctx.demonstrations ? await ctx.demonstrations(demos.set, demos.count) : null;
    if (!lookup) {
      throw new AidUnavailableError(
        'demonstrations',
        'aids.demonstrations.set',
        ctx.demonstrations
          ? `no exemplars in set ${demos.set}`
          : `the demonstrations aid ${NOT_AVAILABLE} here`,
      );
    }
    resolved.demonstrations = lookup;
  }
  if (aids?.toolPool) resolved.toolPool = await resolveToolPool(aids.toolPool, resolved.documentation, ctx);
  return resolved;
}

async function resolveDocumentation(
  aids: Aids | undefined,
  promptSurface: string,
  ctx: AidContext,
): Promise<Surface> {
  const docsetId = aids?.documentation?.docset;
  if (docsetId !== undefined) {
    const set = await ctx.docset(docsetId);
    if (!set) {
      throw new AidUnavailableError(
        'documentation',
        'aids.documentation.docset',
        `no documentation set ${docsetId}`,
      );
    }
    const base = await ctx.surface(set.source.docs);
    if (!base) {
      throw new AidUnavailableError(
        'documentation',
        'aids.documentation.docset',
        `no surface ${set.source.docs}`,
      );
    }
    // The set's refined documentation, rendered like the surface it started from (core/draft/render.ts).
    return docsetPromptSurface(set, base);
  }
  const id = documentationSurfaceId(aids, promptSurface);
  const documentation = await ctx.surface(id);
  if (!documentation) {
    const field = aids?.documentation?.surface !== undefined ? 'aids.documentation.surface' : 'promptSurface';
    throw new AidUnavailableError('documentation', field, `no surface named ${id}`);
  }
  return documentation;
}

/**
 * The toolPool aid: the surfaces' tools (default: the documentation's) among the toolset's distractors, ranked
 * by an untrained ranker (core/retrieval/tool-pool.ts). Unknown toolset or surface → AidUnavailableError.
 */
export async function resolveToolPool(
  options: NonNullable<Aids['toolPool']>,
  documentation: Surface,
  ctx: AidContext,
): Promise<ToolPoolRetriever> {
  const surfaces: Surface[] = [];
  for (const [i, id] of (options.surfaces ?? []).entries()) {
    const surface = id === documentation.id ? documentation : await ctx.surface(id);
    if (!surface)
      throw new AidUnavailableError('toolPool', `aids.toolPool.surfaces.${i}`, `no surface named ${id}`);
    surfaces.push(surface);
  }
  if (surfaces.length === 0) surfaces.push(documentation);
  const distractors = ctx.toolset ? await ctx.toolset(options.pool, options.size ?? MAX_TOOL_POOL) : null;
  if (!distractors) {
    throw new AidUnavailableError(
      'toolPool',
      'aids.toolPool.pool',
      ctx.toolset ? `no toolset ${options.pool}` : `the toolPool aid ${NOT_AVAILABLE} here`,
    );
  }
  const pool = buildToolPool({
    surfaces,
    distractors,
    ...(options.size !== undefined ? { size: options.size } : {}),
    seed: options.seed,
  });
  const ranker = options.ranker === 'char' ? new CharRanker(pool) : new Bm25Ranker(pool);
  const gate = options.judge === 'trained' ? await trainedGate(options.pool, ctx) : ALWAYS_RETRIEVE;
  return new ToolPoolRetriever({ pool, ranker, topK: options.topK, base: documentation, gate });
}

/** `judge: "trained"`: the pool toolset's trained Tool Judge, or an AidUnavailableError saying why not. */
async function trainedGate(pool: string, ctx: AidContext): Promise<ToolGate> {
  const gate = ctx.toolsetJudge ? await ctx.toolsetJudge(pool) : `a trained Tool Judge ${NOT_AVAILABLE} here`;
  if (gate !== null && typeof gate !== 'string') return gate;
  throw new AidUnavailableError('toolPool', 'aids.toolPool.judge', gate ?? `no toolset ${pool}`);
}
