/**
 * A black-box fuzz of the whole API (issue 24): seeded requests over every operation of `/openapi.json`, sent with
 * two user keys (the given one and a second one it issues with the admin key, revoked at the end), and checked for
 * the contract every client relies on:
 *  - no 5xx (a 503 is allowed only where the operation documents it, with `Retry-After`);
 *  - every answer ≥ 400 is problem+json with `type`, `status` and `detail`, and no stack trace;
 *  - every list is a page: a 2xx JSON answer with `items` has `nextCursor` and holds at most the `limit` asked
 *    for, and no answer inlines an array of more than `maxInline` entries outside a page;
 *  - strict requests: a body with an unknown field (at the top or nested) or a query with an unknown parameter
 *    is never a 2xx;
 *  - ownership: what the first key created is never a 2xx for the second key (public resources excepted);
 *  - unknown ids: a path id or an id filter (`?run=`, `?session=`, …) naming nothing is never a 2xx (a 404, or a 400
 *    for a malformed one), as an unknown resource is everywhere.
 *
 * Requests are built from each operation's documented parts: its request body example (sent as is, with a field
 * added, removed, retyped, or replaced by random or broken JSON), its query parameters (valid, out of range,
 * unknown), its path parameters (ids the fuzz created, the other key's ids, random strings) and its media type.
 * Spending operations (POSTs that start runs) send their valid example a bounded number of times, so a fuzz of
 * thousands of requests does not start thousands of runs. Used by `npm run fuzz` (scripts/fuzz.ts) and the e2e
 * test test/e2e/api-fuzz.test.ts.
 */
import { Rng } from '../../core/util/random.ts';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: { type?: string; minimum?: number; maximum?: number; enum?: unknown[]; default?: unknown };
}

interface Operation {
  'x-admin-only'?: boolean;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

export interface FuzzOptions {
  baseUrl: string;
  /** A user key (the first key: it creates what the second key must not see). */
  key: string;
  /** An admin key: issues (and revokes) the second user key, and calls admin operations now and then. */
  adminKey: string;
  requests: number;
  seed?: string;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Largest array a 2xx answer may inline outside a page. */
  maxInline?: number;
  /** How often one spending operation's valid example may be sent. */
  spendingExamples?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface FuzzFinding {
  kind: 'server-error' | 'not-a-problem' | 'unpaged-list' | 'not-strict' | 'foreign-access' | 'unknown-id';
  request: string;
  status: number;
  detail: string;
}

export interface FuzzReport {
  requests: number;
  operations: number;
  /** Operations each fuzzed at least once (method and path). */
  covered: number;
  byStatus: Record<string, number>;
  findings: FuzzFinding[];
  /** Requests that carried an unknown field or parameter, and lists checked. */
  checked: {
    strictBodies: number;
    strictQueries: number;
    lists: number;
    foreign: number;
    /** Requests naming an id that does not exist (in the path or an id filter). */
    unknownIds: number;
  };
}

/** Paths whose resources belong to nobody (readable by any key). */
const PUBLIC = /^\/(v1\/(surfaces|tasks|datasets|methods|models)|health|openapi\.json|docs|problems)(\/|$)/;
/** Query parameters that name one resource by its id (a filter on it): an unknown one is a 404. */
const ID_QUERY = new Set(['session', 'exploration', 'scheduleId', 'run', 'task']);
/** POST operations that start work (model calls, queue jobs, Durable Objects). */
const SPENDING =
  /^\/v1\/(explorations|evals|ste\/runs|draft\/runs|solve|toolsets\/\{id\}\/train|schedules|ste\/schedules|draft\/watches)$/;

type Variant =
  | 'example'
  | 'unknown-field'
  | 'unknown-nested-field'
  | 'drop-field'
  | 'retype-field'
  | 'random-json'
  | 'broken-json'
  | 'wrong-type';

function randomValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(0, depth > 2 ? 4 : 6)) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick([0, -1, 1e308, 3.5, 2 ** 53 + 1, 999999]);
    case 3:
    case 4:
      return rng.pick([
        '',
        'x',
        'pc',
        "'; DROP TABLE tasks; --",
        '\u0000',
        '🙂',
        'a'.repeat(rng.int(1, 300)),
      ]);
    case 5:
      return Array.from({ length: rng.int(0, 3) }, () => randomValue(rng, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: rng.int(0, 3) }, (_, i) => [`k${i}`, randomValue(rng, depth + 1)]),
      );
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The object members of an example, with their paths (for nested unknown fields). */
function objectsIn(
  value: unknown,
  path: string[] = [],
): { path: string[]; value: Record<string, unknown> }[] {
  if (!isObject(value)) return [];
  return [{ path, value }, ...Object.entries(value).flatMap(([k, v]) => objectsIn(v, [...path, k]))];
}

