/**
 * What the operations of an API are about: its resources and each operation's role, inferred from paths,
 * operation names and schemas (issue 22 §3 "entities are typed by resource"). No library infers this (Prism,
 * WireMock and Microcks serve operations one by one), so it is written here.
 *
 * Resources come from paths: a static segment followed by a parameter names a resource keyed by that parameter
 * (`/person/{person_id}` → `person`); nested pairs make sub-resources keyed by every parameter on the way
 * (`/tv/{tv_id}/season/{season_number}` → `tv.season`, key `<tv_id>/<season_number>`), so
 * `/person/{person_id}` and `/person/{person_id}/movie_credits` are about the same person. RPC-style APIs
 * (`/createRole`, `/getUserProfile?userId=`) name their resource in the operation name, after a verb.
 *
 * Roles:
 * - `read` — one entity (`GET /person/{id}`, `getUserProfile?userId=`); without a key, a singleton
 *   (`GET /movie/latest`);
 * - `aspect` — something about one entity that is not the entity itself (`GET /person/{id}/movie_credits`);
 * - `list` — a page of entities (`GET /movie/popular`, `GET /movie/{id}/similar`, `listRoles`);
 * - `search` — entities matching a query or filters (`GET /search/person?query=`, `GET /discover/movie?year=`);
 * - `create`, `update`, `delete` — writes (`POST /roles`, `createRole`, `PUT /roles/{id}`, `deleteRole?roleId=`);
 * - `action` — anything else (`POST /convertCurrency`): answered from its arguments, deterministically.
 *
 * Typing nested objects: an object schema is an entity of resource R when its property name names R
 * (`production_companies` → `company`) or when it shares most of its properties with R's canonical schema (the
 * success schema of R's read operation: `cast` items of `/movie/{id}/credits` share name, gender, profile_path…
 * with `/person/{id}`). Linked objects take R's entity values, so a movie's title is the same in a search result,
 * in a person's credits and in `/movie/{id}`.
 */
import type { ApiCatalog, ApiOperation, JsonSchema } from '../types.ts';
import { alternatives, itemsOf, propertiesOf, successResponse, typesOf } from './schema-walk.ts';
import { normalKey, resourceName, singular, words } from './words.ts';

export interface Resource {
  /** `person`, `tv.season`, `user_profile`. */
  name: string;
  /** The last word of the name (`season` for `tv.season`): what property names are compared with. */
  noun: string;
  /** The parameter holding the resource's own key (the last key parameter). */
  keyParam?: string;
  /** The schema of that parameter (integer ids are bounded by the world size). */
  keySchema?: JsonSchema;
  /** The property that names an entity (`name`, `title`, …), when the canonical schema has one. */
  labelField?: string;
  /** The success schema of the resource's read operation: the entity's own fields. */
  canonical?: JsonSchema;
}

/** The parameters that make up an entity's key, outermost first (`['tv_id', 'season_number']`). */
export interface KeyRef {
  resource: string;
  params: string[];
}

export type OpRole =
  | { kind: 'read'; resource: string; key: KeyRef | null }
  | { kind: 'aspect'; resource: string; key: KeyRef }
  | { kind: 'list'; resource: string; scope: KeyRef | null; itemsKey: string }
  | {
      kind: 'search';
      resource: string;
      scope: KeyRef | null;
      itemsKey: string;
      query?: string;
      filters: string[];
    }
  | { kind: 'create'; resource: string; scope: KeyRef | null }
  | { kind: 'update'; resource: string; key: KeyRef }
  | { kind: 'delete'; resource: string; key: KeyRef }
  | { kind: 'action'; resource?: string; key?: KeyRef };

export interface ResourceModel {
  resources: Map<string, Resource>;
  roles: Map<string, OpRole>;
  /** Memo of `typeObject` per schema object and property name. */
  typing: WeakMap<object, Map<string | null, Resource | null>>;
  canonicalProps: Map<string, Set<string>>;
}

const LABEL_FIELDS = [
  'name',
  'title',
  'full_name',
  'display_name',
  'username',
  'label',
  'original_name',
  'original_title',
];
const QUERY_PARAMS = ['query', 'q', 'search', 'keyword', 'keywords', 'term', 'text', 'name', 'title'];
const READ_VERBS = new Set([
  'get',
  'fetch',
  'retrieve',
  'read',
  'show',
  'describe',
  'lookup',
  'view',
  'check',
]);
const LIST_VERBS = new Set(['list', 'browse', 'all']);
const SEARCH_VERBS = new Set(['search', 'find', 'query', 'discover', 'filter']);
const CREATE_VERBS = new Set([
  'create',
  'add',
  'new',
  'register',
  'insert',
  'post',
  'submit',
  'report',
  'upload',
]);
const UPDATE_VERBS = new Set([
  'update',
  'set',
  'modify',
  'edit',
  'change',
  'configure',
  'assign',
  'rename',
  'patch',
  'put',
  'manage',
]);
const DELETE_VERBS = new Set(['delete', 'remove', 'cancel', 'revoke', 'unassign', 'destroy']);

