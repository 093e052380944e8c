/**
 * Drift over time for API surfaces: the kernel's schedule rules (core/surfaces/schedule.ts — stages, deprecation
 * windows, promised sunsets, successors from the current surface) applied to `ApiSurface`s, and the RFC 9745 /
 * RFC 8594 / RFC 8288 headers of a deprecated tool's answers.
 *
 * What differs from the kernel's surfaces is only what a tool *is*: an API tool is its name and its route, so a
 * stage that keeps a name but moves its route (or keeps the route under a new name) drops the old tool; during
 * the window the old tool keeps working at its old name and route (deprecated), after the sunset the name
 * and/or route it no longer shares with a served tool answers 410, with a message naming the successor's call
 * and route and the day it was removed. A successor is the current surface's tool for the same operation.
 */
import type { DeprecationNotice } from '../../surfaces/adapter.ts';
import {
  deprecationHeaderValue,
  deprecationLinkHeaderValue,
  resolveStagesWith,
  type Schedule,
  ScheduleError,
  type StagedSurfaceModel,
  sunsetHeaderValue,
} from '../../surfaces/schedule.ts';
import type { ApiRetired, ApiSurface, ApiTool } from './model.ts';
import { routeShape } from './route.ts';
import { retiredMessage } from './tools.ts';

function routeOf(t: { method?: string; path?: string }): string {
  return t.method !== undefined && t.path !== undefined ? `${t.method} ${routeShape(t.path)}` : '';
}

const API_STAGES: StagedSurfaceModel<ApiSurface, ApiTool, ApiRetired> = {
  tools: (s) => s.tools,
  retired: (s) => s.retired,
  toolKey: (t) => `${t.name}\u0000${routeOf(t)}`,
  target: (t) => t.operation,
  replaces: (t, r) =>
    (r.name !== undefined && r.name === t.name) || (routeOf(r) !== '' && routeOf(r) === routeOf(t)),
  retiredKey: (r) => `${r.name ?? ''}\u0000${routeOf(r)}`,
  retire(old, successor, sunsetAt, current) {
    const nameServed = current.tools.some((t) => t.name === old.name);
    const routeServed = routeOf(old) === '' || current.tools.some((t) => routeOf(t) === routeOf(old));
    if (nameServed && routeServed) return null;
    const entry: ApiRetired = {
      operation: old.operation,
      successor: successor.name,
      message: retiredMessage(old, successor, sunsetAt),
    };
    if (!nameServed) entry.name = old.name;
    if (!routeServed) {
      entry.method = old.method;
      entry.path = old.path;
    }
    return entry;
  },
  with: (current, tools, retired) => ({ ...current, tools, retired }),
};

/**
 * The API surface in force at `now` under a schedule (stages name API surfaces of one API, else a
 * `ScheduleError`; an unknown surface or disordered dates are one too): the current
 * stage's surface plus the dropped tools still inside their window (deprecated) and the retired entries of the
 * ones past their sunset; `nextChangeAt` is when that changes next (the moment for MCP `list_changed`).
 */
export function resolveApiSchedule(
  schedule: Schedule,
  surfaces: Readonly<Record<string, ApiSurface>> | ReadonlyMap<string, ApiSurface>,
  now: Date,
): { current: ApiSurface; stageIndex: number; nextChangeAt: Date | null } {
  const lookup = (id: string) =>
    surfaces instanceof Map
      ? surfaces.get(id)
      : Object.hasOwn(surfaces, id)
        ? (surfaces as Record<string, ApiSurface>)[id]
        : undefined;
  const apis = new Set(schedule.stages.map((s) => lookup(s.surface)?.api).filter((a) => a !== undefined));
  if (apis.size > 1) {
    throw new ScheduleError(
      `schedule ${schedule.id}: its stages are surfaces of different APIs (${[...apis].join(', ')})`,
    );
  }
  return resolveStagesWith(API_STAGES, schedule, lookup, now);
}

/**
 * The headers of an answer of a deprecated (or sunset, or retired) tool: `Deprecation` (RFC 9745, when the
 * notice has a date), `Sunset` (RFC 8594, when it has one) and `Link` to the successor (`successor-version`) and
 * the deprecation's documentation (`deprecation`) when given.
 */
export function apiDeprecationHeaders(
  notice: DeprecationNotice,
  links: { successor?: string; docs?: string } = {},
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (notice.deprecatedAt !== undefined) headers.Deprecation = deprecationHeaderValue(notice.deprecatedAt);
  if (notice.sunsetAt !== undefined) headers.Sunset = sunsetHeaderValue(notice.sunsetAt);
  const link = deprecationLinkHeaderValue(links);
  if (link) headers.Link = link;
  return headers;
}
