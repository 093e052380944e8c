/**
 * API surfaces: versions of an imported API as clients see them, in front of its operations (core/apis/types.ts).
 * The imported-API counterpart of core/surfaces/ (the kernel's), reusing its lifecycle, deprecation notices,
 * schedule rules and RFC 9745 / 8594 header writers.
 *
 * The folder:
 * - `model.ts` — the surface as plain JSON (shared with the mock and the session layer).
 * - `base.ts` — `baseApiSurface`: every operation as it is.
 * - `resolve.ts` — `resolveApiCall`: a call by tool name or HTTP request → a base operation call with base
 *   arguments, or a 400/404/405/410 rejection naming the field or the successor. `values.ts` (text coercion,
 *   value conversions both ways), `route.ts` (route templates), `pagination.ts` (paging styles over one another),
 *   `tools.ts` (lookups, signatures, deprecation messages).
 * - `shape.ts` — `shapeApiResponse`: paging fields, key case and envelope of the answers.
 * - `translate.ts` — `translateBaseCall` / `translateGoldCall`: base calls and gold paths onto the surface.
 * - `schedule.ts` — `resolveApiSchedule`, `apiDeprecationHeaders`.
 * - `docs.ts` (ReAct tool list, MCP tools), `openapi.ts` (OpenAPI 3.1 of the drifted API), `diff.ts`
 *   (`describeApiDrift`), `validity.ts` (`apiSurfaceProblems`).
 * The drift generator that derives surfaces is core/apis/drift/.
 */
export { baseApiSurface, baseParams, baseTool } from './base.ts';
export type { ApiDrift, ApiOperationDrift, ApiParamCarrier, ApiRetiredRef, ApiToolRef } from './diff.ts';
export { describeApiDrift } from './diff.ts';
export type { McpToolDescriptor } from './docs.ts';
export { apiArgumentsSchema, apiMcpTools, apiToolList, FINISH_LINE } from './docs.ts';
export * from './model.ts';
export { apiSurfaceOpenApi } from './openapi.ts';
export type { PageState } from './pagination.ts';
export type { ApiCallInput, ApiParamError, ApiResolution, ApiResolveOptions } from './resolve.ts';
export { resolveApiCall } from './resolve.ts';
export { apiDeprecationHeaders, resolveApiSchedule } from './schedule.ts';
export type { ShapeContext } from './shape.ts';
export { shapeApiResponse } from './shape.ts';
export {
  deprecationWarning,
  retiredMessage,
  servedTools,
  toolCallText,
  toolForOperation,
  toolSignature,
} from './tools.ts';
export type { BaseCallTranslation, GoldCallRef, HttpCall } from './translate.ts';
export { translateBaseCall, translateGoldCall } from './translate.ts';
export { apiSurfaceProblems } from './validity.ts';
