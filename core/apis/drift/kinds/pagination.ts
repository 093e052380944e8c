/**
 * `pagination` — operations that page their results page in another style: a `page` base (TMDB's `page`, with
 * `page`, `total_pages`, `total_results` in the answer) becomes `offset` + `limit` (answer: the items and a
 * `total`) or an opaque `cursor` (answer: the items and `next_cursor`, null on the last page); an `offset` base
 * becomes `page` or `cursor`. The base paging parameters leave the tool; the new ones travel in the query string
 * and are translated onto the base's (core/apis/surface/pagination.ts). A base cursor, or a body that is the items
 * array itself, is left as it is.
 */
import type { Rng } from '../../../util/random.ts';
import type { Pagination } from '../../surface/model.ts';
import { basePageParamNames } from '../../surface/pagination.ts';
import { schemaTypes } from '../../surface/values.ts';
import type { JsonSchema } from '../../types.ts';
import { type ApiToolDraft, choose, defineApiDriftKind } from '../kind.ts';
import { draftKeys } from '../names.ts';

const OFFSET_NAMES: readonly (readonly [string, string])[] = [
  ['offset', 'limit'],
  ['skip', 'take'],
  ['start', 'count'],
];
const PAGE_NAMES: readonly (readonly [string, string])[] = [
  ['page', 'per_page'],
  ['page_number', 'page_size'],
  ['p', 'size'],
];
const CURSOR_NAMES: readonly (readonly [string, string, string])[] = [
  ['cursor', 'page_size', 'next_cursor'],
  ['page_token', 'max_results', 'next_page_token'],
  ['after', 'limit', 'next'],
];
const TOTAL_KEYS = ['total', 'total_count', 'count'];

function responseKeys(d: ApiToolDraft): Set<string> {
  const ok = d.op.responses.find((r) => r.status.startsWith('2'));
  const props = (ok?.schema as Record<string, unknown> | undefined)?.properties;
  return new Set(typeof props === 'object' && props !== null ? Object.keys(props) : []);
}

/** A seeded pick among the name sets that `ok` accepts; when none is free, the first set with `_page` appended. */
function pickNames<T extends readonly string[]>(rng: Rng, sets: readonly T[], ok: (set: T) => boolean): T {
  const free = sets.filter(ok);
  if (free.length > 0) return rng.pick(free);
  return (sets[0] as T).map((n) => `${n}_page`) as unknown as T;
}

/** A restyled paging over `base` whose names clash with nothing the tool or its answer already uses. */
function restyle(base: Pagination, d: ApiToolDraft, rng: Rng): Pagination {
  const replaced = new Set(basePageParamNames(base));
  const taken = draftKeys(d.params.filter((p) => !(p.kind === 'param' && replaced.has(p.base))));
  const answer = responseKeys(d);
  const free = (k: string) => !taken.has(k.toLowerCase());
  const freeAnswer = (k: string) => !answer.has(k) || k === base.itemsKey;
  const hasSize = (base.style === 'offset' ? base.limitParam : base.sizeParam) !== undefined;
  const hasTotal =
    base.style === 'page'
      ? base.totalItemsKey !== undefined
      : base.style === 'offset' && base.totalKey !== undefined;
  const styles = base.style === 'page' ? (['offset', 'cursor'] as const) : (['page', 'cursor'] as const);
  const style = rng.pick(styles);
  const common = { pageSize: base.pageSize, itemsKey: base.itemsKey };
  if (style === 'offset') {
    const [offset, limit] = pickNames(rng, OFFSET_NAMES, ([o, l]) => free(o) && free(l));
    const out: Pagination = { style, offsetParam: offset, ...common };
    if (hasSize) out.limitParam = limit;
    const total = TOTAL_KEYS.filter(freeAnswer);
    if (hasTotal && total.length > 0) out.totalKey = rng.pick(total);
    return out;
  }
  if (style === 'page') {
    const [page, size] = pickNames(rng, PAGE_NAMES, ([p, s]) => free(p) && free(s));
    const out: Pagination = { style, pageParam: page, ...common };
    if (hasSize) out.sizeParam = size;
    if (freeAnswer('page')) out.pageKey = 'page';
    if (hasTotal && freeAnswer('total_pages')) out.totalPagesKey = 'total_pages';
    if (hasTotal && freeAnswer('total_results')) out.totalItemsKey = 'total_results';
    return out;
  }
  const [cursor, size, next] = pickNames(
    rng,
    CURSOR_NAMES,
    ([c, s, n]) => free(c) && free(s) && freeAnswer(n),
  );
  const out: Pagination = { style: 'cursor', cursorParam: cursor, nextKey: next, ...common };
  if (hasSize) out.sizeParam = size;
  return out;
}

function isIntegerSchema(schema: JsonSchema): boolean {
  const types = schemaTypes(schema);
  return types.size > 0 && [...types].every((t) => t === 'integer' || t === 'null');
}

function eligible(d: ApiToolDraft): boolean {
  const p = d.op.pagination;
  if (!p || p.style === 'cursor' || p.itemsKey === '' || d.pagination) return false;
  const ok = d.op.responses.find((r) => r.status.startsWith('2'));
  if (!(typeof ok?.schema === 'object' && (ok.schema as Record<string, unknown>).type === 'object'))
    return false;
  // Every paging parameter is there as itself and counts (an integer): a `size` that is an enum of words
  // (Axolotl's small/medium/large) is no page size, whatever its name.
  return basePageParamNames(p).every((n) =>
    d.params.some((x) => x.kind === 'param' && x.base === n && x.name === n && isIntegerSchema(x.schema)),
  );
}

export const pagination = defineApiDriftKind({
  id: 'pagination',
  summary: 'paged operations page in another style (page, offset or cursor)',
  order: 5,
  apply(work) {
    const rng = work.root.fork('pagination');
    for (const d of choose(work.tools.filter(eligible), 0.6, rng)) {
      const base = d.op.pagination as Pagination;
      d.pagination = restyle(base, d, work.root.fork(`pagination/${d.op.name}`));
      const replaced = new Set(basePageParamNames(base));
      d.params = d.params.filter((p) => !(p.kind === 'param' && replaced.has(p.base)));
    }
  },
});