function isParamSegment(segment: string): boolean {
  return /^\{[^}]+\}$/.test(segment);
}

function paramName(segment: string): string {
  return segment.slice(1, -1);
}

interface PathShape {
  /** Resource pairs along the path: noun segment and the parameter after it. */
  pairs: { noun: string; param: string }[];
  /** Static segments after the last parameter (`['movie_credits']`), or all of them when there is none. */
  tail: string[];
  endsWithParam: boolean;
}

function pathShape(path: string): PathShape {
  const segments = path.split('/').filter((s) => s !== '');
  const pairs: { noun: string; param: string }[] = [];
  let tail: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i] as string;
    if (isParamSegment(seg)) {
      const prev = segments[i - 1];
      const noun =
        prev !== undefined && !isParamSegment(prev) ? prev : paramName(seg).replace(/_?id$/i, '') || 'item';
      pairs.push({ noun, param: paramName(seg) });
      tail = [];
    } else tail.push(seg);
  }
  // The noun of a pair is not part of the tail before it; the tail is what follows the last parameter.
  const last = segments[segments.length - 1];
  return {
    pairs,
    tail: pairs.length > 0 ? tail : segments,
    endsWithParam: last !== undefined && isParamSegment(last),
  };
}

function resourceOfPairs(pairs: { noun: string; param: string }[]): string {
  return pairs.map((p) => resourceName(words(p.noun))).join('.');
}

function keyOfPairs(pairs: { noun: string; param: string }[]): KeyRef {
  return { resource: resourceOfPairs(pairs), params: pairs.map((p) => p.param) };
}

/** The 2xx body's array of items: its key (`''` for a top-level array), or null when it has none. */
export function itemsKeyOf(op: ApiOperation): string | null {
  if (op.pagination) return op.pagination.itemsKey;
  const schema = successResponse(op)?.schema;
  if (typesOf(schema).includes('array')) return '';
  const props = propertiesOf(schema);
  const arrays = Object.entries(props).filter(([, s]) => typesOf(s).includes('array') && isObjectArray(s));
  if (arrays.length === 1) return (arrays[0] as [string, JsonSchema])[0];
  const named = arrays.find(([k]) => ['results', 'items', 'data', 'records', 'entries', 'list'].includes(k));
  return named ? named[0] : null;
}

function isObjectArray(schema: JsonSchema): boolean {
  const items = itemsOf(schema);
  return items !== undefined && typesOf(alternatives(items)[0]).includes('object');
}

/** The parameters that steer paging (page, size, offset, limit, cursor), which are no filters. */
export function pagingParams(op: ApiOperation): string[] {
  const p = op.pagination;
  if (!p) return [];
  if (p.style === 'page') return [p.pageParam, ...(p.sizeParam ? [p.sizeParam] : [])];
  if (p.style === 'offset') return [p.offsetParam, ...(p.limitParam ? [p.limitParam] : [])];
  return [p.cursorParam, ...(p.sizeParam ? [p.sizeParam] : [])];
}

/** A search over `resource`: its query parameter, and as filters the other parameters `filterable` keeps. */
function searchRole(
  op: ApiOperation,
  resource: string,
  itemsKey: string | null,
  filterable: (p: ApiOperation['params'][number]) => boolean,
): OpRole {
  const query = queryParamOf(op);
  return {
    kind: 'search',
    resource,
    scope: null,
    itemsKey: itemsKey ?? '',
    ...(query ? { query } : {}),
    filters: op.params
      .filter((p) => p.name !== query && filterable(p) && !pagingParams(op).includes(p.name))
      .map((p) => p.name),
  };
}

function queryParamOf(op: ApiOperation): string | undefined {
  const names = op.params.filter((p) => p.in !== 'path' && p.in !== 'header').map((p) => p.name);
  return QUERY_PARAMS.find((q) => names.includes(q)) ?? names.find((n) => /query|search|keyword/i.test(n));
}

function verbAndNoun(op: ApiOperation): { verb: string; noun: string } | null {
  const w = words(op.operationId ?? op.name);
  // REST-style operation ids (`GET_person-person_id`) carry the method first: not an RPC verb.
  if (
    w.length < 2 ||
    (['get', 'post', 'put', 'patch', 'delete'].includes(w[0] as string) && op.path?.includes('{'))
  ) {
    return null;
  }
  const verb = w[0] as string;
  let rest = w
    .slice(1)
    .filter(
      (x) => !['by', 'id', 'ids', 'all', 'details', 'detail', 'info', 'information', 'data'].includes(x),
    );
  if (rest.length === 0) rest = w.slice(1);
  return { verb, noun: resourceName(rest) };
}

