/**
 * Drift over time: a schedule says which surface is in force when, and how long the names a new surface drops
 * keep working. ToolQA-D switches surfaces at once (an old name answers with its deprecation message from the
 * first call, spec §4.1); tooldrift adds the deprecation window that real APIs announce before they remove a
 * name, and the HTTP headers that announce it (RFC 9745 `Deprecation`, RFC 8594 `Sunset`, `Link`).
 *
 * Semantics of a schedule with stages 0…n (dates strictly increasing):
 * - Stage k is in force from its `effectiveFrom` (inclusive) until stage k+1's. Before the first stage's date the
 *   first stage is served: a schedule always resolves to some surface.
 * - When stage k (k ≥ 1) takes over, every name of stage k−1 that stage k does not serve is *deprecated*: it keeps
 *   working as before, marked `deprecated` with `deprecatedAt` = stage k's `effectiveFrom`, until stage k's
 *   `sunsetAt` (exclusive). From then on it is *sunset*: calling it answers with a deprecation message naming its
 *   successor (written by signature.ts, as the adapter writes it for a tool past its `sunsetAt`). A stage without
 *   `sunsetAt` retires the dropped names at once (ToolQA-D's behaviour).
 * - A promised sunset is kept even if a later stage takes over first: a name dropped at stage k works until stage
 *   k's `sunsetAt`, whatever the current stage.
 * - A successor is the current surface's first tool for the same kernel tool, so after several stages every old
 *   name points at today's name. A dropped name whose kernel tool the current surface no longer offers has no
 *   successor: it works without one during its window and afterwards is simply unknown (invalid action).
 * - Retired entries the current surface already carries (the built-in surfaces hold the exact spec §4.6 messages)
 *   are kept as they are, except that a name inside its deprecation window works instead of being retired.
 *
 * Everything takes the time explicitly (`now`); `Clock` lets a server or a test choose where it comes from.
 *
 * The rules are written once (`resolveStagesWith`) over a small model of a surface kind: `resolveSchedule`
 * applies them to the kernel's surfaces (a tool is its name, its target the kernel tool); imported APIs' surfaces
 * (`core/apis/surface/schedule.ts`) use the same rules with a tool identified by its name and route and targeting
 * an API operation.
 *
 * Deliberate differences from ToolQA-D:
 * - A stage with `sunsetAt` keeps the dropped names working until then (marked deprecated); ToolQA-D answers an
 *   old name with its deprecation message from the first call, which is what a stage without `sunsetAt` does.
 */
import { z } from 'zod';
import type { Lifecycle, RetiredName, Surface, SurfaceTool } from './model.ts';
import { deprecationMessage } from './signature.ts';

// ---------------------------------------------------------------------------------------------------------------
// Clock

/** Where the current time comes from. */
export interface Clock {
  now(): Date;
}

/** The real time. */
export const systemClock: Clock = { now: () => new Date() };

/** Always the same instant. */
export function fixedClock(at: Date | string): Clock {
  const ms = toInstant(at, 'fixedClock');
  return { now: () => new Date(ms) };
}

/** A clock that moves only when told to (tests, simulations, replays). */
export interface ManualClock extends Clock {
  /** Moves the clock forward (or back, with a negative amount) by `ms` milliseconds. */
  advance(ms: number): void;
  set(at: Date | string): void;
}

export function manualClock(start: Date | string): ManualClock {
  let ms = toInstant(start, 'manualClock');
  return {
    now: () => new Date(ms),
    advance(delta: number) {
      if (!Number.isFinite(delta))
        throw new RangeError(`manualClock.advance: ${delta} is not a finite number`);
      ms += delta;
    },
    set(at: Date | string) {
      ms = toInstant(at, 'manualClock.set');
    },
  };
}

function toInstant(at: Date | string, what: string): number {
  const ms = typeof at === 'string' ? Date.parse(at) : at.getTime();
  if (Number.isNaN(ms)) throw new RangeError(`${what}: invalid date ${String(at)}`);
  return ms;
}

// ---------------------------------------------------------------------------------------------------------------
// Schedule schema and validation

/** A calendar date (`2026-03-01`, midnight UTC) or a timestamp with `Z` or an offset; local times are ambiguous. */
const Instant = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: 'expected an ISO 8601 date (2026-03-01) or a timestamp with a time zone (2026-03-01T12:00:00Z)',
});

export const ScheduleStageSchema = z.strictObject({
  /** Id of the surface in force from `effectiveFrom`. */
  surface: z.string().min(1),
  effectiveFrom: Instant,
  /** When the names this stage drops from the previous one stop working; absent: at once. */
  sunsetAt: Instant.optional(),
});

