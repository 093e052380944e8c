/**
 * Pagination styles over one another: a surface tool may page in another style than its base operation
 * (`ApiTool.pagination`, set by the `pagination` drift kind) — `page` (+ size), `offset` (+ limit) or an opaque
 * `cursor` (+ size). The exposed paging parameters are not `ExposedParam`s: they are named by the exposed
 * `Pagination`, travel in the query string, and replace the base operation's paging parameters.
 *
 * Both directions go through one absolute position, the index of the first item asked for (`start`):
 * - exposed → base (`pageToBase`): page p of size s starts at (p−1)·s; an offset is the start; a cursor encodes
 *   the start (`o40`, base64url). On a `page` base the start becomes page ⌊start/s⌋+1 and the first
 *   `start mod s` items of that page are dropped from the answer (`skip`); on an `offset` base it is the offset.
 *   A size travels to the base's size/limit parameter. No position asked → no base position sent (the first
 *   page), no size → the base's default page size.
 * - base → exposed (`pageFromBase`, for translating base calls): the base's page/offset as a start, written in
 *   the exposed style (a page only when the start is on a page boundary).
 * - responses (`shapePage`): the base's paging fields (page, total pages, total results, total, next) are
 *   replaced by the exposed style's: `page` → the page number, total pages and total items; `offset` → the
 *   total; `cursor` → the next cursor, or null on the last page. `shapePageSchema` does the same to the
 *   response schema for the surface's OpenAPI document.
 * A base `cursor` style can only be exposed as a cursor (the cursor is passed through unchanged).
 */
import type { JsonSchema } from '../types.ts';
import type { Pagination } from './model.ts';

/** What the response shaping needs to know about a paged call (part of `ShapeContext`). */
export interface PageState {
  exposed: Pagination;
  base: Pagination;
  /** Index of the first item the client asked for. */
  start: number;
  size: number;
  /** Items of the base page before `start` (a `page` base asked for an offset inside a page). */
  skip: number;
}

export interface PageParamDoc {
  name: string;
  schema: JsonSchema;
  description: string;
}

const paramCache = new WeakMap<Pagination, PageParamDoc[]>();

/**
 * The exposed paging parameters of a style (all optional, all in the query string); the same objects for the
 * same `Pagination` (their schemas' validators are cached per schema object).
 */
export function pageParams(p: Pagination): PageParamDoc[] {
  let docs = paramCache.get(p);
  if (!docs) {
    docs = pageParamDocs(p);
    paramCache.set(p, docs);
  }
  return docs;
}

function pageParamDocs(p: Pagination): PageParamDoc[] {
  const size = (name: string | undefined): PageParamDoc[] =>
    name === undefined
      ? []
      : [
          {
            name,
            schema: { type: 'integer', minimum: 1 },
            description: `How many items a page holds (default ${p.pageSize}).`,
          },
        ];
  switch (p.style) {
    case 'page':
      return [
        {
          name: p.pageParam,
          schema: { type: 'integer', minimum: 1 },
          description: 'The page to return, counting from 1 (default 1).',
        },
        ...size(p.sizeParam),
      ];
    case 'offset':
      return [
        {
          name: p.offsetParam,
          schema: { type: 'integer', minimum: 0 },
          description: 'How many items to skip before the first one returned (default 0).',
        },
        ...size(p.limitParam),
      ];
    case 'cursor':
      return [
        {
          name: p.cursorParam,
          schema: { type: 'string' },
          description: `The \`${p.nextKey}\` value of the previous page; leave it out for the first page.`,
        },
        ...size(p.sizeParam),
      ];
  }
}

/** The base operation's paging parameters that an exposed style replaces. */
export function basePageParamNames(p: Pagination): string[] {
  const names =
    p.style === 'page'
      ? [p.pageParam, p.sizeParam]
      : p.style === 'offset'
        ? [p.offsetParam, p.limitParam]
        : [p.cursorParam, p.sizeParam];
  return names.filter((n): n is string => n !== undefined);
}

function sizeParamOf(p: Pagination): string | undefined {
  return p.style === 'offset' ? p.limitParam : p.sizeParam;
}

/** Whether a tool can page in `exposed` over a base operation paging in `base`. */
export function pagingCompatible(exposed: Pagination, base: Pagination): boolean {
  if (base.style === 'cursor' && exposed.style !== 'cursor') return false;
  if (sizeParamOf(exposed) !== undefined && sizeParamOf(base) === undefined) return false;
  return exposed.itemsKey === base.itemsKey && exposed.pageSize === base.pageSize;
}