function idParamFor(op: ApiOperation, noun: string): string | undefined {
  const candidates = op.params.filter((p) => p.in !== 'header' && p.in !== 'cookie');
  const key = normalKey(noun);
  const exact = candidates.find((p) => [`${key}id`, 'id'].includes(normalKey(p.name)));
  if (exact) return exact.name;
  const nounWords = noun.split('_');
  return (
    candidates.find((p) => {
      const k = normalKey(p.name);
      return k.endsWith('id') && nounWords.some((w) => w.length > 2 && k.startsWith(normalKey(w)));
    })?.name ?? candidates.find((p) => /(^|_)id$|Id$|ID$/.test(p.name))?.name
  );
}

function roleOfRpc(op: ApiOperation): OpRole | null {
  const vn = verbAndNoun(op);
  if (!vn || vn.noun === '') return null;
  const { verb, noun } = vn;
  const method = op.method ?? 'post';
  const itemsKey = itemsKeyOf(op);
  if (SEARCH_VERBS.has(verb)) return searchRole(op, noun, itemsKey, (p) => p.in !== 'path');
  if (LIST_VERBS.has(verb) || (READ_VERBS.has(verb) && itemsKey !== null && !idParamFor(op, noun))) {
    return { kind: 'list', resource: noun, scope: null, itemsKey: itemsKey ?? '' };
  }
  const idParam = idParamFor(op, noun);
  const key = idParam ? { resource: noun, params: [idParam] } : null;
  if (DELETE_VERBS.has(verb) && key) return { kind: 'delete', resource: noun, key };
  if (UPDATE_VERBS.has(verb) && key) return { kind: 'update', resource: noun, key };
  if (CREATE_VERBS.has(verb) && (method === 'post' || method === 'put'))
    return { kind: 'create', resource: noun, scope: null };
  if (READ_VERBS.has(verb) && method === 'get') return { kind: 'read', resource: noun, key };
  return key ? { kind: 'action', resource: noun, key } : { kind: 'action', resource: noun };
}

function roleOfRest(op: ApiOperation): OpRole | null {
  if (!op.path) return null;
  const shape = pathShape(op.path);
  const method = op.method ?? 'get';
  const itemsKey = itemsKeyOf(op);
  if (shape.pairs.length > 0) {
    const key = keyOfPairs(shape.pairs);
    if (shape.endsWithParam) {
      if (method === 'get') return { kind: 'read', resource: key.resource, key };
      if (method === 'put' || method === 'patch') return { kind: 'update', resource: key.resource, key };
      if (method === 'delete') return { kind: 'delete', resource: key.resource, key };
      return { kind: 'action', resource: key.resource, key };
    }
    // Something under one entity: a page of related entities, a created child, or an aspect.
    const child = resourceName(words(shape.tail.join(' ')));
    if (method === 'post' && shape.tail.length === 1)
      return { kind: 'create', resource: `${key.resource}.${child}`, scope: key };
    if (method === 'get' && op.pagination)
      return { kind: 'list', resource: '', scope: key, itemsKey: op.pagination.itemsKey };
    if (method === 'get') return { kind: 'aspect', resource: key.resource, key };
    return { kind: 'action', resource: key.resource, key };
  }
  // No parameter in the path: collections, searches, singletons — or an RPC-style path.
  const segs = shape.tail;
  const rpc = segs.length === 1 ? roleOfRpc(op) : null;
  if (rpc) return rpc;
  const nouns = segs.filter((s) => !SEARCH_VERBS.has(s.toLowerCase()) && !/^v\d+$/i.test(s));
  const noun = resourceName(words(nouns[0] ?? segs[0] ?? op.name));
  const isSearch = segs.some((s) => SEARCH_VERBS.has(s.toLowerCase()));
  if (method === 'get' && isSearch) return searchRole(op, noun, itemsKey, (p) => p.in === 'query');
  if (method === 'get' && itemsKey !== null) return { kind: 'list', resource: noun, scope: null, itemsKey };
  if (method === 'get') return { kind: 'read', resource: noun, key: null };
  if (method === 'post' && segs.length === 1) return { kind: 'create', resource: noun, scope: null };
  return { kind: 'action', resource: noun };
}

function labelFieldOf(schema: JsonSchema | undefined): string | undefined {
  const props = propertiesOf(schema);
  return LABEL_FIELDS.find((f) => props[f] !== undefined && typesOf(props[f]).includes('string'));
}