const ScheduleShape = z.strictObject({
  id: z.string().min(1),
  // Emptiness is reported by scheduleOrderProblems, which resolveSchedule also runs.
  stages: z.array(ScheduleStageSchema),
});

export type ScheduleStage = z.infer<typeof ScheduleStageSchema>;
export type Schedule = z.infer<typeof ScheduleShape>;

/** Problems with the order of a schedule's dates and stages; empty when it is consistent. */
export function scheduleOrderProblems(schedule: Schedule): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  if (schedule.stages.length === 0)
    problems.push({ path: ['stages'], message: 'a schedule needs at least one stage' });
  schedule.stages.forEach((stage, k) => {
    const from = Date.parse(stage.effectiveFrom);
    const prev = schedule.stages[k - 1];
    if (k === 0 && stage.sunsetAt !== undefined) {
      problems.push({
        path: ['stages', 0, 'sunsetAt'],
        message: 'the first stage has no previous surface whose names could be sunset; remove sunsetAt',
      });
    }
    if (prev) {
      if (!(from > Date.parse(prev.effectiveFrom))) {
        problems.push({
          path: ['stages', k, 'effectiveFrom'],
          message: `must be after stages[${k - 1}].effectiveFrom (${prev.effectiveFrom}), got ${stage.effectiveFrom}`,
        });
      }
      if (stage.surface === prev.surface) {
        problems.push({
          path: ['stages', k, 'surface'],
          message: `repeats the surface of stages[${k - 1}] (${stage.surface}); a stage must change the surface`,
        });
      }
    }
    if (k > 0 && stage.sunsetAt !== undefined && !(Date.parse(stage.sunsetAt) > from)) {
      problems.push({
        path: ['stages', k, 'sunsetAt'],
        message: `must be after its deprecation date (effectiveFrom ${stage.effectiveFrom}), got ${stage.sunsetAt}`,
      });
    }
  });
  return problems;
}

/** The published schema of a schedule: shape plus ordering. */
export const ScheduleSchema = ScheduleShape.superRefine((schedule, ctx) => {
  for (const p of scheduleOrderProblems(schedule))
    ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
});

export class ScheduleError extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [message],
  ) {
    super(message);
    this.name = 'ScheduleError';
  }
}

/** `stages[1].sunsetAt: must be after …` — one line per problem. */
function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string[] {
  return issues.map((i) => {
    const path = i.path
      .map((p, n) => (typeof p === 'number' ? `[${p}]` : `${n === 0 ? '' : '.'}${String(p)}`))
      .join('');
    return path ? `${path}: ${i.message}` : i.message;
  });
}

export type ScheduleValidation = { ok: true; schedule: Schedule } | { ok: false; problems: string[] };

export function validateSchedule(value: unknown): ScheduleValidation {
  const parsed = ScheduleSchema.safeParse(value);
  if (parsed.success) return { ok: true, schedule: parsed.data };
  return { ok: false, problems: describeIssues(parsed.error.issues) };
}

/** Parses a schedule or throws a `ScheduleError` listing every problem. */
export function parseSchedule(value: unknown): Schedule {
  const result = validateSchedule(value);
  if (result.ok) return result.schedule;
  throw new ScheduleError(`invalid schedule: ${result.problems.join('; ')}`, result.problems);
}

// ---------------------------------------------------------------------------------------------------------------
// Resolution

export type SurfaceLookup = ReadonlyMap<string, Surface> | Readonly<Record<string, Surface>>;

export interface ResolvedSchedule {
  /**
   * The surface in force: the current stage's surface, plus the names still inside a deprecation window (as
   * tools with lifecycle `deprecated`), plus the names past their sunset in `retired`.
   */
  current: Surface;
  stageIndex: number;
  /**
   * The next instant at which `current` changes (a stage takes over or a window closes), or null when it never
   * will: the moment to send `notifications/tools/list_changed`.
   */
  nextChangeAt: Date | null;
}

function lookup(surfaces: SurfaceLookup, id: string): Surface | undefined {
  if (surfaces instanceof Map) return surfaces.get(id);
  const record = surfaces as Readonly<Record<string, Surface>>;
  return Object.hasOwn(record, id) ? record[id] : undefined;
}

