/**
 * Correct Path Rate (DRAFT, issue 22 §5) and the route matching it needs.
 *
 * RestBench writes a query's gold *solution path* as route templates in call order (`GET /search/person`,
 * `GET /person/{person_id}/movie_credits`); an agent's calls are concrete requests (`GET /person/1769/movie_credits`)
 * or tool names. Scoring maps every call to the operation it reaches (`matchOperation`: method + path template,
 * literal segments preferred over parameters, so `/movie/top_rated` is not `/movie/{movie_id}`) and compares
 * operation names. Two definitions, reported side by side (the facts: `data/apis/README.md`, "Metrics", from the
 * shared benchmark notes `shared/data/apis/README.md`):
 * - the paper's (DRAFT, Qu et al., "From Exploration to Mastery"): the gold path is an ordered subsequence of the
 *   calls — order matters, and a gold path that repeats a call (RestBench item 78: `GET /search/movie` twice)
 *   needs it twice;
 * - DRAFT's released scorer (ToolBench only): set containment — every gold API appears somewhere among the calls,
 *   order and repeats ignored.
 * A rate is the share of queries (in percent) whose path is correct.
 */
import { type ApiCatalog, type ApiOperation, HTTP_METHODS, type HttpMethod } from './types.ts';

export interface PathCorrectness {
  /** The paper's definition: `gold` is an ordered subsequence of `calls`. */
  subsequence: boolean;
  /** DRAFT's released code: every entry of `gold` occurs in `calls`. */
  set: boolean;
}

/** Whether the calls (operation names, in call order) follow the gold path, in both definitions. */
export function correctPath(gold: readonly string[], calls: readonly string[]): PathCorrectness {
  let next = 0;
  for (const call of calls) {
    if (next < gold.length && call === gold[next]) next++;
  }
  const called = new Set(calls);
  return { subsequence: next === gold.length, set: gold.every((g) => called.has(g)) };
}

export interface PathRate {
  queries: number;
  /** Percent of queries correct by the paper's definition (ordered subsequence). */
  subsequence: number;
  /** Percent of queries correct by DRAFT's released code (set containment). */
  set: number;
}

/** Correct Path Rate over queries, in percent (0 queries → 0). */
export function correctPathRate(
  results: readonly { gold: readonly string[]; calls: readonly string[] }[],
): PathRate {
  let subsequence = 0;
  let set = 0;
  for (const r of results) {
    const c = correctPath(r.gold, r.calls);
    if (c.subsequence) subsequence++;
    if (c.set) set++;
  }
  const n = results.length;
  return {
    queries: n,
    subsequence: n === 0 ? 0 : (100 * subsequence) / n,
    set: n === 0 ? 0 : (100 * set) / n,
  };
}

// ---- gold paths -----------------------------------------------------------------------------------------------

/** `"GET /movie/{movie_id}/credits"` → method and path template (`null` when the text is not `METHOD /path`). */
export function parseGoldCall(text: string): { method: HttpMethod; path: string } | null {
  const m = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(text);
  if (!m) return null;
  const method = m[1]!.toLowerCase();
  if (!(HTTP_METHODS as readonly string[]).includes(method)) return null;
  return { method: method as HttpMethod, path: m[2]! };
}

/**
 * The operation a gold route template names. Literal segments must be equal; a `{name}` of the gold must stand
 * where the document has a parameter — a different parameter name is tolerated and reported (`renamed`), as in
 * RestBench item 98's `GET /person/{movie_id}/movie_credits`.
 */
export function matchGoldRoute(
  catalog: ApiCatalog,
  method: string,
  template: string,
): { operation: ApiOperation; renamed: boolean } | null {
  const m = method.toLowerCase();
  const goldSegments = splitPath(template);
  let loose: ApiOperation | null = null;
  for (const op of catalog.operations) {
    if (op.method !== m || op.path === undefined) continue;
    if (op.path === template) return { operation: op, renamed: false };
    const segments = splitPath(op.path);
    if (segments.length !== goldSegments.length) continue;
    const same = segments.every((s, i) => {
      const g = goldSegments[i]!;
      return isParamSegment(s) ? isParamSegment(g) : s === g;
    });
    if (same && loose === null) loose = op;
  }
  return loose ? { operation: loose, renamed: true } : null;
}

