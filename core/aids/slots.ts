/**
 * The aid slots: what an agent is *given*, orthogonal to how its method searches (core/methods). A request (an
 * evaluation suite or `POST /v1/solve`) names the aids it wants in an `aids` object, one member per slot with
 * that slot's options; which slots a method can use is declared by the method (`AgentMethod.aids`).
 *
 * - `documentation` — the tool documentation the agent reads: a surface's docs (the same as `promptSurface`,
 *   which stays as the short form), or a DRAFT documentation set (`docset`, core/draft).
 * - `updateMemory` — ToolEvo's tool-update memory: UpdateTool descriptions listed among the tools from the
 *   first step on (spec toolqa-d.md; the memory greedy-memory carries across tasks starts from these lines).
 * - `demonstrations` — STE exemplars retrieved for the question and shown as demonstrations (ste.md,
 *   "Exploitation": the 8 most similar exemplar queries).
 * - `toolPool` — a Chain-of-Tools pool: the surface's tools hidden among distractors, the prompt documenting
 *   only the top-k retrieved per step (cotools.md; core/retrieval/tool-pool.ts).
 *
 * Option shapes are declared here for every slot, so a request can be validated (and listed in /openapi.json)
 * before a provider exists; providers.ts says which slots can be resolved now.
 */
import { z } from 'zod';

export const AID_SLOTS = ['documentation', 'updateMemory', 'demonstrations', 'toolPool'] as const;
export type AidSlot = (typeof AID_SLOTS)[number];

/** A lower-case id (a surface, a documentation set, an exemplar set, a tool pool); `what` names it in errors. */
export function slugId(what: string) {
  return z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9][a-z0-9._-]*$/, `${what} (lower-case letters, digits, ".", "_", "-")`);
}

export const SurfaceIdSchema = slugId('a surface id');
const AidRef = slugId('an id');

export const DocumentationAidSchema = z
  .strictObject({
    surface: SurfaceIdSchema.optional().meta({
      description: 'Read this surface’s documentation (as promptSurface).',
    }),
    docset: AidRef.optional().meta({
      description: 'Read a DRAFT documentation set (its refined tool documentation, GET /v1/docsets/{id}).',
    }),
  })
  .refine((d) => (d.surface === undefined) !== (d.docset === undefined), {
    message: 'give exactly one of surface and docset',
  });

/** At most this many carried UpdateTool lines (greedy-memory keeps the same number). */
export const MEMORY_LINES = 12;

export const UpdateMemoryAidSchema = z.strictObject({
  lines: z
    .array(z.string().trim().min(1).max(500))
    .max(MEMORY_LINES)
    .default([])
    .meta({ description: 'UpdateTool descriptions listed among the tools from the first step on.' }),
});

export const DemonstrationsAidSchema = z.strictObject({
  set: AidRef.meta({ description: 'The exemplar set (STE exploration output) to retrieve from.' }),
  count: z.number().int().min(1).max(32).default(8).meta({ description: 'Exemplars per question (STE: 8).' }),
});

/** Rankers the toolPool aid can build inside a run (untrained, no encoder: cotools.md's BM25 baseline). */
export const TOOL_POOL_RANKERS = ['bm25', 'char'] as const;
/**
 * Gates of a step's retrieval: `always` = no Tool Judge, every step retrieves; `trained` = the Tool Judge of the
 * pool toolset's newest finished training (POST /v1/toolsets/{id}/train; cotools.md eq. 3–5).
 */
export const TOOL_POOL_JUDGES = ['always', 'trained'] as const;
/** Largest pool the aid builds (the synthetic catalog's scale). */
export const MAX_TOOL_POOL = 100_000;

export const ToolPoolAidSchema = z.strictObject({
  pool: AidRef.meta({
    description:
      'The toolset (POST /v1/toolsets: synthetic, upload or surface) whose tools are the distractors the surface tools hide among.',
  }),
  topK: z
    .number()
    .int()
    .min(1)
    .max(50)
    .default(1)
    .meta({ description: 'Tools retrieved per step (CoTools: 1).' }),
  ranker: z
    .enum(TOOL_POOL_RANKERS)
    .default('bm25')
    .meta({ description: 'The ranker over the pool (untrained: bm25 or char).' }),
  size: z.number().int().min(1).max(MAX_TOOL_POOL).optional().meta({
    description: 'Tools in the pool in all, surface tools included (default: the whole toolset plus them).',
  }),
  surfaces: z.array(SurfaceIdSchema).min(1).max(4).optional().meta({
    description:
      'Surfaces whose tools are hidden in the pool (default: the documentation surface); e.g. ["pc", "s-ood"] holds both versions.',
  }),
  judge: z.enum(TOOL_POOL_JUDGES).default('always').meta({
    description:
      'Whether a step retrieves: `always` (no Tool Judge: every step retrieves) or `trained` (the Tool Judge of the pool toolset’s newest finished training, cotools.md eq. 3–5: a step retrieves when it needs a tool).',
  }),
  seed: z
    .string()
    .min(1)
    .max(100)
    .default('tool-pool')
    .meta({ description: 'Seeds where the surface tools sit among the distractors.' }),
});

export const AidsSchema = z
  .strictObject({
    documentation: DocumentationAidSchema.optional(),
    updateMemory: UpdateMemoryAidSchema.optional(),
    demonstrations: DemonstrationsAidSchema.optional(),
    toolPool: ToolPoolAidSchema.optional(),
  })
  .meta({
    description:
      'What the agent is given besides the question: documentation, memory, demonstrations, tools.',
  });

export type Aids = z.output<typeof AidsSchema>;
export type AidsInput = z.input<typeof AidsSchema>;

/** The slots a request asks for, in slot order. */
export function requestedAids(aids: Aids | undefined): AidSlot[] {
  return aids === undefined ? [] : AID_SLOTS.filter((slot) => aids[slot] !== undefined);
}
