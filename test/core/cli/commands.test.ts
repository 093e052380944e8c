/**
 * The CLI against a fake tooldrift API (node:http): flags become the documented request bodies, the key goes
 * only into the Authorization header, evaluations and explorations are polled to the end, exports are streamed
 * to a file, and every failure (401, 400 problem, non-JSON error, connection refused) prints a clear message
 * with the right exit code.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EvalSummary, Exploration, Schedule } from '../../../cli/api-types.ts';
import { evalReport } from '../../../cli/table.ts';
import { evalDetail } from './fixtures.ts';
import { type FakeApi, fakeApi, type Handler, runCli, sendJson } from './harness.ts';

const KEY = 'secret-test-key-123';
const env = { TOOLDRIFT_KEY: KEY };
let api: FakeApi | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function start(routes: Record<string, Handler>): Promise<FakeApi> {
  api = await fakeApi(routes);
  return api;
}

/** An evaluation that is running for `polls` GETs, then done. */
function evalRoutes(polls: number): Record<string, Handler> {
  let seen = 0;
  return {
    'POST /v1/evals': (_req, res) =>
      sendJson(res, 202, {
        id: 'ev_1',
        status: 'running',
        progress: { done: 0, total: 32 },
        links: { self: '/v1/evals/ev_1', results: '/v1/evals/ev_1/results' },
      }),
    'GET /v1/evals/ev_1': (_req, res) => {
      seen++;
      const done = seen > polls;
      sendJson(
        res,
        200,
        evalDetail(
          done ? {} : { status: 'running', finishedAt: null, progress: { done: seen * 8, total: 32 } },
        ),
      );
    },
  };
}

