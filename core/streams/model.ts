/**
 * What a drift stream is (issue 26 item 1): a named, seeded sequence of releases of one API — the kernel's tools
 * or an imported API — where release n is derived from release n−1 by the existing drift generators, a chosen
 * number of changes per kind per release. Plain values (stored in D1, sent over HTTP); the derivation lives in
 * `release.ts`, the clock side (cadence, deprecation windows, the release in force) in `timeline.ts`.
 */
import { z } from 'zod';
import { API_DRIFT_KINDS } from '../apis/drift/kinds/index.ts';
import type { ApiSurface } from '../apis/surface/model.ts';
import type { ApiCatalog } from '../apis/types.ts';
import { DRIFT_KINDS } from '../surfaces/drift/kinds/index.ts';
import type { Surface } from '../surfaces/model.ts';
import { cronExpression } from '../util/cron.ts';

/** Most changes one kind may make in one release. */
export const MAX_INTENSITY = 20;

/**
 * Changes per release by drift kind, in the generators' own vocabulary: `{"rename-tool": 2, "rename-params": 1}`
 * is "2 tools renamed and 1 tool's parameters renamed per release". Kernel streams take the kinds of
 * `core/surfaces/drift` (`DRIFT_KINDS`), API streams those of `core/apis/drift` (`API_DRIFT_KINDS`). A kind that
 * changes the whole surface at once (the response format: `wrap-response`, `reshape-response`) counts as one
 * change.
 */
export const IntensitySchema = z
  .record(z.string().min(1).max(64), z.number().int().min(1).max(MAX_INTENSITY))
  .refine((r) => Object.keys(r).length > 0, { message: 'name at least one drift kind' });
export type Intensity = z.infer<typeof IntensitySchema>;

/**
 * When the stream releases: a five-field UTC cron expression (`0 9 * * 1`, Mondays at 09:00) or a fixed
 * interval in seconds counted from the stream's creation (at least a minute: the cron tick's granularity is
 * five minutes, so shorter intervals release once per tick).
 */
export const CadenceSchema = z.union([
  z.strictObject({ cron: cronExpression() }),
  z.strictObject({
    everySeconds: z
      .number()
      .int()
      .min(60)
      .max(366 * 24 * 3600),
  }),
]);
export type Cadence = z.infer<typeof CadenceSchema>;

/**
 * How long a name a release drops keeps working (deprecated, with RFC 9745 `Deprecation` and RFC 8594 `Sunset`
 * headers) before it answers 410 naming its successor: for `releases` releases of the cadence (the sunset is the
 * cadence's k-th due time after the release) or for `seconds`. Zero retires dropped names at once (ToolQA-D's
 * behaviour).
 */
export const WindowSchema = z.union([
  z.strictObject({ releases: z.number().int().min(0).max(52) }),
  z.strictObject({
    seconds: z
      .number()
      .int()
      .min(0)
      .max(366 * 24 * 3600),
  }),
]);
export type DeprecationWindow = z.infer<typeof WindowSchema>;

/** `kernel`, or `api:<id>` for an imported API. */
export type StreamBackendRef = { kind: 'kernel' } | { kind: 'api'; api: string };

export function parseBackendRef(text: string): StreamBackendRef | null {
  if (text === 'kernel') return { kind: 'kernel' };
  const m = /^api:([A-Za-z0-9][A-Za-z0-9_.-]{0,99})$/.exec(text);
  return m ? { kind: 'api', api: m[1] as string } : null;
}

export function backendRefText(ref: StreamBackendRef): string {
  return ref.kind === 'kernel' ? 'kernel' : `api:${ref.api}`;
}

/** The kinds a backend's generator knows. */
export function streamKinds(ref: StreamBackendRef): readonly string[] {
  return ref.kind === 'kernel' ? DRIFT_KINDS : API_DRIFT_KINDS;
}

/** Problems of an intensity for a backend: each unknown kind, named with the known ones. */
export function intensityProblems(
  ref: StreamBackendRef,
  intensity: Intensity,
): { kind: string; message: string }[] {
  const known = streamKinds(ref);
  return Object.keys(intensity)
    .filter((k) => !known.includes(k))
    .map((k) => ({
      kind: k,
      message: `unknown ${ref.kind === 'kernel' ? 'kernel' : 'API'} drift kind ${JSON.stringify(k)}; known: ${known.join(', ')}`,
    }));
}

/** What the derivation needs: everything that decides a stream's releases, and nothing about time. */
export interface StreamSpec {
  /** The stream's id; release surfaces are named `stream-{id}-r{n}` (release 0 is the base surface itself). */
  id: string;
  seed: string;
  intensity: Intensity;
}

/** The backend a stream drifts: the kernel's tools from a base surface, or an imported API with its catalog. */
export type StreamBase =
  | { kind: 'kernel'; base: Surface }
  | { kind: 'api'; base: ApiSurface; catalog: ApiCatalog };

export type ReleaseSurface = Surface | ApiSurface;

/** One name a release no longer serves, and what replaces it. */
export interface DroppedName {
  name: string;
  /** The route of an API tool (`GET /movie/{movie_id}`), when it had one. */
  route?: string;
  /** The kernel tool or API operation behind it. */
  target: string;
  /** The tool serving the same target in the release (null: none). */
  successor: string | null;
}

/** A release against the previous one, in one shape for both backends. */
export interface ReleaseDiff {
  /** Kernel tools or operations whose tool changed (name, route, parameters, paging, lifecycle). */
  changed: { target: string; from: string | null; to: string | null }[];
  /** Names served now that the previous release did not serve. */
  added: string[];
  /** Names (or routes) served by the previous release that this one drops: deprecated, then gone. */
  retired: DroppedName[];
  /** The response format changed. */
  response: boolean;
  /** The kinds that made changes, with how many. */
  applied: Record<string, number>;
  /** The backend's full diff (`describeDrift` or `describeApiDrift`). */
  detail: unknown;
}

export interface Release {
  n: number;
  surface: ReleaseSurface;
  /** Null for release 0. */
  diff: ReleaseDiff | null;
}

export function releaseSurfaceId(streamId: string, n: number, base: ReleaseSurface): string {
  return n === 0 ? base.id : `stream-${streamId}-r${n}`;
}
