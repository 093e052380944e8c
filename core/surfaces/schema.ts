/**
 * The published JSON schema of a surface (zod, so one definition validates API input and generates the
 * OpenAPI component). Structural validity is checked here; semantic validity (name collisions, parameters
 * covering the kernel tool, examples that resolve) by `validateSurface` in adapter.ts.
 */
import { z } from 'zod';
import { KERNEL_TOOL_NAMES } from '../world/kernel/kernel.ts';
import type { Surface } from './model.ts';

/**
 * Tool names and parameter keys: letters, digits and the special characters ToolEvo studies (§5.3, App. B.2:
 * `_ - @ % # . ? &`). MCP's SEP-986 recommends `[A-Za-z0-9._-]` only and function-calling APIs take
 * `[A-Za-z0-9_-]`: a surface that uses `@ % # ? &` is for ReAct, JSON REST and MCP clients that accept them.
 */
const Name = z
  .string()
  .min(1)
  .max(64)
  .regex(
    /^[A-Za-z0-9_.@%#?&-]+$/,
    'names use letters, digits and the special characters _ - @ % # . ? & (ToolEvo §5.3)',
  );
const Text = z.string().max(2000);
const Instant = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

const ParamSpecSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('rename'), name: Name, kernel: z.string().min(1), description: Text }),
  z.strictObject({ kind: z.literal('ignored'), name: Name, description: Text, example: z.unknown() }),
  z.strictObject({
    kind: z.literal('flag'),
    name: Name,
    accepted: z
      .array(z.union([z.string().max(100), z.boolean()]))
      .min(1)
      .max(10),
    optional: z.boolean(),
    description: Text,
  }),
  z.strictObject({
    kind: z.literal('numbered'),
    prefix: Name,
    kernel: z.string().min(1),
    joiner: z.string().max(10),
    singleKey: Name.optional(),
    singleKeyWith: z.array(Name).max(10).optional(),
    description: Text,
  }),
  z.strictObject({
    kind: z.literal('structured'),
    name: Name,
    slots: z
      .array(
        z.strictObject({
          label: z
            .string()
            .regex(/^[A-Za-z0-9_]+$/)
            .max(64),
          kernel: z.string().min(1),
        }),
      )
      .min(1)
      .max(5),
    description: Text,
  }),
  z.strictObject({
    kind: z.literal('prefixed'),
    name: Name,
    kernel: z.string().min(1),
    prefix: z.string().min(1).max(200),
    trim: z.boolean(),
    description: Text,
  }),
]);

const ToolSchema = z.strictObject({
  kernel: z.enum(KERNEL_TOOL_NAMES),
  name: Name,
  params: z.array(ParamSpecSchema).max(20),
  keyMismatch: z.enum(['invalid-action', 'param-error']),
  description: Text,
  example: z.record(z.string(), z.unknown()),
  lifecycle: z.strictObject({
    status: z.enum(['active', 'deprecated', 'sunset']),
    deprecatedAt: Instant.optional(),
    sunsetAt: Instant.optional(),
    successor: Name.optional(),
  }),
});

export const SurfaceSchema = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'surface ids are lower-case slugs (letters, digits, `-`)'),
  title: z.string().min(1).max(200),
  description: Text,
  derivedFrom: z.string().max(64).optional(),
  drift: z.strictObject({ seed: z.string().max(200), kinds: z.array(z.string().max(64)).max(20) }).optional(),
  tools: z.array(ToolSchema).min(1).max(50),
  retired: z
    .array(
      z.strictObject({
        name: Name,
        kernel: z.enum(KERNEL_TOOL_NAMES),
        message: z.string().max(4000),
        successor: Name,
      }),
    )
    .max(100),
  response: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('plain') }),
    z.strictObject({
      kind: z.literal('wrapped'),
      stateKey: z.string().min(1).max(64),
      messageKey: z.string().min(1).max(64),
      success: z.string().max(64),
      failure: z.string().max(64),
    }),
  ]),
  messages: z.strictObject({ invalidAction: z.string().max(4000), filtered: z.string().max(4000) }),
});

/** Parses a surface; the result is typed as the model's Surface. */
export function parseSurface(
  value: unknown,
): { ok: true; surface: Surface } | { ok: false; error: z.ZodError } {
  const r = SurfaceSchema.safeParse(value);
  return r.success ? { ok: true, surface: r.data as Surface } : { ok: false, error: r.error };
}