describe('tooldrift eval', () => {
  it('posts the suite the flags describe, polls to the end and prints the tables', async () => {
    const fake = await start(evalRoutes(2));
    const run = await runCli(
      [
        'eval',
        '--url',
        fake.url,
        '--surfaces',
        'pc,s-in,s-ood',
        '--methods',
        'greedy,greedy-memory',
        '--datasets',
        'flights, coffee',
        '--difficulties',
        'hard',
        '--sample',
        '2',
        '--max-steps',
        '12',
        '--seed',
        '7',
        '--mcts-k',
        '2',
        '--model-provider',
        'sim',
        '--temperature',
        '0.5',
      ],
      { env },
    );
    expect(run.code).toBe(0);
    expect(fake.requests[0]?.body).toEqual({
      surfaces: ['pc', 's-in', 's-ood'],
      methods: ['greedy', 'greedy-memory'],
      datasets: ['flights', 'coffee'],
      difficulties: ['hard'],
      sampleSize: 2,
      maxSteps: 12,
      seed: '7',
      mcts: { k: 2 },
      model: { provider: 'sim', temperature: 0.5 },
    });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/evals',
      'GET /v1/evals/ev_1',
      'GET /v1/evals/ev_1',
      'GET /v1/evals/ev_1',
    ]);
    expect(fake.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(run.stdout).toBe(evalReport(evalDetail()));
    // Non-TTY progress: plain lines, no escape codes, the final state last.
    expect(run.stderr).not.toContain('\x1b');
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(
      'eval ev_1: 32/32 task runs 100%, 0:02 elapsed done',
    );
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });

  it('overlays flags on --suite and sends an empty suite when nothing is given', async () => {
    const fake = await start(evalRoutes(0));
    const dir = mkdtempSync(join(tmpdir(), 'tooldrift-cli-'));
    const file = join(dir, 'suite.json');
    writeFileSync(
      file,
      JSON.stringify({ name: 'base', sampleSize: 3, mcts: { simulations: 4 }, model: { k: 2 } }),
    );
    await runCli(['eval', '--url', fake.url, '--suite', file, '--sample', '1', '--mcts-depth', '5'], { env });
    await runCli(['eval', '--url', fake.url, '--key', KEY], {});
    const posts = fake.requests.filter((r) => r.method === 'POST').map((r) => r.body);
    expect(posts).toEqual([
      { name: 'base', sampleSize: 1, mcts: { simulations: 4, maxDepth: 5 }, model: { k: 2 } },
      {},
    ]);
  });

  it('--prompt, --few-shots and --drift-hint set the ReAct options of every listed ReAct method', async () => {
    const fake = await start(evalRoutes(0));
    await runCli(['eval', '--url', fake.url, '--prompt', 'sft'], { env });
    await runCli(
      [
        'eval',
        '--url',
        fake.url,
        '--methods',
        'greedy,react-reflexion,mcts',
        '--few-shots',
        'fixed',
        '--drift-hint',
      ],
      { env },
    );
    const posts = fake.requests.filter((r) => r.method === 'POST').map((r) => r.body);
    expect(posts).toEqual([
      { greedy: { prompt: 'sft' } },
      {
        methods: ['greedy', 'react-reflexion', 'mcts'],
        greedy: { fewShots: 'fixed', driftHint: true },
        'react-reflexion': { fewShots: 'fixed', driftHint: true },
      },
    ]);
    // A bad value meets the API's own schema: exit 2, the field named, nothing sent.
    const bad = await runCli(['eval', '--url', fake.url, '--prompt', 'chat'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('greedy.prompt');
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
  });

  it('--json prints the final evaluation as JSON; --no-wait returns after the POST', async () => {
    const fake = await start(evalRoutes(1));
    const json = await runCli(['eval', '--url', fake.url, '--json'], { env });
    expect(JSON.parse(json.stdout)).toEqual(evalDetail());
    const before = fake.requests.length;
    const noWait = await runCli(['eval', '--url', fake.url, '--no-wait'], { env });
    expect(noWait.code).toBe(0);
    expect(noWait.stdout).toBe(
      `Started evaluation ev_1 (32 task runs).\nFollow it with: tooldrift evals show ev_1 --url ${fake.url}\n`,
    );
    expect(fake.requests.slice(before).map((r) => r.method)).toEqual(['POST']);
  });

  it('exits 1 and still prints the tables when the evaluation was cancelled', async () => {
    const fake = await start({
      ...evalRoutes(0),
      'GET /v1/evals/ev_1': (_req, res) => sendJson(res, 200, evalDetail({ status: 'cancelled' })),
    });
    const run = await runCli(['eval', '--url', fake.url], { env });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Evaluation ev_1 "nightly" — cancelled');
  });

  it('draws the bar in place on a terminal', async () => {
    const fake = await start(evalRoutes(1));
    const run = await runCli(['eval', '--url', fake.url], { env, tty: true });
    expect(run.stderr).toBe(
      `\r\x1b[2Keval ev_1 [#######-----------------------] 8/32 task runs 25% 0:00` +
        `\r\x1b[2Keval ev_1 [##############################] 32/32 task runs 100% 0:01 done\n`,
    );
  });
});

describe('errors', () => {
  it('prints a 401 problem as `<title>: <detail>` and exits 1', async () => {
    const fake = await start({
      'POST /v1/evals': (_req, res) =>
        sendJson(res, 401, {
          type: '/problems/unauthorized',
          title: 'Missing or invalid API key',
          status: 401,
          detail: 'The API key is not valid.',
          requestId: 'req-1',
        }),
    });
    const run = await runCli(['eval', '--url', fake.url, '--key', 'wrong-key-xyz'], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Missing or invalid API key: The API key is not valid.\n  (request id req-1)\n');
    expect(run.stderr).not.toContain('wrong-key-xyz');
  });

  it('prints every field error of a 400 problem', async () => {
    const fake = await start({
      'POST /v1/evals': (_req, res) =>
        sendJson(res, 400, {
          type: '/problems/validation-error',
          title: 'Request validation failed',
          status: 400,
          detail: 'Unknown surface s-nope.',
          errors: [
            { in: 'body', field: 'surfaces', pointer: '/surfaces', message: 'no surface named s-nope' },
            { in: 'body', field: '', pointer: '/', message: 'too many task runs' },
          ],
        }),
    });
    const run = await runCli(['eval', '--url', fake.url, '--surfaces', 's-nope'], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'Request validation failed: Unknown surface s-nope.\n' +
        '  - --surfaces: no surface named s-nope\n' +
        '  - body: too many task runs\n',
    );
  });

  it('describes a non-problem error response by its status and body', async () => {
    const fake = await start({
      'GET /v1/evals': (_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>\n  Bad gateway </html>');
      },
    });
    const run = await runCli(['evals', 'list', '--url', fake.url], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('HTTP 502 Bad Gateway: <html> Bad gateway </html>\n');
  });

  it('says clearly when nothing listens at the URL', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const run = await runCli(['evals', 'list', '--url', `http://127.0.0.1:${port}`], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `Cannot reach tooldrift at http://127.0.0.1:${port} (ECONNREFUSED). Is it running? ` +
        'Start a local instance with `npm start`, or pass --url.\n',
    );
  });

  it('rejects a missing key, a bad URL, unknown flags and unknown commands with exit code 2', async () => {
    expect(await runCli(['evals', 'list'], {})).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'No API key: set TOOLDRIFT_KEY (or pass --key). A local `npm start` instance accepts dev-user-key.\n',
    });
    expect((await runCli(['evals', 'list', '--url', 'ftp://x'], { env })).stderr).toBe(
      '--url must be an http(s) URL, got "ftp://x".\n',
    );
    const unknown = await runCli(['eval', '--samples', '3'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("Unknown option '--samples'\nRun `tooldrift eval --help` for the options.\n");
    const command = await runCli(['evaluate'], { env });
    expect(command.code).toBe(2);
    expect(command.stderr.split('\n')[0]).toBe('Unknown command "evaluate".');
  });

  it('uses TOOLDRIFT_URL when --url is absent', async () => {
    const fake = await start({
      'GET /v1/evals': (_req, res) => sendJson(res, 200, { items: [], nextCursor: null }),
    });
    const run = await runCli(['evals', 'list'], { env: { ...env, TOOLDRIFT_URL: fake.url } });
    expect(run).toEqual({ code: 0, stdout: 'No evaluations yet.\n', stderr: '' });
  });
});

describe('tooldrift explore', () => {
  function exploration(status: Exploration['status'], done: number): Exploration {
    return {
      id: 'ex_1',
      status,
      trees: 4,
      counts: { queued: 4 - done, running: 0, done, failed: 0, cancelled: 0 },
      solved: done > 2 ? 3 : 0,
      successRate: done > 0 ? (done > 2 ? 0.75 : 0) : null,
      usage: { nodes: 40, iterations: 48, modelCalls: 90, inputTokens: 9000, outputTokens: 800 },
      config: {},
      createdAt: '2026-11-20T03:00:00Z',
      updatedAt: '2026-11-20T03:01:00Z',
      links: {},
    };
  }

  it('posts tasks and search settings, polls until the trees finish and reports', async () => {
    let polls = 0;
    const fake = await start({
      'POST /v1/explorations': (_req, res) => sendJson(res, 202, exploration('queued', 0)),
      'GET /v1/explorations/ex_1': (_req, res) => {
        polls++;
        sendJson(res, 200, polls < 2 ? exploration('running', 2) : exploration('succeeded', 4));
      },
    });
    const run = await runCli(
      [
        'explore',
        '--url',
        fake.url,
        '--dataset',
        'coffee',
        '--difficulty',
        'easy',
        '--limit',
        '2',
        '--trees',
        '2',
        '--k',
        '3',
        '--simulations',
        '6',
        '--depth',
        '10',
        '--surface',
        's-in',
        '--seed',
        'x',
      ],
      { env },
    );
    expect(run.code).toBe(0);
    expect(fake.requests[0]?.body).toEqual({
      tasks: { dataset: 'coffee', difficulty: 'easy', limit: 2 },
      surface: 's-in',
      treesPerTask: 2,
      search: { k: 3, simulations: 6, maxDepth: 10 },
      seed: 'x',
    });
    expect(run.stdout).toBe(
      'Exploration ex_1 — succeeded: 4 trees (4 done, 0 failed, 0 cancelled, 0 running, 0 queued)\n' +
        'Solved 3 of 4 finished trees: success rate 75.0%\n' +
        'Usage: 40 nodes, 48 iterations, 90 model calls, 9000 input + 800 output tokens\n' +
        `Export its trajectories: tooldrift export sft --exploration ex_1 --out sft.jsonl --url ${fake.url}\n`,
    );
    expect(run.stderr).toBe(
      'explore ex_1: 0/4 trees 0%, 0:00 elapsed 0 solved\nexplore ex_1: 4/4 trees 100%, 0:02 elapsed succeeded\n',
    );
  });

  it('sends task ids as a list and exits 1 when the exploration failed', async () => {
    const fake = await start({
      'POST /v1/explorations': (_req, res) => sendJson(res, 202, exploration('failed', 0)),
    });
    const run = await runCli(['explore', '--url', fake.url, '--tasks', 'a,b'], { env });
    expect(fake.requests[0]?.body).toEqual({ tasks: ['a', 'b'] });
    expect(run.code).toBe(1);
  });
});

describe('tooldrift export', () => {
  it('follows the pages of an export to one file, with the filters, and counts the records', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ messages: [], meta: { i } }));
    const fake = await start({
      'GET /v1/exports/sft.jsonl': (req, res) => {
        const page2 = req.query.cursor === 'p2';
        res.writeHead(200, {
          'content-type': 'application/x-ndjson',
          'x-total-count': '300',
          ...(page2
            ? {}
            : { link: '</v1/exports/sft.jsonl?exploration=ex_1&dataset=coffee&cursor=p2>; rel="next"' }),
        });
        if (!page2) {
          // Several chunks per page.
          res.write(`${lines.slice(0, 100).join('\n')}\n`);
          res.end(`${lines.slice(100, 150).join('\n')}\n`);
          return;
        }
        // The last record of the export without its newline: the file still ends with one.
        res.write(`${lines.slice(150, 299).join('\n')}\n`);
        res.end(lines[299]);
      },
    });
    const out = join(mkdtempSync(join(tmpdir(), 'tooldrift-cli-')), 'sft.jsonl');
    const run = await runCli(
      ['export', 'sft', '--url', fake.url, '--out', out, '--exploration', 'ex_1', '--dataset', 'coffee'],
      { env },
    );
    expect(run.code).toBe(0);
    expect(fake.requests.map((r) => r.query)).toEqual([
      { exploration: 'ex_1', dataset: 'coffee' },
      { exploration: 'ex_1', dataset: 'coffee', cursor: 'p2' },
    ]);
    const written = readFileSync(out, 'utf8');
    expect(written).toBe(`${lines.join('\n')}\n`);
    // Progress against the export's total (X-Total-Count), then the count of what was written.
    expect(run.stderr).toContain('export sft: 150/300 records');
    expect(run.stderr.endsWith(`Wrote 300 sft records (${written.length} bytes, 2 pages) to ${out}.\n`)).toBe(
      true,
    );
  });

  it('needs a kind and --out', async () => {
    expect((await runCli(['export', '--out', 'x'], { env })).code).toBe(2);
    expect((await runCli(['export', 'sft'], { env })).stderr).toBe('--out FILE is required.\n');
  });

  it('passes --selection to the SFT export (issue 25 item 9), and refuses it for dpo', async () => {
    const fake = await start({
      'GET /v1/exports/sft.jsonl': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.end('{"messages": []}\n');
      },
    });
    const out = join(mkdtempSync(join(tmpdir(), 'tooldrift-cli-')), 'sft.jsonl');
    const run = await runCli(['export', 'sft', '--url', fake.url, '--out', out, '--selection', 'clean'], {
      env,
    });
    expect(run.code).toBe(0);
    expect(fake.requests[0]?.query).toEqual({ selection: 'clean' });
    const dpo = await runCli(['export', 'dpo', '--url', fake.url, '--out', out, '--selection', 'clean'], {
      env,
    });
    expect(dpo.code).toBe(2);
    expect(dpo.stderr).toContain('--selection applies to `tooldrift export sft` only.');
    expect(fake.requests).toHaveLength(1);
  });
});

