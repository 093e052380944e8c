/**
 * Strict requests for every route (issue 24 item 6): a field the body's schema does not name is a 400 naming it,
 * at any depth — a `stepbudget` typo must not silently become the default budget —, and so is a query parameter
 * the route does not declare. `requestContract(app)`
 * wraps `app.openapi` (as `documentAdminRoutes` does) so every route registered afterwards with a JSON body —
 * `routeTable` routes and hand-written `createRoute` ones alike — gets the check after its key check and before
 * its validators, and
 * remembers the media types the route accepts for the 415 answer (`expectedBodyTypes`).
 *
 * A schema is open where it says so: `z.record(…)`, `z.looseObject` / `.passthrough()` / `.catchall(…)` (their
 * extra keys are checked against the catchall schema), `z.unknown()` / `z.any()`. Every `z.object` is closed.
 *
 * Why written here: zod 4 strips unknown keys by default and has no deep "strict" switch; rebuilding every body
 * schema with `.strict()` would lose the OpenAPI metadata and component names the document is generated from.
 * So the request is walked beside its schema instead (objects, arrays, tuples, records, unions — the option
 * the value parses as —, optional/nullable/default wrappers, pipes and lazy schemas).
 */
import type { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { FieldError } from '../../core/http/problems.ts';
import type { AppEnv } from '../app-env.ts';
import { ProblemError } from './problem.ts';

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  getter?: () => z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
};