function toBase64Url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string | null {
  try {
    return atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
}

/** The opaque cursor of an absolute start. */
export function encodeCursor(start: number): string {
  return toBase64Url(`o${start}`);
}

export function decodeCursor(cursor: string): number | null {
  const text = fromBase64Url(cursor);
  const m = text === null ? null : /^o(0|[1-9][0-9]*)$/.exec(text);
  return m ? Number(m[1]) : null;
}

export type PageRequest =
  | { ok: true; baseArgs: Record<string, unknown>; state: PageState }
  | { ok: false; field: string; message: string };

/** The exposed paging arguments (valid for `pageParams`) as base arguments (see the module header). */
export function pageToBase(
  exposed: Pagination,
  base: Pagination,
  args: Readonly<Record<string, unknown>>,
): PageRequest {
  const baseArgs: Record<string, unknown> = {};
  const exposedSize = sizeParamOf(exposed);
  const givenSize = exposedSize !== undefined ? (args[exposedSize] as number | undefined) : undefined;
  const size = givenSize ?? base.pageSize;
  const baseSize = sizeParamOf(base);
  if (givenSize !== undefined && baseSize !== undefined) baseArgs[baseSize] = givenSize;

  let start: number | undefined;
  if (exposed.style === 'cursor' && base.style === 'cursor') {
    const cursor = args[exposed.cursorParam];
    if (cursor !== undefined) baseArgs[base.cursorParam] = cursor;
    return { ok: true, baseArgs, state: { exposed, base, start: 0, size, skip: 0 } };
  }
  if (exposed.style === 'page' && args[exposed.pageParam] !== undefined)
    start = ((args[exposed.pageParam] as number) - 1) * size;
  if (exposed.style === 'offset' && args[exposed.offsetParam] !== undefined)
    start = args[exposed.offsetParam] as number;
  if (exposed.style === 'cursor' && args[exposed.cursorParam] !== undefined) {
    const decoded = decodeCursor(args[exposed.cursorParam] as string);
    if (decoded === null) {
      return {
        ok: false,
        field: exposed.cursorParam,
        message: `is not a cursor this API issued; pass the \`${exposed.nextKey}\` value of the previous page, or leave it out for the first page`,
      };
    }
    start = decoded;
  }
  let skip = 0;
  if (start !== undefined) {
    if (base.style === 'page') {
      baseArgs[base.pageParam] = Math.floor(start / size) + 1;
      skip = start % size;
    } else if (base.style === 'offset') baseArgs[base.offsetParam] = start;
  }
  return { ok: true, baseArgs, state: { exposed, base, start: start ?? 0, size, skip } };
}

/** Base paging arguments as exposed ones (for translating a base call); a reason when there is no equivalent. */
export function pageFromBase(
  exposed: Pagination,
  base: Pagination,
  baseArgs: Readonly<Record<string, unknown>>,
): { ok: true; args: Record<string, unknown> } | { ok: false; reason: string } {
  const args: Record<string, unknown> = {};
  const baseSize = sizeParamOf(base);
  const givenSize = baseSize !== undefined ? baseArgs[baseSize] : undefined;
  const exposedSize = sizeParamOf(exposed);
  if (givenSize !== undefined) {
    if (exposedSize === undefined) return { ok: false, reason: `${baseSize} has no counterpart` };
    if (typeof givenSize !== 'number' || !Number.isInteger(givenSize) || givenSize < 1)
      return { ok: false, reason: `${baseSize} is not a page size` };
    args[exposedSize] = givenSize;
  }
  if (exposed.style === 'cursor' && base.style === 'cursor') {
    if (baseArgs[base.cursorParam] !== undefined) args[exposed.cursorParam] = baseArgs[base.cursorParam];
    return { ok: true, args };
  }
  const size = typeof givenSize === 'number' ? givenSize : base.pageSize;
  let start: number | undefined;
  if (base.style === 'page' && baseArgs[base.pageParam] !== undefined) {
    const page = baseArgs[base.pageParam];
    if (typeof page !== 'number' || !Number.isInteger(page) || page < 1)
      return { ok: false, reason: `${base.pageParam} is not a page number` };
    start = (page - 1) * size;
  }
  if (base.style === 'offset' && baseArgs[base.offsetParam] !== undefined) {
    const offset = baseArgs[base.offsetParam];
    if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0)
      return { ok: false, reason: `${base.offsetParam} is not an offset` };
    start = offset;
  }
  if (base.style === 'cursor') return { ok: false, reason: 'a cursor cannot be written in another style' };
  if (start === undefined) return { ok: true, args };
  if (exposed.style === 'page') {
    if (start % size !== 0) return { ok: false, reason: `offset ${start} is not on a page boundary` };
    args[exposed.pageParam] = start / size + 1;
  } else if (exposed.style === 'offset') args[exposed.offsetParam] = start;
  else args[exposed.cursorParam] = encodeCursor(start);
  return { ok: true, args };
}

