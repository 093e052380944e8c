/**
 * A stream over time: when releases are due (the cadence), when the names a release drops are sunset (the
 * deprecation window), which release is in force at an instant, and what is deprecated or gone then. The
 * lifecycle is not a second set of rules: a stream's released surfaces are the stages of a drift schedule
 * (`core/surfaces/schedule.ts`: stage k in force from release k's time, the names it drops deprecated until its
 * `sunsetAt`, then retired naming the successor), resolved by the kernel's `resolveSchedule` or the API's
 * `resolveApiSchedule` — exactly what a session given that schedule serves over REST, ReAct, MCP and HTTP.
 */

import type { ApiRetired, ApiSurface } from '../apis/surface/model.ts';
import { resolveApiSchedule } from '../apis/surface/schedule.ts';
import type { Lifecycle, RetiredName, Surface } from '../surfaces/model.ts';
import { resolveSchedule, type Schedule } from '../surfaces/schedule.ts';
import { nextDue } from '../util/cron.ts';
import type { Cadence, DeprecationWindow, ReleaseSurface } from './model.ts';

/** When a stored release happened and when the names it dropped stop working. */
export interface ReleaseTimes {
  n: number;
  surfaceId: string;
  /** ms since the epoch; strictly increasing with n. */
  releasedAt: number;
  /** ms; null for release 0 and for a zero window (dropped names retire at once). */
  sunsetAt: number | null;
}

/** The first due time strictly after `after` (ms); `anchor` is where an interval cadence counts from. */
export function nextDueAfter(cadence: Cadence, anchor: number, after: number): number | null {
  if ('cron' in cadence) return nextDue(cadence.cron, after);
  const every = cadence.everySeconds * 1000;
  if (after < anchor) return anchor + every;
  return anchor + (Math.floor((after - anchor) / every) + 1) * every;
}

/**
 * The sunset of the names dropped by a release made at `releasedAt`: `seconds` after it, or the cadence's
 * `releases`-th due time after it (the release that many steps later, were the stream advanced only by its
 * cadence: a promised sunset is kept even when someone advances the stream by hand sooner). Null for a zero
 * window.
 */
export function sunsetFor(
  window: DeprecationWindow,
  cadence: Cadence,
  anchor: number,
  releasedAt: number,
): number | null {
  if ('seconds' in window) return window.seconds === 0 ? null : releasedAt + window.seconds * 1000;
  let t = releasedAt;
  for (let k = 0; k < window.releases; k++) {
    const next = nextDueAfter(cadence, anchor, t);
    if (next === null) return null;
    t = next;
  }
  return window.releases === 0 ? null : t;
}

/** The number of the release in force at `t`: the latest released at or before `t` (release 0 before any). */
export function releaseInForce(releases: readonly ReleaseTimes[], t: number): number {
  let n = 0;
  for (const r of releases) if (r.releasedAt <= t && r.n > n) n = r.n;
  return n;
}

/**
 * The drift schedule of releases 0…`upTo` (default: all): the schedule a session naming `stream:<id>` (upTo =
 * the release in force) or `stream:<id>@<n>` plays.
 */
export function streamSchedule(streamId: string, releases: readonly ReleaseTimes[], upTo?: number): Schedule {
  const sorted = [...releases].sort((a, b) => a.n - b.n).filter((r) => upTo === undefined || r.n <= upTo);
  return {
    id: `stream-${streamId}${upTo === undefined ? '' : `-at-${upTo}`}`,
    stages: sorted.map((r, k) => ({
      surface: r.surfaceId,
      effectiveFrom: new Date(r.releasedAt).toISOString(),
      ...(k > 0 && r.sunsetAt !== null ? { sunsetAt: new Date(r.sunsetAt).toISOString() } : {}),
    })),
  };
}

export interface StreamLifecycle {
  /** The release whose surface is served. */
  release: number;
  /** Names served but deprecated (RFC 9745 `Deprecation` / RFC 8594 `Sunset` headers), with their successor. */
  deprecated: {
    name: string;
    successor: string | null;
    deprecatedAt: string | null;
    sunsetAt: string | null;
  }[];
  /** Names (or routes) that answer 410 / the deprecation message, naming the successor. */
  gone: { name?: string; route?: string; successor: string; message: string }[];
  /** When this changes next (a release's window closes or a later release takes over); null: never. */
  nextChangeAt: string | null;
}

/**
 * What is deprecated and gone at `t` when releases 0…`upTo` are served (the schedule resolved at `t`); the
 * surfaces are the stored releases by id.
 */
export function lifecycleAt(
  streamId: string,
  releases: readonly ReleaseTimes[],
  surfaces: ReadonlyMap<string, ReleaseSurface>,
  t: number,
  upTo?: number,
): StreamLifecycle {
  const schedule = streamSchedule(streamId, releases, upTo);
  const first = surfaces.get(schedule.stages[0]?.surface ?? '');
  const now = new Date(t);
  const resolved =
    first && 'backend' in first
      ? resolveApiSchedule(schedule, surfaces as ReadonlyMap<string, ApiSurface>, now)
      : resolveSchedule(schedule, surfaces as ReadonlyMap<string, Surface>, now);
  const tools: readonly { name: string; lifecycle: Lifecycle }[] = resolved.current.tools;
  const retired: readonly (RetiredName | ApiRetired)[] = resolved.current.retired;
  return {
    release: releases.find((r) => r.surfaceId === schedule.stages[resolved.stageIndex]?.surface)?.n ?? 0,
    deprecated: tools
      .filter((tool) => tool.lifecycle.status === 'deprecated')
      .map((tool) => ({
        name: tool.name,
        successor: tool.lifecycle.successor ?? null,
        deprecatedAt: tool.lifecycle.deprecatedAt ?? null,
        sunsetAt: tool.lifecycle.sunsetAt ?? null,
      })),
    gone: retired.map((r) => {
      const route =
        'method' in r && r.method !== undefined && r.path !== undefined
          ? `${r.method.toUpperCase()} ${r.path}`
          : undefined;
      return {
        ...(r.name !== undefined ? { name: r.name } : {}),
        ...(route !== undefined ? { route } : {}),
        successor: r.successor,
        message: r.message,
      };
    }),
    nextChangeAt: resolved.nextChangeAt?.toISOString() ?? null,
  };
}

/** A `stream:<id>` or `stream:<id>@<n>` surface name; null when the text is not one. */
export function parseStreamRef(text: string): { stream: string; release: number | null } | null {
  const m = /^stream:([a-z0-9][a-z0-9-]{0,63})(?:@(0|[1-9][0-9]{0,5}))?$/.exec(text);
  if (!m) return null;
  return { stream: m[1] as string, release: m[2] === undefined ? null : Number(m[2]) };
}
