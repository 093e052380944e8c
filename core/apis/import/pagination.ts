/**
 * Pagination detection for imported operations (`ApiOperation.pagination`): an operation pages when it takes a
 * paging parameter and its 2xx JSON response holds the page's items in an array. Three styles, tried in this
 * order because a cursor or offset API often keeps a `page`-like parameter name too:
 * - `cursor`: a cursor parameter (`cursor`, `after`, `page_token`, …) and a response property naming the next one;
 * - `offset`: an offset parameter (`offset`, `skip`, `start`) — usually with a `limit`;
 * - `page`: a page-number parameter (`page`, `page_number`, …), optionally a page-size one (`per_page`, …); the
 *   response's page number and totals are recorded when it has them (TMDB: `page`, `total_pages`,
 *   `total_results`).
 * The page size is the size parameter's default, else the number of items in the response example when its
 * totals agree that this is a full page, else 20 (TMDB's).
 */
import type { ApiParam, ApiResponse, JsonSchema, Pagination } from '../types.ts';

export const DEFAULT_PAGE_SIZE = 20;

const PAGE_PARAMS = ['page', 'page_number', 'pagenumber', 'page_no', 'pageno', 'page_index', 'pageindex'];
const SIZE_PARAMS = [
  'per_page',
  'perpage',
  'page_size',
  'pagesize',
  'limit',
  'size',
  'count',
  'page_limit',
  'results_per_page',
  'max_results',
  'maxresults',
];
const OFFSET_PARAMS = ['offset', 'skip', 'start', 'start_index', 'startindex'];
const CURSOR_PARAMS = [
  'cursor',
  'after',
  'page_token',
  'pagetoken',
  'next_token',
  'nexttoken',
  'continuation',
  'continuation_token',
  'continuationtoken',
  'starting_after',
];
const NEXT_KEYS = [
  'next_cursor',
  'nextcursor',
  'next_page_token',
  'nextpagetoken',
  'next_token',
  'nexttoken',
  'cursor',
  'next',
  'continuation',
  'continuation_token',
  'continuationtoken',
];
const ITEMS_KEYS = [
  'results',
  'items',
  'data',
  'records',
  'entries',
  'list',
  'values',
  'content',
  'hits',
  'objects',
];
const PAGE_KEYS = ['page', 'current_page', 'currentpage', 'page_number', 'pagenumber'];
const TOTAL_PAGES_KEYS = ['total_pages', 'totalpages', 'pages', 'page_count', 'pagecount'];
const TOTAL_ITEMS_KEYS = [
  'total_results',
  'totalresults',
  'total',
  'total_count',
  'totalcount',
  'total_items',
  'totalitems',
  'count',
];

export function detectPagination(
  params: readonly ApiParam[],
  responses: readonly ApiResponse[],
): Pagination | undefined {
  const ok = responses.find((r) => /^2/.test(r.status) && r.schema !== undefined && isJson(r.mediaType));
  if (!ok?.schema) return undefined;
  const shape = listShape(ok.schema);
  if (!shape) return undefined;
  const candidates = params.filter((p) => p.in === 'query' || p.in === 'body' || p.in === 'header');
  const find = (names: readonly string[]) => candidates.find((p) => names.includes(normal(p.name)));
  const size = find(SIZE_PARAMS);
  const cursor = find(CURSOR_PARAMS);
  if (cursor) {
    const nextKey = pick(shape.keys, NEXT_KEYS);
    if (nextKey) {
      return {
        style: 'cursor',
        cursorParam: cursor.name,
        ...(size ? { sizeParam: size.name } : {}),
        pageSize: pageSize(size, ok, shape.itemsKey),
        itemsKey: shape.itemsKey,
        nextKey,
      };
    }
  }
  const offset = find(OFFSET_PARAMS);
  if (offset) {
    const totalKey = pick(shape.keys, TOTAL_ITEMS_KEYS);
    return {
      style: 'offset',
      offsetParam: offset.name,
      ...(size ? { limitParam: size.name } : {}),
      pageSize: pageSize(size, ok, shape.itemsKey),
      itemsKey: shape.itemsKey,
      ...(totalKey ? { totalKey } : {}),
    };
  }
  const page = find(PAGE_PARAMS);
  if (page) {
    const pageKey = pick(shape.keys, PAGE_KEYS);
    const totalPagesKey = pick(shape.keys, TOTAL_PAGES_KEYS);
    const totalItemsKey = pick(shape.keys, TOTAL_ITEMS_KEYS);
    return {
      style: 'page',
      pageParam: page.name,
      ...(size ? { sizeParam: size.name } : {}),
      pageSize: pageSize(size, ok, shape.itemsKey),
      itemsKey: shape.itemsKey,
      ...(pageKey ? { pageKey } : {}),
      ...(totalPagesKey ? { totalPagesKey } : {}),
      ...(totalItemsKey ? { totalItemsKey } : {}),
    };
  }
  return undefined;
}

