/**
 * The agent-method registry: every method listed in list.ts, by id. Evaluation suites (their `methods` enum and
 * per-method option fields), task runs (core/evals/run-task.ts), `POST /v1/solve`, `GET /v1/methods`, the CLI's
 * help and the dashboard's suite form all derive from it.
 */
import { z } from 'zod';
import { AID_PROVIDERS, type AidSlot } from '../aids/index.ts';
import * as LIST from './list.ts';
import type { AgentMethod } from './method.ts';

type Listed = (typeof LIST)[keyof typeof LIST];

export type MethodId = Listed['id'];

/** Every registered method, in the order of their export names in list.ts. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds methods of different option and memory types.
export const METHODS: readonly AgentMethod<MethodId, any, any>[] = Object.values(LIST);

export const METHOD_IDS = METHODS.map((m) => m.id) as [MethodId, ...MethodId[]];

const BY_ID = new Map(METHODS.map((m) => [m.id as string, m]));

export function isMethodId(id: string): id is MethodId {
  return BY_ID.has(id);
}

// biome-ignore lint/suspicious/noExplicitAny: see METHODS.
export function getMethod(id: MethodId): AgentMethod<MethodId, any, any> {
  const m = BY_ID.get(id);
  if (!m) throw new Error(`no agent method ${id}`);
  return m;
}

/** Whether a method runs on an imported API (it has `runApi`); the search methods run on the kernel only so far. */
export function runsOnApi(id: MethodId): boolean {
  return getMethod(id).runApi !== undefined;
}

/** The JSON Schema of options as a request writes them (zod 4's z.toJSONSchema, defaults shown, no `$schema`). */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
}

/** The JSON Schema of a method's options. */
export function optionsJsonSchema(m: AgentMethod<string, unknown, unknown>): Record<string, unknown> {
  return jsonSchemaOf(m.options);
}

/** Whether a method has options at all (methods without any get no field in a suite). */
export function hasOptions(m: AgentMethod<string, unknown, unknown>): boolean {
  const properties = optionsJsonSchema(m).properties;
  return typeof properties === 'object' && properties !== null && Object.keys(properties).length > 0;
}

/**
 * The suite fields of the methods' options: one member per method that has options, named by its id (e.g.
 * `mcts: { simulations, k, maxDepth }`), defaulting to the method's defaults.
 */
export function methodOptionFields(): Record<string, z.ZodType> {
  const fields: Record<string, z.ZodType> = {};
  for (const m of METHODS) if (hasOptions(m)) fields[m.id] = m.options.default(m.options.parse({}));
  return fields;
}

/** A method's options in a validated suite (its defaults when the suite has no member for it). */
export function suiteMethodOptions(suite: object, m: AgentMethod<string, unknown, unknown>): unknown {
  return (suite as Record<string, unknown>)[m.id] ?? m.options.parse({});
}

export interface MethodListing {
  id: MethodId;
  summary: string;
  /** JSON Schema of the options (in a suite: the member named by the id). */
  options: Record<string, unknown>;
  carriesMemory: boolean;
  aids: AidSlot[];
  /** The backends the method runs on. */
  backends: ('kernel' | 'api')[];
}

/** The registry as GET /v1/methods lists it. */
export function methodListing(): MethodListing[] {
  return METHODS.map((m) => ({
    id: m.id,
    summary: m.summary,
    options: optionsJsonSchema(m),
    carriesMemory: m.memory !== null,
    aids: [...m.aids],
    backends: m.runApi ? ['kernel', 'api'] : ['kernel'],
  }));
}

/** The aid slots, with summaries and option JSON Schemas (for listings). */
export function aidListing(): {
  slot: AidSlot;
  summary: string;
  available: boolean;
  options: Record<string, unknown>;
}[] {
  return Object.values(AID_PROVIDERS).map((p) => ({
    slot: p.slot,
    summary: p.summary,
    available: p.available,
    options: jsonSchemaOf(p.options),
  }));
}