/**
 * What the schedule resolution needs to know about one kind of surface (the kernel's `Surface`, an imported
 * API's `ApiSurface`): its tools and retired entries, how a tool is identified, which backend target it serves
 * (the kernel tool, the API operation: a dropped tool's successor is the current surface's first tool for the
 * same target), and how a dropped tool is retired. The rules (`resolveStagesWith`) are the same for every kind.
 */
export interface StagedSurfaceModel<S, T extends { name: string; lifecycle: Lifecycle }, R> {
  tools(surface: S): readonly T[];
  retired(surface: S): readonly R[];
  /** What makes a tool the same tool on two stages (the kernel: its name; an API: its name and route). */
  toolKey(tool: T): string;
  /** The backend target a tool serves (successors serve the same one). */
  target(tool: T): string;
  /** Whether a working tool (served or in its window) takes the place of a retired entry of the surface. */
  replaces(tool: T, entry: R): boolean;
  /** What distinguishes two retired entries (the current surface's own entries win over new ones). */
  retiredKey(entry: R): string;
  /**
   * The entry that answers for `old` after its sunset, pointing at `successor`; null when the current surface
   * already serves everything `old` was called by (an API tool whose name and route other tools took over).
   */
  retire(old: T, successor: T, sunsetAt: Date, current: S): R | null;
  /** The surface in force: `current` with these tools and retired entries. */
  with(current: S, tools: T[], retired: R[]): S;
}

/** Resolution with the schedule semantics of the module header, for any kind of surface. */
export function resolveStagesWith<S, T extends { name: string; lifecycle: Lifecycle }, R>(
  model: StagedSurfaceModel<S, T, R>,
  schedule: Schedule,
  lookupSurface: (id: string) => S | undefined,
  now: Date,
): { current: S; stageIndex: number; nextChangeAt: Date | null } {
  const problems = scheduleOrderProblems(schedule);
  if (problems.length > 0) {
    const lines = describeIssues(problems);
    throw new ScheduleError(`invalid schedule ${schedule.id}: ${lines.join('; ')}`, lines);
  }
  const at = now.getTime();
  if (Number.isNaN(at)) throw new RangeError('resolveSchedule: now is an invalid date');

  const surfaces = schedule.stages.map((stage, k) => {
    const surface = lookupSurface(stage.surface);
    if (!surface)
      throw new ScheduleError(`schedule ${schedule.id}: stages[${k}] names unknown surface ${stage.surface}`);
    return surface;
  });

  let c = 0;
  for (let k = 1; k < schedule.stages.length; k++) {
    if (Date.parse((schedule.stages[k] as ScheduleStage).effectiveFrom) <= at) c = k;
  }
  const base = surfaces[c] as S;
  const baseTools = model.tools(base);
  const served = new Set(baseTools.map(model.toolKey));
  const successorOf = (tool: T) => baseTools.find((t) => model.target(t) === model.target(tool));

  const handled = new Set<string>();
  const deprecated: T[] = [];
  const retired: R[] = [];
  let nextChange = Number.POSITIVE_INFINITY;
  const following = schedule.stages[c + 1];
  if (following) nextChange = Date.parse(following.effectiveFrom);

  // Latest transition first: a name dropped more than once takes its most recent window.
  for (let k = c; k >= 1; k--) {
    const stage = schedule.stages[k] as ScheduleStage;
    const kept = new Set(model.tools(surfaces[k] as S).map(model.toolKey));
    const deprecatedAt = Date.parse(stage.effectiveFrom);
    const sunsetAt = stage.sunsetAt === undefined ? deprecatedAt : Date.parse(stage.sunsetAt);
    for (const old of model.tools(surfaces[k - 1] as S)) {
      const key = model.toolKey(old);
      if (kept.has(key) || served.has(key) || handled.has(key)) continue;
      handled.add(key);
      const successor = successorOf(old);
      if (at < sunsetAt) {
        nextChange = Math.min(nextChange, sunsetAt);
        deprecated.push({
          ...old,
          lifecycle: {
            status: 'deprecated',
            deprecatedAt: new Date(deprecatedAt).toISOString(),
            sunsetAt: new Date(sunsetAt).toISOString(),
            ...(successor ? { successor: successor.name } : {}),
          },
        });
      } else if (successor) {
        const entry = model.retire(old, successor, new Date(sunsetAt), base);
        if (entry !== null) retired.push(entry);
      }
    }
  }

  const working = [...baseTools, ...deprecated];
  const own = model.retired(base).filter((r) => !working.some((t) => model.replaces(t, r)));
  const ownKeys = new Set(own.map(model.retiredKey));
  const current = model.with(
    base,
    [...baseTools, ...deprecated],
    [...own, ...retired.filter((r) => !ownKeys.has(model.retiredKey(r)))],
  );
  return {
    current,
    stageIndex: c,
    nextChangeAt: Number.isFinite(nextChange) ? new Date(nextChange) : null,
  };
}

