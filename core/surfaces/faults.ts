/**
 * Fault injection in the manner of WireMock's delays and faults: a surface (or one of its tools) can answer
 * slowly, fail with a 5xx, refuse with 429, or send a corrupted body, so agents can be trained and evaluated
 * against an unreliable API. Faults are off unless configured: an empty config never injects anything.
 *
 * Every decision is a pure function of (seed, sessionId, callIndex, tool): the same session replayed with the same
 * seed meets exactly the same faults, whatever the timing or the order in which sessions interleave. Each aspect
 * draws from its own derived stream, so changing the delay settings does not move which calls fail.
 *
 * Composition and precedence (per call):
 * - Delay composes with everything: `fixedDelayMs` plus a draw from `delayDistribution`, applied before whatever
 *   the call answers, including a 429 or a 5xx (as WireMock delays any stubbed response).
 * - The outcome faults are mutually exclusive and take one uniform draw, split in this order: rate limit (429),
 *   server error (5xx), malformed body, truncated body, then a normal answer. Each therefore happens at exactly
 *   its configured rate, and the rates of one tool's effective config must add up to at most 1.
 * - 429 and 5xx replace the answer: the server sends `response` and should not run the tool (a rejected or failed
 *   request must not change the session's state, e.g. a loaded database). Malformed and truncated bodies run the
 *   tool and corrupt its real body with `applyFaultToBody`.
 * - Per-tool settings override the surface's settings key by key (`serverError`, `rateLimit`, …); a key set to
 *   null on a tool switches that fault off for the tool.
 */
import { z } from 'zod';
import { Rng, type Seed } from '../util/random.ts';

/** Longest delay a config may ask for or a distribution may produce (beyond it a client has long given up). */
export const MAX_DELAY_MS = 120_000;

const Rate = z
  .number()
  .min(0, 'a rate is a probability in [0, 1]')
  .max(1, 'a rate is a probability in [0, 1]');
const DelayMs = z.number().int().min(0).max(MAX_DELAY_MS);

export const DelayDistributionSchema = z.discriminatedUnion('type', [
  /** Uniform over whole milliseconds, both ends included. */
  z
    .strictObject({ type: z.literal('uniform'), minMs: DelayMs, maxMs: DelayMs })
    .refine((d) => d.minMs <= d.maxMs, { message: 'minMs must not exceed maxMs', path: ['maxMs'] }),
  /** Long-tailed like real latency: median · e^(sigma·N(0,1)), capped at maxMs (WireMock's lognormal). */
  z.strictObject({
    type: z.literal('lognormal'),
    medianMs: z.number().positive().max(MAX_DELAY_MS),
    sigma: z.number().min(0).max(4),
    maxMs: DelayMs.optional(),
  }),
  z.strictObject({
    type: z.literal('exponential'),
    meanMs: z.number().positive().max(MAX_DELAY_MS),
    maxMs: DelayMs.optional(),
  }),
]);

const Fraction = z
  .number()
  .gt(0, 'a cut fraction lies strictly between 0 and 1')
  .lt(1, 'a cut fraction lies strictly between 0 and 1');

export const FaultSpecSchema = z.strictObject({
  fixedDelayMs: DelayMs.nullable().optional(),
  delayDistribution: DelayDistributionSchema.nullable().optional(),
  serverError: z
    .strictObject({
      rate: Rate,
      status: z
        .number()
        .int()
        .min(500, 'a server error has a 5xx status')
        .max(599, 'a server error has a 5xx status')
        .default(500),
      body: z.string().default('Internal Server Error'),
    })
    .nullable()
    .optional(),
  rateLimit: z
    .strictObject({
      rate: Rate,
      /** Sent as `Retry-After` (delay-seconds, RFC 9110 §10.2.3). */
      retryAfterSeconds: z.number().int().min(0).default(1),
      body: z.string().default('Too Many Requests'),
    })
    .nullable()
    .optional(),
  malformedBody: z.strictObject({ rate: Rate }).nullable().optional(),
  truncatedBody: z
    .strictObject({
      rate: Rate,
      /** Where the body is cut, as a fraction of its length: fixed, or drawn uniformly per call. */
      fraction: z
        .union([
          Fraction,
          z
            .strictObject({ min: Fraction, max: Fraction })
            .refine((f) => f.min <= f.max, { message: 'min must not exceed max', path: ['max'] }),
        ])
        .default(0.5),
    })
    .nullable()
    .optional(),
});

export type FaultSpec = z.output<typeof FaultSpecSchema>;
export type FaultSpecInput = z.input<typeof FaultSpecSchema>;
export type DelayDistribution = z.output<typeof DelayDistributionSchema>;

const FAULT_KEYS = [
  'fixedDelayMs',
  'delayDistribution',
  'serverError',
  'rateLimit',
  'malformedBody',
  'truncatedBody',
] as const satisfies readonly (keyof FaultSpec)[];