/** Where a list response keeps its items (`''`: the body is the array) and its other top-level keys. */
function listShape(schema: JsonSchema): { itemsKey: string; keys: string[] } | null {
  if (typeof schema !== 'object') return null;
  if (hasType(schema, 'array')) return { itemsKey: '', keys: [] };
  const props = schema.properties;
  if (!props || typeof props !== 'object') return null;
  const entries = Object.entries(props as Record<string, JsonSchema>);
  const arrays = entries.filter(([, s]) => typeof s === 'object' && hasType(s, 'array')).map(([k]) => k);
  if (arrays.length === 0) return null;
  const itemsKey = pick(arrays, ITEMS_KEYS) ?? (arrays.length === 1 ? arrays[0]! : null);
  if (itemsKey === null) return null;
  return { itemsKey, keys: entries.filter(([k]) => k !== itemsKey).map(([k]) => k) };
}

function hasType(schema: Record<string, unknown>, type: string): boolean {
  const t = schema.type;
  return (
    t === type ||
    (Array.isArray(t) && t.includes(type)) ||
    (type === 'array' && t === undefined && 'items' in schema)
  );
}

function pageSize(size: ApiParam | undefined, response: ApiResponse, itemsKey: string): number {
  const fromDefault = size && typeof size.schema === 'object' ? size.schema.default : undefined;
  if (typeof fromDefault === 'number' && Number.isInteger(fromDefault) && fromDefault > 0) return fromDefault;
  const example = response.example;
  if (example && typeof example === 'object') {
    const record = example as Record<string, unknown>;
    const items = itemsKey === '' ? example : record[itemsKey];
    const n = Array.isArray(items) ? items.length : 0;
    const pages = firstNumber(record, TOTAL_PAGES_KEYS);
    const total = firstNumber(record, TOTAL_ITEMS_KEYS);
    // Examples are often cut short (one item of a 61,470-item list): the example's item count is the page size
    // only when the totals agree with it.
    const consistent =
      pages !== undefined && total !== undefined
        ? pages > 1 && Math.ceil(total / n) === pages
        : (pages !== undefined && pages > 1) || (total !== undefined && total > n);
    if (n > 0 && consistent) return n;
  }
  return DEFAULT_PAGE_SIZE;
}

function firstNumber(record: Record<string, unknown>, keys: readonly string[]): number | undefined {
  for (const [k, v] of Object.entries(record))
    if (typeof v === 'number' && keys.includes(normal(k))) return v;
  return undefined;
}

/** The first of `wanted` (in its order) found among `keys`, compared without case; the key as written. */
function pick(keys: readonly string[], wanted: readonly string[]): string | undefined {
  for (const w of wanted) {
    const hit = keys.find((k) => normal(k) === w);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

function normal(name: string): string {
  return name.toLowerCase().replace(/-/g, '_');
}

function isJson(mediaType: string | undefined): boolean {
  return mediaType === undefined || /json/i.test(mediaType);
}