const defOf = (schema: z.ZodType): Def => schema._zod.def as unknown as Def;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function pointer(path: readonly string[]): string {
  return `/${path.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

/** The keys an object schema (or an intersection of them) names; null when it is not one. */
function namedKeys(schema: z.ZodType): string[] | null {
  const def = defOf(schema);
  if (def.type === 'object') return Object.keys(def.shape ?? {});
  if (def.type === 'intersection' && def.left && def.right) {
    const left = namedKeys(def.left);
    const right = namedKeys(def.right);
    return left && right ? [...left, ...right] : null;
  }
  return null;
}

/**
 * The fields of `value` that `schema` does not name, each as a field error of `where` (`body`), in document
 * order. Values that do not match the schema's shape are left to the schema's own validation.
 */
export function unknownFields(
  schema: z.ZodType,
  value: unknown,
  where = 'body',
  path: readonly string[] = [],
): FieldError[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return def.innerType ? unknownFields(def.innerType, value, where, path) : [];
    case 'lazy':
      return def.getter ? unknownFields(def.getter(), value, where, path) : [];
    case 'pipe': {
      // z.preprocess is a pipe from a transform: its input is the output schema's; .transform() keeps `in`.
      const input = def.in && defOf(def.in).type === 'transform' ? def.out : def.in;
      return input ? unknownFields(input, value, where, path) : [];
    }
    case 'array':
      if (!Array.isArray(value) || !def.element) return [];
      return value.flatMap((v, i) => unknownFields(def.element as z.ZodType, v, where, [...path, String(i)]));
    case 'tuple':
      if (!Array.isArray(value)) return [];
      return value.flatMap((v, i) => {
        const item = def.items?.[i] ?? def.rest ?? undefined;
        return item ? unknownFields(item, v, where, [...path, String(i)]) : [];
      });
    case 'record':
      if (!isObject(value) || !def.valueType) return [];
      return Object.entries(value).flatMap(([k, v]) =>
        unknownFields(def.valueType as z.ZodType, v, where, [...path, k]),
      );
    case 'object':
    case 'intersection':
      return objectFields(schema, def, value, where, path);
    case 'union':
      return unionFields(def.options ?? [], value, where, path);
    default:
      return [];
  }
}

function objectFields(
  schema: z.ZodType,
  def: Def,
  value: unknown,
  where: string,
  path: readonly string[],
): FieldError[] {
  if (!isObject(value)) return [];
  const known = namedKeys(schema) ?? [];
  const shape: Record<string, z.ZodType> =
    def.type === 'object'
      ? (def.shape ?? {})
      : Object.fromEntries(
          [def.left, def.right].flatMap((s) => (s ? Object.entries(defOf(s).shape ?? {}) : [])),
        );
  const catchall = def.type === 'object' ? def.catchall : undefined;
  const out: FieldError[] = [];
  for (const [key, v] of Object.entries(value)) {
    const at = [...path, key];
    const field = shape[key];
    if (field) out.push(...unknownFields(field, v, where, at));
    else if (catchall && defOf(catchall).type !== 'never') out.push(...unknownFields(catchall, v, where, at));
    else if (!known.includes(key)) {
      const names = known.length > 0 ? `the fields here are ${known.join(', ')}` : 'no field is allowed here';
      out.push({ in: where, field: at.join('.'), pointer: pointer(at), message: `unknown field (${names})` });
    }
  }
  return out;
}

/**
 * A union: the option the value parses as — or would, but for unknown keys a strict option refuses — with the
 * fewest unknown fields (`{"api": …, "stepbudget": 3}` is an API session's body with a typo, not a kernel
 * session's with two unknown fields). When no option fits, an object is read as the object option that names
 * most of its keys — the one the body meant —, so its unknown fields are named rather than lost in the union's
 * summary.
 */
function unionFields(
  options: readonly z.ZodType[],
  value: unknown,
  where: string,
  path: readonly string[],
): FieldError[] {
  let best: FieldError[] | null = null;
  for (const option of options) {
    const parsed = option.safeParse(value);
    if (!parsed.success && !parsed.error.issues.every((i) => i.code === 'unrecognized_keys')) continue;
    const found = unknownFields(option, value, where, path);
    if (best === null || found.length < best.length) best = found;
    if (found.length === 0) break;
  }
  if (best !== null || !isObject(value)) return best ?? [];
  let meant: z.ZodType | undefined;
  let most = 0;
  for (const option of options) {
    const keys = objectKeys(option);
    const named = keys ? Object.keys(value).filter((k) => keys.includes(k)).length : 0;
    if (named > most) {
      meant = option;
      most = named;
    }
  }
  return meant ? unknownFields(meant, value, where, path) : [];
}

/** The keys an object schema names, through optional, default, lazy and pipe wrappers; null when it is none. */
function objectKeys(schema: z.ZodType): string[] | null {
  const def = defOf(schema);
  if (def.type === 'lazy') return def.getter ? objectKeys(def.getter()) : null;
  if (def.type === 'pipe') return def.in ? objectKeys(def.in) : null;
  if (def.innerType) return objectKeys(def.innerType);
  return namedKeys(schema);
}

/**
 * Whether zod itself refuses every unknown field of `schema`: all its objects are strict (or open by declaration:
 * records, catchalls). Such a body needs no walk (a step body, a kernel call: the hot paths are strict already).
 */
const strictSchemas = new WeakMap<z.ZodType, boolean>();
export function strictThroughout(schema: z.ZodType, seen = new Set<z.ZodType>()): boolean {
  const known = strictSchemas.get(schema);
  if (known !== undefined) return known;
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = defOf(schema);
  const inner = (s: z.ZodType | null | undefined) => !s || strictThroughout(s, seen);
  let strict: boolean;
  switch (def.type) {
    case 'object':
      strict =
        def.catchall !== undefined &&
        (defOf(def.catchall).type === 'never' || inner(def.catchall)) &&
        Object.values(def.shape ?? {}).every((s) => inner(s));
      break;
    case 'lazy':
      strict = inner(def.getter?.());
      break;
    case 'pipe':
      strict = inner(def.in) && inner(def.out);
      break;
    case 'array':
      strict = inner(def.element);
      break;
    case 'tuple':
      strict = (def.items ?? []).every((s) => inner(s)) && inner(def.rest);
      break;
    case 'record':
      strict = inner(def.valueType);
      break;
    case 'union':
      strict = (def.options ?? []).every((s) => inner(s));
      break;
    case 'intersection':
      strict = false;
      break;
    default:
      strict = inner(def.innerType);
  }
  strictSchemas.set(schema, strict);
  return strict;
}

type RouteLike = {
  middleware?: MiddlewareHandler<AppEnv> | MiddlewareHandler<AppEnv>[];
  request?: { query?: unknown; body?: { content?: Record<string, { schema?: unknown }> } };
};

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** The media types the current route's body may have (set by `requestContract`), for the 415 answer. */
const BODY_TYPES = new WeakMap<Request, readonly string[]>();

export function expectedBodyTypes(c: Context): readonly string[] | undefined {
  return BODY_TYPES.get(c.req.raw);
}

/** The middleware `requestContract` puts before a route's validators. */
function strictRequest(
  queryNames: readonly string[],
  types: readonly string[],
  schema: z.ZodType | undefined,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const unknown = Object.keys(c.req.queries()).filter((name) => !queryNames.includes(name));
    if (unknown.length > 0) {
      const names = queryNames.length > 0 ? `its parameters are ${queryNames.join(', ')}` : 'it takes none';
      throw new ProblemError('validation-error', {
        detail: `Invalid query.${unknown[0]}: unknown query parameter (${names}).`,
        errors: unknown.map((name) => ({
          in: 'query',
          field: name,
          pointer: `/${name}`,
          message: `unknown query parameter (${names})`,
        })),
      });
    }
    BODY_TYPES.set(c.req.raw, types);
    const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (schema && JSON_TYPE.test(type)) {
      // app.ts has parsed the body already (a syntax error is answered there); Hono caches the parse.
      const errors = unknownFields(schema, await c.req.json());
      const first = errors[0];
      if (first) {
        throw new ProblemError('validation-error', {
          detail: `Invalid body.${first.field}: ${first.message}.`,
          errors,
        });
      }
    }
    await next();
  };
}

/**
 * Makes every route registered on `app` afterwards refuse unknown JSON body fields and unknown query parameters
 * (400 naming each) and answer a body of another media type with a 415 naming the ones it takes. Applied to every
 * route module's sub-app (app.ts), so a new route has it without asking.
 */
export function requestContract(app: OpenAPIHono<AppEnv>): void {
  const register = app.openapi.bind(app);
  type Route = Parameters<typeof register>[0];
  app.openapi = ((route: Route, ...rest: unknown[]) => {
    const request = (route as RouteLike).request;
    const content = request?.body?.content ?? {};
    const types = Object.keys(content);
    const json = types.find((t) => JSON_TYPE.test(t));
    const declared = json ? (content[json]?.schema as z.ZodType | undefined) : undefined;
    // A schema whose objects are all strict needs no walk: zod names each unknown key itself.
    const schema = declared && !strictThroughout(declared) ? declared : undefined;
    const queryNames = Object.keys((request?.query as { shape?: object } | undefined)?.shape ?? {});
    // After the route's own middleware (the key check comes first: no 400 before a 401), before its validators.
    const middleware = ([] as MiddlewareHandler<AppEnv>[]).concat(
      (route as RouteLike).middleware ?? [],
      strictRequest(queryNames, types, schema),
    );
    return (register as (...args: unknown[]) => unknown)({ ...route, middleware }, ...rest);
  }) as typeof app.openapi;
}