// ---- concrete requests ----------------------------------------------------------------------------------------

interface CompiledRoute {
  operation: ApiOperation;
  method: HttpMethod;
  segments: { literal: string | null; pattern: RegExp | null }[];
  /** Per segment: 2 literal, 1 literal with a parameter inside (`{name}.json`), 0 parameter. */
  rank: number[];
}

const compiledRoutes = new WeakMap<ApiCatalog, CompiledRoute[]>();

function routesOf(catalog: ApiCatalog): CompiledRoute[] {
  let routes = compiledRoutes.get(catalog);
  if (!routes) {
    routes = [];
    for (const op of catalog.operations) {
      if (op.method === undefined || op.path === undefined) continue;
      const segments = splitPath(op.path).map((s) => {
        if (!s.includes('{')) return { literal: s, pattern: null };
        if (isParamSegment(s)) return { literal: null, pattern: null };
        const source = s
          .split(/(\{[^}]+\})/)
          .map((part) => (part.startsWith('{') ? '(.+?)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('');
        return { literal: null, pattern: new RegExp(`^${source}$`) };
      });
      routes.push({
        operation: op,
        method: op.method,
        segments,
        rank: segments.map((s) => (s.literal !== null ? 2 : s.pattern !== null ? 1 : 0)),
      });
    }
    compiledRoutes.set(catalog, routes);
  }
  return routes;
}

/**
 * The operation a concrete request reaches: method and path matched against the path templates (query string
 * ignored, segments percent-decoded, literal segments preferred to parameters from left to right). A path that
 * starts with a server's base path (`/3/movie/550` for `https://api.themoviedb.org/3`) matches too.
 */
export function matchOperation(
  catalog: ApiCatalog,
  method: string,
  concretePath: string,
): ApiOperation | null {
  const m = method.toLowerCase();
  const path = concretePath.split(/[?#]/)[0]!;
  const direct = bestRoute(routesOf(catalog), m, splitPath(path).map(decodeSegment));
  if (direct) return direct;
  for (const base of serverBasePaths(catalog)) {
    if (path === base || path.startsWith(`${base}/`)) {
      const hit = bestRoute(routesOf(catalog), m, splitPath(path.slice(base.length)).map(decodeSegment));
      if (hit) return hit;
    }
  }
  return null;
}

/**
 * The operation names of an agent's calls, in call order: concrete requests are matched to their operation, tool
 * calls name theirs; a call that reaches no operation keeps its text (it can only make a path wrong).
 */
export function callPath(
  catalog: ApiCatalog,
  calls: readonly ({ method: string; path: string } | { name: string })[],
): string[] {
  return calls.map((call) => {
    if ('name' in call) return call.name;
    return (
      matchOperation(catalog, call.method, call.path)?.name ?? `${call.method.toUpperCase()} ${call.path}`
    );
  });
}

function bestRoute(
  routes: readonly CompiledRoute[],
  method: string,
  segments: readonly string[],
): ApiOperation | null {
  let best: CompiledRoute | null = null;
  for (const route of routes) {
    if (route.method !== method || route.segments.length !== segments.length) continue;
    const fits = route.segments.every((s, i) => {
      const value = segments[i]!;
      if (s.literal !== null) return s.literal === value;
      if (value === '') return false;
      return s.pattern === null || s.pattern.test(value);
    });
    if (fits && (best === null || moreSpecific(route.rank, best.rank))) best = route;
  }
  return best?.operation ?? null;
}

function moreSpecific(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i]! > b[i]!;
  }
  return false;
}

function serverBasePaths(catalog: ApiCatalog): string[] {
  const bases: string[] = [];
  for (const url of catalog.servers) {
    const path =
      /^[a-z][a-z0-9+.-]*:\/\/[^/]+(\/.*)?$/i.exec(url)?.[1] ?? (url.startsWith('/') ? url : undefined);
    const trimmed = path?.replace(/\/+$/, '');
    if (trimmed) bases.push(trimmed);
  }
  return bases;
}

function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+/, '').replace(/\/+$/, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

function isParamSegment(segment: string): boolean {
  return /^\{[^{}]+\}$/.test(segment);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
