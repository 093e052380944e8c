/**
 * The hostile corpus of issue 13: requests an attacker (or a careless agent) sends to a tooldrift server, each
 * with what a hardened server must answer. `runHostile` sends every case once against a LOCAL server, with a
 * `/health` probe fired while the case is in flight, and counts:
 *  - tried: cases sent;
 *  - refused: answered with the expected refusal (a problem+json 4xx, or the tool's own error observation);
 *  - slow: the case took longer than `slowMs` (2 s), or the concurrent `/health` probe longer than `probeMs` (1 s);
 *  - leaked: a 5xx, a stack trace, a JavaScript value or data from outside the world's mirror tables.
 * A hardened server refuses every case (refused = tried) with 0 slow and 0 leaked.
 * A case is one request; categories are plain functions from the context to cases, so a new category (the
 * ownership phase's foreign-key access) is one more entry in `CATEGORIES`.
 * Used by `npm run hostile` (scripts/hostile.ts) and the e2e test test/e2e/hostile.test.ts.
 */

import { initialState } from '../../core/world/kernel/state.ts';

/** ToolQA-D's SQLInterpreter error observation (spec §3.9/§3.13). */
const SQL_ERROR = 'There is something wrong with the SQL command you send. Please modify it.';

export interface HostileContext {
  baseUrl: string;
  key: string;
  /** A fresh P_c session id (one per call, so step budgets never run out). */
  session(): Promise<string>;
}

export interface HostileCase {
  category: string;
  name: string;
  /** Path and request to send. */
  path: string | ((ctx: HostileContext) => Promise<string>);
  init: RequestInit;
  /** Whether the answer is the refusal this case expects. */
  refused(status: number, body: string): boolean;
}

export interface CaseResult {
  category: string;
  name: string;
  status: number;
  ms: number;
  healthMs: number;
  refused: boolean;
  slow: boolean;
  leaked: boolean;
  excerpt: string;
}