const FaultConfigShape = z.strictObject({
  /** Applies to every tool of the surface. */
  surface: FaultSpecSchema.optional(),
  /** Per exposed tool name; each key given here replaces the surface's. */
  tools: z.record(z.string().min(1), FaultSpecSchema).optional(),
});

export type FaultConfig = z.output<typeof FaultConfigShape>;
export type FaultConfigInput = z.input<typeof FaultConfigShape>;

/** The settings that apply to one tool: the surface's, overridden key by key by the tool's. */
export function effectiveFaultSpec(config: FaultConfig | undefined, tool: string): FaultSpec {
  const base: FaultSpec = config?.surface ?? {};
  const own = config?.tools && Object.hasOwn(config.tools, tool) ? config.tools[tool] : undefined;
  if (!own) return base;
  const merged: Record<string, unknown> = {};
  for (const key of FAULT_KEYS) {
    const value = own[key] !== undefined ? own[key] : base[key];
    if (value !== undefined) merged[key] = value;
  }
  return merged as FaultSpec;
}

const OUTCOME_KEYS = ['rateLimit', 'serverError', 'malformedBody', 'truncatedBody'] as const;

function outcomeRateTotal(spec: FaultSpec): number {
  let total = 0;
  for (const key of OUTCOME_KEYS) {
    const rate = spec[key]?.rate;
    if (typeof rate === 'number') total += rate;
  }
  return total;
}

/** Tolerates the rounding of decimal rates such as 0.1 + 0.2 + 0.7. */
const RATE_EPSILON = 1e-9;

export const FaultConfigSchema = FaultConfigShape.superRefine((config, ctx) => {
  const scopes: [string, (string | number)[]][] = [
    ['the surface', ['surface']],
    ...Object.keys(config.tools ?? {}).map((t): [string, (string | number)[]] => [`tool ${t}`, ['tools', t]]),
  ];
  for (const [label, path] of scopes) {
    const tool = path[0] === 'tools' ? (path[1] as string) : undefined;
    // A tool that sets no outcome rate of its own inherits the surface's total, reported once for the surface.
    if (tool !== undefined && !OUTCOME_KEYS.some((k) => config.tools?.[tool]?.[k] !== undefined)) continue;
    const spec = tool === undefined ? (config.surface ?? {}) : effectiveFaultSpec(config, tool);
    // A rate outside [0, 1] is already reported on its own; a sum over it would only repeat the news.
    const rates = OUTCOME_KEYS.map((k) => spec[k]?.rate ?? 0);
    if (rates.some((r) => typeof r !== 'number' || r < 0 || r > 1)) continue;
    const total = outcomeRateTotal(spec);
    if (total > 1 + RATE_EPSILON) {
      ctx.addIssue({
        code: 'custom',
        path,
        message: `the rates of rateLimit, serverError, malformedBody and truncatedBody for ${label} add up to ${Number(total.toFixed(9))}; they exclude each other, so at most 1`,
      });
    }
  }
});

export type FaultConfigValidation = { ok: true; config: FaultConfig } | { ok: false; problems: string[] };

export function validateFaultConfig(value: unknown): FaultConfigValidation {
  const parsed = FaultConfigSchema.safeParse(value);
  if (parsed.success) return { ok: true, config: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((i) =>
      i.path.length > 0 ? `${i.path.map(String).join('.')}: ${i.message}` : i.message,
    ),
  };
}