function baseMetaKeys(p: Pagination): string[] {
  const keys =
    p.style === 'page'
      ? [p.pageKey, p.totalPagesKey, p.totalItemsKey]
      : p.style === 'offset'
        ? [p.totalKey]
        : [p.nextKey];
  return keys.filter((k): k is string => k !== undefined);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A base response body in the exposed paging style (see the module header); other bodies pass unchanged. */
export function shapePage(state: PageState, body: unknown): unknown {
  const { exposed, base, start, size, skip } = state;
  if (!isRecord(body) || !Array.isArray(body[base.itemsKey])) return body;
  if (exposed.style === 'cursor' && base.style === 'cursor') {
    const out = { ...body };
    const next = body[base.nextKey];
    delete out[base.nextKey];
    out[exposed.nextKey] = next ?? null;
    return out;
  }
  const baseItems = body[base.itemsKey] as unknown[];
  const items = baseItems.slice(skip);
  let totalItems: number | undefined;
  let totalPages: number | undefined;
  if (base.style === 'page') {
    totalItems = base.totalItemsKey !== undefined ? num(body[base.totalItemsKey]) : undefined;
    totalPages = base.totalPagesKey !== undefined ? num(body[base.totalPagesKey]) : undefined;
  } else if (base.style === 'offset' && base.totalKey !== undefined) totalItems = num(body[base.totalKey]);
  const out: Record<string, unknown> = {};
  const drop = new Set(baseMetaKeys(base));
  for (const [k, v] of Object.entries(body)) if (!drop.has(k)) out[k] = k === base.itemsKey ? items : v;
  switch (exposed.style) {
    case 'page':
      if (exposed.pageKey !== undefined) out[exposed.pageKey] = Math.floor(start / size) + 1;
      if (exposed.totalPagesKey !== undefined)
        out[exposed.totalPagesKey] =
          totalItems !== undefined ? Math.ceil(totalItems / size) : (totalPages ?? null);
      if (exposed.totalItemsKey !== undefined) out[exposed.totalItemsKey] = totalItems ?? null;
      break;
    case 'offset':
      if (exposed.totalKey !== undefined) out[exposed.totalKey] = totalItems ?? null;
      break;
    case 'cursor': {
      const next = start + items.length;
      const basePage = Math.floor(start / size) + 1;
      const more =
        totalItems !== undefined
          ? next < totalItems
          : totalPages !== undefined
            ? basePage < totalPages
            : baseItems.length >= size;
      out[exposed.nextKey] = more && items.length > 0 ? encodeCursor(next) : null;
      break;
    }
  }
  return out;
}

/** A base 2xx response schema with the exposed style's paging fields (an object schema; others unchanged). */
export function shapePageSchema(exposed: Pagination, base: Pagination, schema: JsonSchema): JsonSchema {
  if (!isRecord(schema) || !isRecord(schema.properties) || !(base.itemsKey in schema.properties))
    return schema;
  const drop = new Set(baseMetaKeys(base));
  const properties: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema.properties)) if (!drop.has(k)) properties[k] = v;
  const integer = (description: string) => ({ type: ['integer', 'null'], description });
  switch (exposed.style) {
    case 'page':
      if (exposed.pageKey !== undefined)
        properties[exposed.pageKey] = { type: 'integer', description: 'This page.' };
      if (exposed.totalPagesKey !== undefined)
        properties[exposed.totalPagesKey] = integer('How many pages there are.');
      if (exposed.totalItemsKey !== undefined)
        properties[exposed.totalItemsKey] = integer('How many items there are.');
      break;
    case 'offset':
      if (exposed.totalKey !== undefined) properties[exposed.totalKey] = integer('How many items there are.');
      break;
    case 'cursor':
      properties[exposed.nextKey] = {
        type: ['string', 'null'],
        description: `Pass it as \`${exposed.cursorParam}\` for the next page; null on the last page.`,
      };
      break;
  }
  const out: Record<string, unknown> = { ...schema, properties };
  if (Array.isArray(schema.required))
    out.required = (schema.required as string[]).filter((k) => !drop.has(k));
  return out;
}