export interface HostileReport {
  tried: number;
  refused: number;
  slow: number;
  leaked: number;
  results: CaseResult[];
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

const observation = (body: string): string | undefined => {
  try {
    const parsed = JSON.parse(body) as { observation?: unknown; detail?: unknown };
    return typeof parsed.observation === 'string' ? parsed.observation : undefined;
  } catch {
    return undefined;
  }
};

/** A problem+json 4xx with this status. */
const problemWith =
  (status: number) =>
  (got: number, body: string): boolean =>
    got === status && /"type":"\/problems\//.test(body);

const deep = (levels: number, leaf = '1'): string => `${'['.repeat(levels)}${leaf}${']'.repeat(levels)}`;

// ------------------------------------------------------------------------------------------------ categories

function sqlCases(): HostileCase[] {
  const queries: [string, string][] = [
    ['flights cross join', 'SELECT count(*) FROM flights_data a, flights_data b'],
    ['flights three-way cross join', 'SELECT count(*) FROM flights_data a, flights_data b, flights_data c'],
    [
      'yelp self-join on a low-cardinality column',
      'SELECT count(*) FROM yelp_data a JOIN yelp_data b ON a.stars = b.stars JOIN yelp_data c ON b.stars = c.stars',
    ],
    ['CTE self cross join', 'WITH c AS (SELECT * FROM flights_data) SELECT count(*) FROM c a, c b'],
    [
      'correlated EXISTS',
      'SELECT count(*) FROM flights_data a WHERE EXISTS (SELECT 1 FROM flights_data b WHERE b.DepDelay > a.DepDelay)',
    ],
    [
      'group_concat over a cross join',
      'SELECT length(group_concat(a.Origin)) FROM flights_data a, flights_data b',
    ],
    [
      'recursive row generator',
      'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n',
    ],
    [
      'self-referencing CTE without RECURSIVE',
      'WITH n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n',
    ],
    ['table-valued generator', 'SELECT count(*) FROM generate_series(1, 100000000)'],
    ['huge printf width', "SELECT printf('%.1000000000d', 1)"],
    [
      'replace blow-up',
      "SELECT replace(replace(Origin, 'A', 'AAAAAAAAAAAA'), 'A', 'AAAAAAAAAAAA') FROM flights_data",
    ],
    ['zeroblob', 'SELECT zeroblob(1000000000)'],
    ['randomblob', 'SELECT length(randomblob(1000000000))'],
    ['schema introspection', 'SELECT name, sql FROM sqlite_master'],
    ['pragma function', "SELECT * FROM pragma_table_info('tasks')"],
    ['application table: task gold answers', 'SELECT gold FROM tasks'],
    ['D1 migrations table', 'SELECT * FROM d1_migrations'],
    ['write', 'DELETE FROM flights_data'],
    ['second statement', 'SELECT 1; DROP TABLE flights_data'],
    ['attach', "ATTACH DATABASE 'x.db' AS x"],
    ['load_extension', "SELECT load_extension('x')"],
    ['comment hiding a join', 'SELECT count(*) FROM flights_data a /* , */, flights_data b'],
  ];
  const kernel = queries.map(
    ([name, sql]): HostileCase => ({
      category: 'sql',
      name: `kernel: ${name}`,
      path: '/v1/kernel/call',
      init: json({ tool: 'SQLInterpreter', args: { SQL: sql } }),
      refused: (status, body) => status === 200 && observation(body) === SQL_ERROR,
    }),
  );
  const viaSession = queries.slice(0, 3).map(
    ([name, sql]): HostileCase => ({
      category: 'sql',
      name: `session step: ${name}`,
      path: async (ctx) => `/v1/sessions/${await ctx.session()}/step`,
      init: json({ action: 'SQLInterpreter', action_input: { SQL: sql } }),
      refused: (status, body) => status === 200 && observation(body) === SQL_ERROR,
    }),
  );
  return [...kernel, ...viaSession];
}

function pythonCases(): HostileCase[] {
  const python = (name: string, code: string, expected: RegExp, state?: unknown): HostileCase => ({
    category: 'python',
    name,
    path: '/v1/kernel/call',
    init: json({
      tool: 'PythonInterpreter',
      args: { Python: code },
      ...(state === undefined ? {} : { state: { ...EMPTY_STATE, python: state } }),
    }),
    refused: (status, body) => status === 200 && expected.test(observation(body) ?? ''),
  });
  const timeout = /^TimeoutError: /;
  const forgedSet = {
    v: 1,
    vars: [['x', { r: 0 }]],
    heap: [
      { t: 'set', frozen: false, mask: 2 ** 28 - 1, fill: 1, finger: 0, v: [[1, { i: '1' }]], dummies: [] },
    ],
  };
  const ref = (r: string) => ({ v: 1, vars: [['x', { r }]], heap: [] });
  return [
    python('600 KB of pass', 'pass\n'.repeat(120_000), /^MemoryError: the program is longer/),
    python('600 KB of pass ending in a syntax error', `${'pass\n'.repeat(120_000)}x = (`, /^MemoryError: /),
    python('60,000 short lines', 'x=1\n'.repeat(60_000), /^MemoryError: /),
    python(
      'RecursionError caught in a loop',
      'def f(n):\n try:\n  return f(n + 1)\n except Exception:\n  return f(n + 1)\nf(0)',
      timeout,
    ),
    python(
      'RecursionError caught at the top, 100,000 times',
      'def g(n):\n  return g(n + 1)\nfor i in range(100000):\n  try:\n    g(0)\n  except Exception:\n    pass',
      timeout,
    ),
    python(
      'ZeroDivisionError caught a million times',
      'for i in range(10**6):\n  try:\n    1/0\n  except Exception:\n    pass',
      timeout,
    ),
    python('infinite loop', 'while True:\n  pass', timeout),
    python('huge list', 'x = [0] * 10**9\nprint(len(x))', /^MemoryError/),
    python(
      'huge int',
      'print(len(str(2 ** 10 ** 9)))',
      /^(MemoryError|OverflowError|ValueError|TimeoutError)/,
    ),
    python('string doubling', "s = 'x'\nwhile True:\n  s = s + s", /^(MemoryError|TimeoutError)/),
    python(
      'deep parentheses',
      `print(${'('.repeat(5000)}1${')'.repeat(5000)})`,
      /^(RecursionError|SyntaxError|MemoryError)/,
    ),
    python('dunder escape', 'print(().__class__.__bases__[0].__subclasses__())', /^AttributeError/),
    python('import os', "import os\nprint(os.listdir('/'))", /^ModuleNotFoundError/),
    python('open a file', "print(open('/etc/passwd').read())", /^NameError/),
    python('forged set table (mask 2^28)', 'x.add(9)\nprint(len(x))', /^NameError/, forgedSet),
    python('heap reference "constructor"', 'print(x)', /^NameError/, ref('constructor')),
    python('heap reference "__proto__"', 'print(x)', /^NameError/, ref('__proto__')),
    python('heap reference "toString"', 'print(x)', /^NameError/, ref('toString')),
    python('a 400,000-digit int in the state', 'print(x)', /^NameError/, {
      v: 1,
      vars: [['x', { i: '9'.repeat(400_000) }]],
      heap: [],
    }),
  ];
}

const EMPTY_STATE = initialState();

function jsonCases(): HostileCase[] {
  const nested5000 = deep(5000);
  const bad400 = problemWith(400);
  return [
    {
      category: 'json',
      name: '5,000 levels to /tools/LoadDB',
      path: async (ctx) => `/v1/sessions/${await ctx.session()}/tools/LoadDB`,
      init: json(`{"DBName": ${nested5000}}`),
      refused: bad400,
    },
    {
      category: 'json',
      name: '5,000 levels in action_input',
      path: async (ctx) => `/v1/sessions/${await ctx.session()}/step`,
      init: json(`{"action": "LoadDB", "action_input": {"DBName": ${nested5000}}}`),
      refused: bad400,
    },
    {
      category: 'json',
      name: '5,000 levels in action_input JSON text',
      path: async (ctx) => `/v1/sessions/${await ctx.session()}/step`,
      init: json({ action: 'LoadDB', action_input: `{"DBName": ${nested5000}}` }),
      refused: (status, body) =>
        (status === 200 && /error|wrong|invalid/i.test(observation(body) ?? '')) || bad400(status, body),
    },
    {
      category: 'json',
      name: '800 levels (under the decoder limit) in action_input JSON text',
      path: async (ctx) => `/v1/sessions/${await ctx.session()}/step`,
      init: json({ action: 'LoadDB', action_input: `{"DBName": ${deep(800)}}` }),
      // decoded, then refused by LoadDB itself
      refused: (status, body) => status === 200 && /not in the list/.test(observation(body) ?? ''),
    },
    {
      category: 'json',
      name: '5,000 levels in ReAct Action Input',
      path: async (ctx) => `/v1/sessions/${await ctx.session()}/step`,
      init: json({ text: `Thought: x\nAction: LoadDB\nAction Input: {"DBName": ${nested5000}}` }),
      refused: (status, body) =>
        (status === 200 && /error|wrong|invalid/i.test(observation(body) ?? '')) || bad400(status, body),
    },
    {
      category: 'json',
      name: '5,000 levels in kernel args',
      path: '/v1/kernel/call',
      init: json(`{"tool": "LoadDB", "args": {"DBName": ${nested5000}}}`),
      refused: bad400,
    },
    {
      category: 'json',
      name: '5,000 levels in state.python',
      path: '/v1/kernel/call',
      init: json(
        `{"tool": "PythonInterpreter", "args": {"Python": "print(1)"}, "state": ${JSON.stringify({ ...EMPTY_STATE, python: null }).replace('"python":null', `"python":${nested5000}`)}}`,
      ),
      refused: bad400,
    },
    {
      category: 'json',
      name: '100,000 levels as the whole body',
      path: '/v1/kernel/call',
      init: json(deep(100_000)),
      refused: bad400,
    },
    {
      category: 'json',
      name: 'body over the size limit',
      path: '/v1/kernel/call',
      init: json({ tool: 'LoadDB', args: { DBName: 'x'.repeat(1_100_000) } }),
      refused: problemWith(413),
    },
  ];
}

/** Every category, by name; the ownership phase adds `foreign-key`. */
export const CATEGORIES: Record<string, () => HostileCase[]> = {
  sql: sqlCases,
  python: pythonCases,
  json: jsonCases,
};

// ------------------------------------------------------------------------------------------------ running

const LEAK_PATTERNS: RegExp[] = [
  /\[native code\]/,
  /\bfunction [A-Za-z]*\(/,
  /\n\s+at .+:\d+:\d+/, // a JS stack trace
  /RangeError|Maximum call stack/,
  /TOP-SECRET|sqlite_master|CREATE TABLE/,
];

/** Waits as a 429's Retry-After says (1–30 s). */
const pause = (seconds: number) =>
  new Promise((r) => setTimeout(r, Math.min(30, Math.max(1, seconds)) * 1000));

/** Only a server on this machine: the corpus is heavy by design. */
export function assertLocal(baseUrl: string): void {
  const host = new URL(baseUrl).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host)) {
    throw new Error(`refusing to send the hostile corpus to ${host}: only 127.0.0.1/localhost`);
  }
}