/** Infers the resources and every operation's role (see the module header). */
export function inferResources(catalog: ApiCatalog): ResourceModel {
  const roles = new Map<string, OpRole>();
  const resources = new Map<string, Resource>();
  const ensure = (name: string): Resource => {
    let r = resources.get(name);
    if (!r) {
      r = { name, noun: name.split('.').pop()?.split('_').pop() ?? name };
      resources.set(name, r);
    }
    return r;
  };
  for (const op of catalog.operations) {
    const role = (op.path && op.method ? roleOfRest(op) : roleOfRpc(op)) ?? { kind: 'action' };
    roles.set(op.name, role);
    if ('resource' in role && role.resource) ensure(role.resource);
    const key = 'key' in role ? role.key : undefined;
    if (key) {
      const r = ensure(key.resource);
      const param = key.params[key.params.length - 1] as string;
      if (!r.keyParam) {
        r.keyParam = param;
        const p = op.params.find((x) => x.name === param);
        if (p) r.keySchema = p.schema;
      }
    }
  }
  // Canonical schemas: a keyed read's success schema, else a list's item schema, else a create's answer.
  for (const op of catalog.operations) {
    const role = roles.get(op.name) as OpRole;
    if (role.kind === 'read' && role.key) {
      const r = resources.get(role.resource) as Resource;
      r.canonical ??= successResponse(op)?.schema;
    }
  }
  for (const op of catalog.operations) {
    const role = roles.get(op.name) as OpRole;
    if ((role.kind === 'list' || role.kind === 'search') && role.resource) {
      const r = resources.get(role.resource) as Resource;
      if (!r.canonical) {
        const schema = successResponse(op)?.schema;
        r.canonical = role.itemsKey === '' ? itemsOf(schema) : itemsOf(propertiesOf(schema)[role.itemsKey]);
      }
    }
  }
  // A page under one entity (`/movie/{id}/similar`) lists entities its items' schema stands for (else its own).
  const model: ResourceModel = { resources, roles, typing: new WeakMap(), canonicalProps: new Map() };
  for (const op of catalog.operations) {
    const role = roles.get(op.name) as OpRole;
    if (role.kind === 'list' && role.resource === '') {
      const schema = successResponse(op)?.schema;
      const items = role.itemsKey === '' ? itemsOf(schema) : itemsOf(propertiesOf(schema)[role.itemsKey]);
      const typed = items === undefined ? null : typeObject(model, items, role.itemsKey);
      role.resource = typed?.name ?? role.scope?.resource ?? op.name;
      ensure(role.resource);
    }
  }
  for (const r of resources.values()) {
    const label = labelFieldOf(r.canonical);
    if (label) r.labelField = label;
  }
  return model;
}

/**
 * The resource an object schema stands for, if any: by its property name (`production_companies` → `company`)
 * or by sharing at least half of its properties (and three or more) with a resource's canonical schema. Objects
 * without an id-like property are never entities.
 */
export function typeObject(
  model: ResourceModel,
  schema: JsonSchema,
  fieldName: string | null,
): Resource | null {
  if (typeof schema !== 'object') return null;
  let cached = model.typing.get(schema);
  if (!cached) {
    cached = new Map();
    model.typing.set(schema, cached);
  }
  const hit = cached.get(fieldName);
  if (hit !== undefined) return hit;
  const result = typeUncached(model, schema, fieldName);
  cached.set(fieldName, result);
  return result;
}

function canonicalProps(model: ResourceModel, r: Resource): Set<string> {
  let props = model.canonicalProps.get(r.name);
  if (!props) {
    props = new Set(Object.keys(propertiesOf(r.canonical)));
    model.canonicalProps.set(r.name, props);
  }
  return props;
}

function typeUncached(model: ResourceModel, schema: JsonSchema, fieldName: string | null): Resource | null {
  const props = Object.keys(propertiesOf(schema));
  if (!props.some((p) => p === 'id' || /(_id|Id)$/.test(p))) return null;
  if (fieldName) {
    const noun = singular(words(fieldName).pop() ?? '');
    for (const r of model.resources.values()) {
      if (r.noun === noun && r.canonical && props.includes('id')) return r;
    }
  }
  let best: Resource | null = null;
  let bestScore = 0;
  for (const r of model.resources.values()) {
    if (!r.canonical) continue;
    const canonical = canonicalProps(model, r);
    const shared = props.filter((p) => canonical.has(p)).length;
    const score = shared / Math.min(props.length, canonical.size);
    if (shared >= 3 && score >= 0.5 && score > bestScore) {
      best = r;
      bestScore = score;
    }
  }
  return best;
}