/**
 * Objects whose keys are data, not fields (open by design): a tool call's arguments (`args`, a step's
 * `action_input`), JSON-RPC params, an imported API's document.
 */
function isOpenObject(path: string, at: string[]): boolean {
  return (
    /\/tools\/\{name\}$/.test(path) ||
    path.endsWith('/mcp') ||
    ['args', 'params', 'action_input', 'document'].some((open) => at.includes(open))
  );
}

function mutateBody(
  rng: Rng,
  path: string,
  example: unknown,
): { body: string; variant: Variant; unknown: boolean } {
  const variant = rng.weighted<Variant>(
    [
      'example',
      'unknown-field',
      'unknown-nested-field',
      'drop-field',
      'retype-field',
      'random-json',
      'broken-json',
      'wrong-type',
    ],
    [3, 2, 2, 1, 2, 1, 1, 1],
  );
  const copy = structuredClone(example);
  switch (variant) {
    case 'unknown-field':
    case 'unknown-nested-field': {
      const objects = objectsIn(copy).filter(
        (o) =>
          !isOpenObject(path, o.path) &&
          (variant === 'unknown-field' ? o.path.length === 0 : o.path.length > 0),
      );
      const target = objects.length > 0 ? rng.pick(objects) : null;
      if (!target) return { body: JSON.stringify(copy), variant: 'example', unknown: false };
      // A misspelt field: an existing name with a letter dropped or doubled, or a new one.
      const names = Object.keys(target.value);
      const base = names.length > 0 ? rng.pick(names) : 'field';
      const name = rng.pick([
        `${base}x`,
        base.toLowerCase() === base ? `${base}_` : base.toLowerCase(),
        'unexpected',
      ]);
      if (name in target.value) return { body: JSON.stringify(copy), variant: 'example', unknown: false };
      target.value[name] = randomValue(rng);
      return { body: JSON.stringify(copy), variant, unknown: true };
    }
    case 'drop-field':
    case 'retype-field': {
      const objects = objectsIn(copy).filter((o) => Object.keys(o.value).length > 0);
      if (objects.length === 0) return { body: JSON.stringify(copy), variant: 'example', unknown: false };
      const target = rng.pick(objects);
      const name = rng.pick(Object.keys(target.value));
      if (variant === 'drop-field') delete target.value[name];
      else target.value[name] = randomValue(rng);
      return { body: JSON.stringify(copy), variant, unknown: false };
    }
    case 'random-json':
      return { body: JSON.stringify(randomValue(rng)), variant, unknown: false };
    case 'broken-json':
      return { body: JSON.stringify(copy).slice(0, rng.int(0, 20)), variant, unknown: false };
    case 'wrong-type':
      return { body: JSON.stringify(copy), variant, unknown: false };
    default:
      return { body: JSON.stringify(copy), variant: 'example', unknown: false };
  }
}

/** The first array member of a JSON answer longer than `max`, outside `items` (a list not paged). */
function inlineList(body: unknown, max: number, at = ''): string | null {
  if (Array.isArray(body)) return body.length > max ? at || '(top level)' : null;
  if (!isObject(body)) return null;
  for (const [k, v] of Object.entries(body)) {
    if (k === 'items' && at === '') continue;
    if (Array.isArray(v) && v.length > max) return `${at}${k}`;
  }
  return null;
}