export async function runHostile(
  options: {
    baseUrl: string;
    key: string;
    categories?: string[];
    slowMs?: number;
    probeMs?: number;
    timeoutMs?: number;
  },
  onResult?: (r: CaseResult) => void,
): Promise<HostileReport> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  assertLocal(baseUrl);
  const slowMs = options.slowMs ?? 2000;
  const probeMs = options.probeMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const auth = { authorization: `Bearer ${options.key}` };
  const ctx: HostileContext = {
    baseUrl,
    key: options.key,
    async session() {
      for (let attempt = 0; attempt < 10; attempt++) {
        const res = await fetch(`${baseUrl}/v1/sessions`, {
          ...json({ seed: 'hostile', surface: 'pc', stepBudget: 200 }),
          headers: { 'content-type': 'application/json', ...auth },
        });
        if (res.status === 201) return ((await res.json()) as { id: string }).id;
        if (res.status !== 429)
          throw new Error(`could not create a session: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        await pause(Number(res.headers.get('retry-after')) || 1);
      }
      throw new Error('could not create a session: still rate-limited');
    },
  };

  /** Sends one case with a /health probe fired while it is in flight. */
  const sendCase = async (
    c: HostileCase,
    url: string,
    init: RequestInit,
  ): Promise<CaseResult & { retryAfter: number }> => {
    const started = performance.now();
    const attack = fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
      .then(async (res) => ({
        status: res.status,
        body: await res.text(),
        retryAfter: Number(res.headers.get('retry-after')) || 1,
      }))
      .catch((e: unknown) => ({ status: 0, body: `request failed: ${String(e)}`, retryAfter: 0 }));
    await new Promise((r) => setTimeout(r, 50));
    const probeStarted = performance.now();
    const healthMs = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(timeoutMs) })
      .then(async (res) => {
        await res.arrayBuffer();
        return performance.now() - probeStarted;
      })
      .catch(() => Number.POSITIVE_INFINITY);
    const { status, body, retryAfter } = await attack;
    const ms = performance.now() - started;
    return {
      category: c.category,
      name: c.name,
      status,
      ms: Math.round(ms),
      healthMs: Math.round(healthMs),
      refused: c.refused(status, body),
      slow: ms > slowMs || healthMs > probeMs,
      leaked: status >= 500 || LEAK_PATTERNS.some((p) => p.test(body)),
      excerpt: body.slice(0, 200),
      retryAfter,
    };
  };
  // Warm-up, not counted: the first request of an isolate generates the world (seconds at scale 1).
  for (const call of [
    { tool: 'LoadDB', args: { DBName: 'coffee' } },
    { tool: 'PythonInterpreter', args: { Python: 'print(1)' } },
  ]) {
    const res = await fetch(`${baseUrl}/v1/kernel/call`, {
      ...json(call),
      headers: { 'content-type': 'application/json', ...auth },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer();
  }
  const names = options.categories ?? Object.keys(CATEGORIES);
  const results: CaseResult[] = [];
  for (const name of names) {
    const make = CATEGORIES[name];
    if (!make) throw new Error(`unknown category ${name} (known: ${Object.keys(CATEGORIES).join(', ')})`);
    for (const c of make()) {
      const path = typeof c.path === 'string' ? c.path : await c.path(ctx);
      const headers = new Headers(c.init.headers);
      headers.set('authorization', auth.authorization);
      let result = await sendCase(c, `${baseUrl}${path}`, { ...c.init, headers });
      // A 429 is the rate limiter, not the case's answer: wait as told and send the case again (bounded).
      for (let retry = 0; result.status === 429 && retry < 10; retry++) {
        await pause(result.retryAfter);
        result = await sendCase(c, `${baseUrl}${path}`, { ...c.init, headers });
      }
      const { retryAfter: _, ...reported } = result;
      results.push(reported);
      onResult?.(reported);
    }
  }
  return {
    tried: results.length,
    refused: results.filter((r) => r.refused).length,
    slow: results.filter((r) => r.slow).length,
    leaked: results.filter((r) => r.leaked).length,
    results,
  };
}