export class FaultConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid fault config: ${problems.join('; ')}`);
    this.name = 'FaultConfigError';
  }
}

/** Parses a fault config (absent or `{}`: no faults) or throws a `FaultConfigError` listing every problem. */
export function parseFaultConfig(value: unknown): FaultConfig {
  const result = validateFaultConfig(value ?? {});
  if (result.ok) return result.config;
  throw new FaultConfigError(result.problems);
}

// ---------------------------------------------------------------------------------------------------------------
// Decisions

export type FaultKind = 'delay' | 'rate-limit' | 'server-error' | 'malformed-body' | 'truncated-body';

/** A response sent instead of running the tool. */
export interface FaultResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A corruption of the tool's real body; positions are fractions of its length, known only later. */
export type BodyFault =
  /** `garbage` is spliced in at `at` · length. */
  | { kind: 'malformed'; at: number; garbage: string }
  /** The body is cut after `fraction` · length characters. */
  | { kind: 'truncated'; fraction: number };

export interface FaultDecision {
  /** The faults in effect for this call, delay first. */
  faults: FaultKind[];
  /** Wait this long before answering (0: no delay). */
  delayMs: number;
  response: FaultResponse | null;
  body: BodyFault | null;
}

export interface FaultContext {
  seed: Seed;
  sessionId: string;
  /** Position of the call in its session, from 0. */
  callIndex: number;
  /** The exposed tool name that was called. */
  tool: string;
}

export const NO_FAULTS: Readonly<FaultDecision> = Object.freeze({
  faults: [],
  delayMs: 0,
  response: null,
  body: null,
});

function isQuiet(spec: FaultSpec): boolean {
  return !spec.fixedDelayMs && !spec.delayDistribution && outcomeRateTotal(spec) === 0;
}

function drawDelay(d: DelayDistribution, rng: Rng): number {
  let ms: number;
  switch (d.type) {
    case 'uniform':
      return rng.int(d.minMs, d.maxMs);
    case 'lognormal':
      ms = d.medianMs * Math.exp(d.sigma * rng.normal());
      break;
    case 'exponential':
      ms = rng.exponential(d.meanMs);
      break;
  }
  return Math.round(Math.min(ms, d.maxMs ?? MAX_DELAY_MS, MAX_DELAY_MS));
}

/**
 * Control characters are invalid anywhere in JSON (inside strings they must be escaped), so a splice that starts
 * with one makes any JSON body unparsable; the rest looks like the binary debris of a broken transfer.
 */
const CONTROL = ['\u0000', '\u0001', '\u0008', '\u001b', '\u001f'] as const;
const DEBRIS = [
  '\ufffd',
  '{',
  '}',
  '[',
  ']',
  '"',
  ',',
  ':',
  '\\',
  '<',
  '>',
  '\u0000',
  '\u001b',
  '\u00ff',
  '#',
] as const;

function drawGarbage(rng: Rng): string {
  const length = rng.int(8, 24);
  let out = rng.pick(CONTROL);
  for (let i = 1; i < length; i++) out += rng.pick(DEBRIS);
  return out;
}

/** Decides which faults a call meets. Only (seed, sessionId, callIndex, tool) and the config matter. */
export function decideFaults(config: FaultConfig | undefined, ctx: FaultContext): FaultDecision {
  if (!Number.isInteger(ctx.callIndex) || ctx.callIndex < 0) {
    throw new RangeError(`decideFaults: callIndex must be a non-negative integer, got ${ctx.callIndex}`);
  }
  const spec = effectiveFaultSpec(config, ctx.tool);
  if (isQuiet(spec)) return { ...NO_FAULTS, faults: [] };

  // JSON keeps the label unambiguous whatever characters the session id or tool name contain.
  const call = new Rng(ctx.seed).fork(`faults:${JSON.stringify([ctx.sessionId, ctx.callIndex, ctx.tool])}`);
  const faults: FaultKind[] = [];

  let delayMs = spec.fixedDelayMs ?? 0;
  if (spec.delayDistribution) delayMs += drawDelay(spec.delayDistribution, call.fork('delay'));
  delayMs = Math.min(delayMs, MAX_DELAY_MS);
  if (delayMs > 0) faults.push('delay');

  let response: FaultResponse | null = null;
  let body: BodyFault | null = null;
  let u = call.fork('outcome').next();
  const falls = (rate: number | undefined) => {
    if (rate === undefined || rate <= 0) return false;
    if (u < rate) return true;
    u -= rate;
    return false;
  };
  if (spec.rateLimit && falls(spec.rateLimit.rate)) {
    faults.push('rate-limit');
    response = {
      status: 429,
      headers: { 'Retry-After': String(spec.rateLimit.retryAfterSeconds) },
      body: spec.rateLimit.body,
    };
  } else if (spec.serverError && falls(spec.serverError.rate)) {
    faults.push('server-error');
    response = { status: spec.serverError.status, headers: {}, body: spec.serverError.body };
  } else if (spec.malformedBody && falls(spec.malformedBody.rate)) {
    faults.push('malformed-body');
    const rng = call.fork('malformed');
    body = { kind: 'malformed', at: rng.next(), garbage: drawGarbage(rng) };
  } else if (spec.truncatedBody && falls(spec.truncatedBody.rate)) {
    faults.push('truncated-body');
    const f = spec.truncatedBody.fraction;
    body = {
      kind: 'truncated',
      fraction: typeof f === 'number' ? f : call.fork('truncated').float(f.min, f.max),
    };
  }
  return { faults, delayMs, response, body };
}

/** A cut position that does not split a surrogate pair. */
function cutAt(body: string, fraction: number): number {
  let cut = Math.floor(fraction * body.length);
  const before = body.charCodeAt(cut - 1);
  if (cut > 0 && cut < body.length && before >= 0xd800 && before <= 0xdbff) cut -= 1;
  return cut;
}

/**
 * The tool's body as the faulty server sends it: with garbage spliced in (malformed) or cut short (truncated);
 * unchanged when the decision has no body fault. A Worker cannot drop a connection mid-body, so a truncated
 * response is delivered as a complete, shorter body.
 */
export function applyFaultToBody(decision: FaultDecision, body: string): string {
  const fault = decision.body;
  if (!fault) return body;
  if (fault.kind === 'truncated') return body.slice(0, cutAt(body, fault.fraction));
  const at = cutAt(body, fault.at);
  return body.slice(0, at) + fault.garbage + body.slice(at);
}