describe('tooldrift evals and schedules', () => {
  const summary: EvalSummary = {
    id: 'ev_2',
    name: 'nightly',
    status: 'done',
    createdAt: '2026-11-20T03:00:00.000Z',
    finishedAt: '2026-11-20T03:05:00.000Z',
    scheduleId: 'sc_1',
    dueTime: '2026-11-20T03:00:00.000Z',
    progress: { done: 42, total: 42 },
    successRate: 0.4286,
    flagged: true,
  };

  it('lists evaluations and shows one', async () => {
    const fake = await start({
      'GET /v1/evals': (_req, res) =>
        sendJson(res, 200, {
          items: [summary, { ...summary, id: 'ev_3', name: null }],
          nextCursor: null,
        }),
      'GET /v1/evals/ev_1': (_req, res) => sendJson(res, 200, evalDetail()),
    });
    const list = await runCli(['evals', 'list', '--url', fake.url, '--limit', '5', '--schedule', 'sc_1'], {
      env,
    });
    expect(fake.requests[0]?.query).toEqual({ limit: '5', scheduleId: 'sc_1' });
    expect(list.stdout).toBe(
      'id    name     status  progress  success %  flagged  created               schedule\n' +
        '----  -------  ------  --------  ---------  -------  --------------------  --------\n' +
        'ev_2  nightly  done       42/42       42.9  yes      2026-11-20T03:00:00Z  sc_1\n' +
        'ev_3           done       42/42       42.9  yes      2026-11-20T03:00:00Z  sc_1\n',
    );
    const show = await runCli(['evals', 'show', 'ev_1', '--url', fake.url], { env });
    expect(show.stdout).toBe(evalReport(evalDetail()));
  });

  it('creates a schedule from flags and lists schedules', async () => {
    const schedule: Schedule = {
      id: 'sc_1',
      name: 'nightly',
      cron: '0 3 * * *',
      suite: { sampleSize: 1 },
      threshold: 0.2,
      enabled: true,
      createdAt: '2026-11-20T02:00:00.000Z',
      nextDueAt: '2026-11-21T03:00:00.000Z',
      lastRun: summary,
    };
    const fake = await start({
      'POST /v1/schedules': (_req, res) => sendJson(res, 201, schedule),
      'GET /v1/schedules': (_req, res) => sendJson(res, 200, { items: [schedule], nextCursor: null }),
    });
    const created = await runCli(
      [
        'schedules',
        'create',
        '--url',
        fake.url,
        '--name',
        'nightly',
        '--cron',
        '0 3 * * *',
        '--threshold',
        '0.2',
        '--sample',
        '1',
        '--surfaces',
        'pc,s-ood',
      ],
      { env },
    );
    expect(created.code).toBe(0);
    expect(fake.requests[0]?.body).toEqual({
      name: 'nightly',
      cron: '0 3 * * *',
      threshold: 0.2,
      suite: { sampleSize: 1, surfaces: ['pc', 's-ood'] },
    });
    expect(created.stdout).toBe(
      'Created schedule sc_1 "nightly" (0 3 * * *, enabled); next run 2026-11-21T03:00:00Z.\n',
    );
    const list = await runCli(['schedules', 'list', '--url', fake.url], { env });
    expect(list.stdout).toBe(
      'id    name     cron       enabled  threshold  next due              last run              last success %\n' +
        '----  -------  ---------  -------  ---------  --------------------  --------------------  --------------\n' +
        'sc_1  nightly  0 3 * * *  yes           0.20  2026-11-21T03:00:00Z  ev_2 (done, flagged)            42.9\n',
    );
  });
});