export async function runApiFuzz(o: FuzzOptions): Promise<FuzzReport> {
  const base = o.baseUrl.replace(/\/+$/, '');
  const rng = new Rng(o.seed ?? 'api-fuzz');
  const maxInline = o.maxInline ?? 200;
  const spendingCap = o.spendingExamples ?? 2;
  const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

  // The second key: issued by the admin, revoked when the fuzz ends.
  const issued = await fetch(`${base}/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${o.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'api-fuzz second key' }),
  });
  if (issued.status !== 201)
    throw new Error(`issuing the second key: HTTP ${issued.status} ${await issued.text()}`);
  const second = (await issued.json()) as { id: string; secret: string };

  /** Ids the first key created, by collection path (`/v1/evals`); a second key must never reach them. */
  const created = new Map<string, string[]>();
  const spent = new Map<string, number>();
  const report: FuzzReport = {
    requests: 0,
    operations: ops.length,
    covered: 0,
    byStatus: {},
    findings: [],
    checked: { strictBodies: 0, strictQueries: 0, lists: 0, foreign: 0, unknownIds: 0 },
  };
  const covered = new Set<string>();

  const pathFor = (path: string, mine: boolean): { url: string; foreign: boolean; ownId: boolean } => {
    let foreign = false;
    let ownId = true;
    const url = path.replace(/\{(\w+)\}/g, (_, name: string, offset: number) => {
      const collection = path.slice(0, offset - 1);
      const ids = created.get(collection) ?? [];
      if (name === 'name') return rng.pick(['LoadDB', 'Init_DB', 'NoSuchTool', encodeURIComponent('💥')]);
      if (name === 'slug') return rng.pick(['validation-error', 'not-found', 'nope']);
      if (name === 'version') return String(rng.pick([1, 2, 0, 99]));
      if (ids.length > 0 && rng.chance(0.75)) {
        if (!mine) foreign = true;
        return encodeURIComponent(rng.pick(ids));
      }
      ownId = false;
      return encodeURIComponent(
        rng.pick(['nope', '00000000-0000-4000-8000-000000000000', 'x'.repeat(150), '%2e%2e']),
      );
    });
    return { url, foreign: foreign && !PUBLIC.test(path), ownId };
  };

  const one = async (): Promise<void> => {
    const { path, method, op } = rng.pick(ops);
    covered.add(`${method} ${path}`);
    const mine = rng.chance(0.7);
    const keyed = op.security !== undefined;
    const key = op['x-admin-only'] && rng.chance(0.8) ? o.adminKey : mine ? o.key : second.secret;
    const { url, foreign, ownId } = pathFor(path, mine || key === o.adminKey);
    const query = new URLSearchParams();
    let unknownQuery = false;
    let unknownIdQuery = false;
    let limit: number | null = null;
    for (const p of op.parameters ?? []) {
      if (p.in !== 'query' || !rng.chance(0.5)) continue;
      const s = p.schema ?? {};
      let value: string;
      if (s.enum && rng.chance(0.8)) value = String(rng.pick(s.enum));
      else if (s.type === 'integer' || s.type === 'number') {
        const n = rng.pick([s.minimum ?? 1, s.maximum ?? 100, (s.maximum ?? 100) + 1, 0, -1, 3]);
        value = String(n);
      } else value = String(randomValue(rng)).slice(0, 120);
      if (p.name === 'limit') limit = Number(value);
      // A random value never names an existing resource ('' means no filter).
      if (ID_QUERY.has(p.name) && value !== '') unknownIdQuery = true;
      query.set(p.name, value);
    }
    if (rng.chance(0.1)) {
      query.set(rng.pick(['limt', 'cursr', 'unexpected', 'before']), '1');
      unknownQuery = true;
    }
    const headers: Record<string, string> = {};
    if (keyed || rng.chance(0.2)) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    let unknownField = false;
    const media = Object.entries(op.requestBody?.content ?? {});
    if (media.length > 0) {
      const [type, { example }] = rng.pick(media);
      if (type === 'application/json' && example !== undefined) {
        const spending = method === 'POST' && SPENDING.test(path);
        const m = mutateBody(rng, path, example);
        // A spending operation's valid example is sent a bounded number of times.
        if (m.variant === 'example' && spending && (spent.get(path) ?? 0) >= spendingCap) {
          body = JSON.stringify(randomValue(rng));
        } else {
          if (m.variant === 'example' && spending) spent.set(path, (spent.get(path) ?? 0) + 1);
          body = m.body;
          unknownField = m.unknown;
          headers['content-type'] =
            m.variant === 'wrong-type' ? rng.pick(['text/plain', 'application/xml']) : type;
        }
        headers['content-type'] ??= type;
      } else {
        body = typeof example === 'string' ? example : JSON.stringify(example ?? {});
        headers['content-type'] = type;
      }
      if (path.endsWith('/mcp')) headers.accept = 'application/json, text/event-stream';
    }
    const target = `${url}${query.size > 0 ? `?${query}` : ''}`;
    const request = `${method} ${target}${unknownField ? ' (unknown body field)' : ''}${foreign ? ' (other key)' : ''}`;
    let res: Response;
    try {
      res = await fetch(`${base}${target}`, { method, headers, body, signal: AbortSignal.timeout(120_000) });
    } catch (err) {
      report.findings.push({
        kind: 'server-error',
        request,
        status: 0,
        detail: `no answer: ${(err as Error).message}`,
      });
      return;
    }
    report.requests++;
    report.byStatus[res.status] = (report.byStatus[res.status] ?? 0) + 1;
    const type = res.headers.get('content-type') ?? '';
    // Streams (SSE, JSON Lines exports) are not read to their end.
    const text = type.includes('event-stream') || type.includes('ndjson') ? '' : await res.text();
    if (type.includes('event-stream') || type.includes('ndjson')) await res.body?.cancel();
    const finding = (kind: FuzzFinding['kind'], detail: string) =>
      report.findings.push({ kind, request, status: res.status, detail: detail.slice(0, 300) });

    if (res.status >= 500) {
      const documented503 = res.status === 503 && '503' in op.responses && res.headers.has('retry-after');
      if (!documented503) finding('server-error', text);
    }
    if (res.status >= 400) {
      let problem: { type?: unknown; status?: unknown; detail?: unknown } = {};
      try {
        problem = JSON.parse(text) as typeof problem;
      } catch {
        // reported below
      }
      const mcpError = path.endsWith('/mcp') && type.includes('application/json') && 'jsonrpc' in problem;
      if (
        !mcpError &&
        (!type.includes('problem+json') ||
          typeof problem.type !== 'string' ||
          problem.status !== res.status ||
          typeof problem.detail !== 'string')
      )
        finding('not-a-problem', `${type}: ${text}`);
      if (/\bat \S+\.(ts|js):\d+/.test(text)) finding('not-a-problem', `stack trace: ${text}`);
    }
    if (res.status < 300 && (unknownField || unknownQuery)) {
      if (unknownField) report.checked.strictBodies++;
      if (unknownQuery) report.checked.strictQueries++;
      finding(
        'not-strict',
        unknownField ? `unknown body field accepted: ${body}` : `unknown query parameter accepted`,
      );
    } else {
      if (unknownField) report.checked.strictBodies++;
      if (unknownQuery) report.checked.strictQueries++;
    }
    if (foreign && ownId) {
      report.checked.foreign++;
      if (res.status < 300) finding('foreign-access', text);
    }
    if (!ownId || unknownIdQuery) {
      report.checked.unknownIds++;
      if (res.status < 300)
        finding('unknown-id', `${!ownId ? 'an unknown path id' : 'an unknown id filter'} answered: ${text}`);
    }
    if (res.status < 300 && type.includes('application/json') && text !== '') {
      const json = JSON.parse(text) as unknown;
      if (isObject(json) && Array.isArray(json.items)) {
        report.checked.lists++;
        if (!('nextCursor' in json)) finding('unpaged-list', 'items without nextCursor');
        if (limit !== null && json.items.length > limit)
          finding('unpaged-list', `${json.items.length} items for limit ${limit}`);
      }
      const inline = inlineList(json, maxInline);
      if (inline) finding('unpaged-list', `an array of more than ${maxInline} at ${inline}`);
      // What the first key created (POSTs to collections) becomes a target for both keys.
      if (
        method === 'POST' &&
        isObject(json) &&
        typeof json.id === 'string' &&
        key === o.key &&
        !/\{/.test(path.split('/').at(-1) ?? '')
      ) {
        const ids = created.get(path) ?? [];
        ids.push(json.id);
        created.set(path, ids);
      }
    }
  };

  try {
    const concurrency = o.concurrency ?? 4;
    let started = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (started < o.requests) {
          started++;
          await one();
          o.onProgress?.(report.requests, o.requests);
        }
      }),
    );
  } finally {
    await fetch(`${base}/v1/keys/${second.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${o.adminKey}` },
    }).catch(() => {});
  }
  report.covered = covered.size;
  return report;
}
