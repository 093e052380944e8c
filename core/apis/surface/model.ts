/**
 * An API surface: one version of an imported API as a client sees it — tool names, HTTP methods and paths,
 * parameters (names, locations, types, merged or split), response shape, pagination style and lifecycle — in
 * front of the API's operations (its backend, `core/apis/types.ts`). It is the imported-API counterpart of the
 * kernel's `Surface` (`core/surfaces/model.ts`): plain JSON (stored in D1, sent over HTTP), the behaviour lives
 * in the modules beside this one.
 *
 * The base surface of an API (`baseApiSurface`) exposes every operation as it is (identity mappings); the drift
 * generator (`core/apis/drift/`) derives other surfaces from it. Translation in both directions goes through the
 * same mapping: a call on the surface resolves to a call of a base operation with base arguments, a base
 * response is reshaped into the surface's, and a base call (or a gold call path written against the base API)
 * translates onto the surface.
 */
import type { Lifecycle } from '../../surfaces/model.ts';
import type { HttpMethod, JsonSchema, Pagination, ParamLocation } from '../types.ts';

export type { Pagination } from '../types.ts';

/** The backend discriminator of a stored surface: kernel surfaces have none, API surfaces `'api'`. */
export const API_BACKEND = 'api' as const;

/** Whether a stored surface is an imported API's (kernel surfaces have no `backend`). */
export function isApiSurface<S extends object>(surface: S | ApiSurface): surface is ApiSurface {
  return (surface as { backend?: unknown }).backend === API_BACKEND;
}

export type KeyCase = 'snake' | 'camel' | 'pascal' | 'kebab';

/**
 * How an exposed value becomes the base value (and back, for translating base calls onto the surface):
 * - `to-string`: the base takes an integer / number / boolean, the surface a string (`"42"`, `"true"`);
 * - `to-integer`: the base takes a string of digits, the surface an integer;
 * - `date-to-timestamp`: the base takes an ISO date or date-time string, the surface Unix seconds (an integer);
 * - `boolean-to-enum`: the base takes a boolean, the surface one of two strings;
 * - `to-array`: the base takes a `separator`-joined string, the surface an array of strings.
 */
export type ValueConversion =
  | { kind: 'to-string' }
  | { kind: 'to-integer' }
  | { kind: 'date-to-timestamp'; format: 'date' | 'date-time' }
  | { kind: 'boolean-to-enum'; true: string; false: string }
  | { kind: 'to-array'; separator: string };

interface ExposedBase {
  /** The exposed key (also its query/header/cookie name, or body property). */
  name: string;
  in: ParamLocation;
  required: boolean;
  /** The exposed value's schema (after conversion). */
  schema: JsonSchema;
  description?: string;
}

/**
 * One exposed parameter and how it maps onto base arguments:
 * - `param`: one base parameter under this name and location, its value converted by `convert` if given;
 * - `merged`: several base parameters in one string, `bases` in order joined by `separator`
 *   (`"2019|US"` → `year=2019`, `region=US`); an empty part leaves that base parameter out;
 * - `part`: one piece of a base parameter split over several exposed ones: the base value is the non-empty
 *   parts joined by `joiner` in `index` order (`first_name` + `last_name` → `query`).
 */
export type ExposedParam =
  | (ExposedBase & { kind: 'param'; base: string; convert?: ValueConversion })
  | (ExposedBase & { kind: 'merged'; bases: string[]; separator: string })
  | (ExposedBase & { kind: 'part'; base: string; index: number; count: number; joiner: string });

/** One tool as the surface exposes it. */
export interface ApiTool {
  /** The base operation it serves (`ApiOperation.name`). */
  operation: string;
  /** The exposed tool name (ReAct, MCP, `POST /v1/sessions/{id}/tools/{name}`). */
  name: string;
  /** The exposed HTTP shape; absent for catalog tools. */
  method?: HttpMethod;
  path?: string;
  /** In documentation order. Path parameters are exactly the `{…}` of `path`. */
  params: ExposedParam[];
  /** The exposed pagination style, when the tool pages and the surface changed its style. */
  pagination?: Pagination;
  summary?: string;
  description: string;
  lifecycle: Lifecycle;
}

/**
 * A name or route the surface no longer serves (renamed, moved or sunset): calling it answers 410 (REST) or the
 * deprecation message (ReAct, MCP), naming the successor.
 */
export interface ApiRetired {
  /** The old tool name (absent when only the route changed and the name lives on). */
  name?: string;
  /** The old route (absent for catalog tools, or when only the name changed). */
  method?: HttpMethod;
  path?: string;
  /** The base operation behind it. */
  operation: string;
  /** The successor's tool name. */
  successor: string;
  /** What the agent reads: names the old call and the successor's call, e.g. `GET /person/{person_id} is
   * deprecated and was removed on 2026-03-01. Use GET /people/{id} (getPerson) instead.` */
  message: string;
}

/** Reshaping of every response body of the surface (applied after pagination mapping). */
export interface ResponseShape {
  /** Rewrites every object key of response bodies into this case (request keys are the params' own). */
  keyCase?: KeyCase;
  /** Wraps every JSON body: `{[dataKey]: body}` plus `{[metaKey]: {status}}` when `metaKey` is set. */
  envelope?: { dataKey: string; metaKey?: string };
}

export interface ApiSurface {
  /** Lower-case slug, unique among all surfaces. The base surface's id is the API's id. */
  id: string;
  backend: typeof API_BACKEND;
  /** The imported API whose operations stand behind the surface. */
  api: string;
  title: string;
  description: string;
  derivedFrom?: string;
  drift?: { seed: string; kinds: string[] };
  tools: ApiTool[];
  retired: ApiRetired[];
  response: ResponseShape;
}