/** The kernel's surfaces: tools are their names, a dropped name retires with the §4.6-style message. */
const KERNEL_STAGES: StagedSurfaceModel<Surface, SurfaceTool, RetiredName> = {
  tools: (s) => s.tools,
  retired: (s) => s.retired,
  toolKey: (t) => t.name,
  target: (t) => t.kernel,
  replaces: (t, r) => t.name === r.name,
  retiredKey: (r) => r.name,
  retire: (old, successor) => ({
    name: old.name,
    kernel: old.kernel,
    message: deprecationMessage(old, successor),
    successor: successor.name,
  }),
  with: (current, tools, retired) => ({ ...current, tools, retired }),
};

export function resolveSchedule(
  schedule: Schedule,
  surfacesById: SurfaceLookup,
  now: Date,
): ResolvedSchedule {
  return resolveStagesWith(KERNEL_STAGES, schedule, (id) => lookup(surfacesById, id), now);
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP headers

/** RFC 9745 `Deprecation`: a Structured Field Date, `@` and whole seconds since the epoch (`@1772323200`). */
export function deprecationHeaderValue(at: Date | string): string {
  return `@${Math.floor(toInstant(at, 'deprecationHeaderValue') / 1000)}`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/**
 * RFC 8594 `Sunset`: an HTTP-date in IMF-fixdate form (RFC 9110 §5.6.7), `Sun, 01 Mar 2026 00:00:00 GMT`.
 * Written out rather than taken from `toUTCString`, whose year formatting outside 0000–9999 is not IMF-fixdate.
 */
export function sunsetHeaderValue(at: Date | string): string {
  const d = new Date(toInstant(at, 'sunsetHeaderValue'));
  const year = d.getUTCFullYear();
  if (year < 0 || year > 9999)
    throw new RangeError(`sunsetHeaderValue: year ${year} has no IMF-fixdate form`);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${WEEKDAYS[d.getUTCDay()]}, ${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${String(year).padStart(4, '0')} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} GMT`
  );
}

/** Characters a URI-reference may not contain, which would also break the `<…>` of a Link value. */
const NOT_URI = /[\s<>"{}|\\^`\u0000-\u001f\u007f]/;

function linkTarget(url: string, rel: string): string {
  if (url === '' || NOT_URI.test(url))
    throw new RangeError(`Link ${rel}: not a URI reference: ${JSON.stringify(url)}`);
  return `<${url}>; rel="${rel}"`;
}

/**
 * An RFC 8288 `Link` value: `rel="successor-version"` (RFC 5829) to the replacing tool and `rel="deprecation"`
 * (RFC 9745) to human-readable documentation of the deprecation. Either may be left out; empty when both are.
 */
export function deprecationLinkHeaderValue(links: { successor?: string; docs?: string }): string {
  const parts: string[] = [];
  if (links.successor !== undefined) parts.push(linkTarget(links.successor, 'successor-version'));
  if (links.docs !== undefined) parts.push(linkTarget(links.docs, 'deprecation'));
  return parts.join(', ');
}

/** URL builders for the Link header: where a tool is documented, by name. */
export interface DeprecationUrls {
  /** The documentation of a tool (used for the successor). */
  toolUrl?: (toolName: string) => string;
  /** The page explaining a tool's deprecation and migration. */
  deprecationUrl?: (toolName: string) => string;
}

/**
 * The headers that go with a response of a deprecated tool: `Deprecation`, `Sunset` and `Link`. Empty for a tool
 * that is not deprecated.
 */
export function deprecationHeaders(tool: SurfaceTool, urls: DeprecationUrls = {}): Record<string, string> {
  const life = tool.lifecycle;
  if (life.status !== 'deprecated' || life.deprecatedAt === undefined) return {};
  const headers: Record<string, string> = { Deprecation: deprecationHeaderValue(life.deprecatedAt) };
  if (life.sunsetAt !== undefined) headers.Sunset = sunsetHeaderValue(life.sunsetAt);
  const link = deprecationLinkHeaderValue({
    ...(life.successor !== undefined && urls.toolUrl ? { successor: urls.toolUrl(life.successor) } : {}),
    ...(urls.deprecationUrl ? { docs: urls.deprecationUrl(tool.name) } : {}),
  });
  if (link) headers.Link = link;
  return headers;
}
