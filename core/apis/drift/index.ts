/**
 * The drift generator for imported APIs: from an API surface, its catalog, a seed and a set of drift kinds it
 * derives a new surface in front of the same operations — names, routes, parameters, types, paging, answers and
 * lifecycles changed the way real APIs change them.
 *
 * The folder:
 * - `kinds/` — one module per drift kind (id, summary, place in the sequence, apply function, with the kind's
 *   examples in its header) and `kinds/index.ts` listing them; a kind that finds nothing to change on an API
 *   leaves it as it is. `kind.ts` says what a kind module is.
 * - `generate.ts` — `generateApiSurface`: drafts, the kinds in sequence, lifecycle, validity.
 * - `names.ts` (names, styles and free routes several kinds share) and `vocab.ts` (the REST words kinds rename
 *   with).
 * What changed between two API surfaces is `describeApiDrift` (core/apis/surface/diff.ts).
 */
export type { ApiDriftOptions } from './generate.ts';
export { apiDriftSurfaceId, generateApiSurface } from './generate.ts';
export type { ApiDriftKindModule, ApiDriftWork, ApiToolDraft } from './kind.ts';
export type { ApiDriftKind } from './kinds/index.ts';
export {
  API_DRIFT_KIND_MODULES,
  API_DRIFT_KINDS,
  apiDriftKindSummary,
  normalizeApiDriftKinds,
} from './kinds/index.ts';
