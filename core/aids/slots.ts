/**
 * The aid slots: what an agent is *given*, orthogonal to how its method searches (core/methods). A request (an
 * evaluation suite or `POST /v1/solve`) names the aids it wants in an `aids` object, one member per slot with
 * that slot's options; which slots a method can use is declared by the method (`AgentMethod.aids`).
 *
 * - `documentation` — the tool documentation the agent reads: a surface's docs today (the same as
 *   `promptSurface`, which stays as the short form); a DRAFT documentation set (`docset`) is declared.
 * - `updateMemory` — ToolEvo's tool-update memory: UpdateTool descriptions listed among the tools from the
 *   first step on (spec toolqa-d.md; the memory greedy-memory carries across tasks starts from these lines).
 * - `demonstrations` — STE exemplars retrieved for the question and shown as demonstrations (ste.md,
 *   "Exploitation": the 8 most similar exemplar queries). Declared: no provider yet.
 * - `toolPool` — a Chain-of-Tools pool of tools to retrieve from at each calling step (cotools.md, top-1
 *   selection). Declared: no provider yet.
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
    docset: AidRef.optional().meta({ description: 'Read a DRAFT documentation set (not available yet).' }),
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

export const ToolPoolAidSchema = z.strictObject({
  pool: AidRef.meta({ description: 'The tool pool to retrieve from.' }),
  topK: z
    .number()
    .int()
    .min(1)
    .max(50)
    .default(1)
    .meta({ description: 'Tools retrieved per step (CoTools: 1).' }),
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
