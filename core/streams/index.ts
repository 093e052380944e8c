/**
 * Drift streams (issue 26 item 1): a named, seeded sequence of releases of one API. See README.md.
 *
 * - `model.ts` — the stream's spec and settings (intensity per kind, cadence, deprecation window), a release, its
 *   diff in one shape for both backends.
 * - `backends.ts` — the kernel's and imported APIs' surfaces as release models (draft, units, compose, diff).
 * - `release.ts` — `nextRelease`, `releasesUpTo`, `releaseAt`: the derivation, pure and seeded.
 * - `timeline.ts` — cadence, sunsets, the release in force at t, the drift schedule of a stream and what is
 *   deprecated or gone at t.
 */
export { RESPONSE_UNIT } from './backends.ts';
export type {
  Cadence,
  DeprecationWindow,
  DroppedName,
  Intensity,
  Release,
  ReleaseDiff,
  ReleaseSurface,
  StreamBackendRef,
  StreamBase,
  StreamSpec,
} from './model.ts';
export {
  backendRefText,
  CadenceSchema,
  IntensitySchema,
  intensityProblems,
  MAX_INTENSITY,
  parseBackendRef,
  releaseSurfaceId,
  streamKinds,
  WindowSchema,
} from './model.ts';
export { MAX_ATTEMPTS, nextRelease, releaseAt, releasesUpTo } from './release.ts';
export type { ReleaseTimes, StreamLifecycle } from './timeline.ts';
export {
  lifecycleAt,
  nextDueAfter,
  parseStreamRef,
  releaseInForce,
  streamSchedule,
  sunsetFor,
} from './timeline.ts';
