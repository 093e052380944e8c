/** `tooldrift draft run|status|docs` against a fake API: request bodies, the progress bar, reports, exit codes. */
import { afterEach, describe, expect, it } from 'vitest';
import type { DraftRunView } from '../../../cli/commands/draft.ts';
import { type FakeApi, fakeApi, type Handler, runCli, sendJson } from './harness.ts';

const env = { TOOLDRIFT_KEY: 'k' };
let fake: FakeApi | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});
async function start(routes: Record<string, Handler>): Promise<FakeApi> {
  fake = await fakeApi(routes);
  return fake;
}

function run(status: string, done: number): DraftRunView {
  return {
    id: 'dr_1',
    status,
    surface: 's-in',
    docsetId: status === 'succeeded' ? 'docset-dr_1' : null,
    progress: { tools: 2, done, modelCalls: 4 * done },
    tools: [
      {
        key: 'LoadDB',
        status: done > 0 ? 'succeeded' : 'running',
        iteration: 2,
        modelCalls: 6,
        deltas:
          done > 0
            ? [
                { iteration: 1, delta: 0.5781 },
                { iteration: 2, delta: 1 },
              ]
            : [],
        stop: done > 0 ? 'converged' : null,
      },
      {
        key: 'FilterDB',
        status: done > 1 ? 'succeeded' : 'running',
        iteration: 1,
        modelCalls: 3,
        deltas: done > 1 ? [{ iteration: 1, delta: 0.767 }] : [],
        stop: done > 1 ? 'converged' : null,
      },
    ],
  };
}

describe('tooldrift draft', () => {
  it('run: posts the flags, shows finished tools while polling, prints Δ per iteration and stop reasons', async () => {
    let polls = 0;
    const api = await start({
      'POST /v1/draft/runs': (_req, res) => sendJson(res, 202, run('queued', 0)),
      'GET /v1/draft/runs/dr_1': (_req, res) => {
        polls++;
        sendJson(res, 200, polls < 2 ? run('running', 1) : run('succeeded', 2));
      },
    });
    const r = await runCli(
      [
        'draft',
        'run',
        '--url',
        api.url,
        '--surface',
        's-in',
        '--tools',
        'LoadDB,FilterDB',
        '--iterations',
        '3',
        '--no-diversity',
        '--seed',
        'x',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    expect(api.requests[0]?.body).toEqual({
      surface: 's-in',
      tools: ['LoadDB', 'FilterDB'],
      options: { iterations: 3, diversity: false, seed: 'x' },
    });
    expect(r.stderr).toBe(
      'draft dr_1: 0/2 tools 0%, 0:00 elapsed 0 model calls\ndraft dr_1: 2/2 tools 100%, 0:02 elapsed succeeded\n',
    );
    expect(r.stdout).toBe(
      [
        'DRAFT run dr_1 — succeeded: 2/2 tools on s-in, 8 model calls',
        'tool      status     stop            calls  Δ per iteration',
        'LoadDB    succeeded  converged           6  0.578 → 1.000',
        'FilterDB  succeeded  converged           3  0.767',
        'Documentation: tooldrift draft docs docset-dr_1',
        '',
      ].join('\n'),
    );
  });

  it('run on an imported API: `--tools all` asks for every operation explicitly, --setup-calls is an option', async () => {
    const api = await start({
      'POST /v1/draft/runs': (_req, res) => sendJson(res, 202, { ...run('queued', 0), surface: 'tmdb-1' }),
    });
    const r = await runCli(
      [
        'draft',
        'run',
        '--url',
        api.url,
        '--surface',
        'tmdb-1',
        '--tools',
        'all',
        '--setup-calls',
        '1',
        '--no-wait',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    expect(api.requests[0]?.body).toEqual({ surface: 'tmdb-1', tools: 'all', options: { setupCalls: 1 } });
    const ste = await runCli(
      ['ste', 'run', '--url', api.url, '--surface', 'tmdb-1', '--tools', 'all', '--no-wait'],
      {
        env,
      },
    );
    expect(api.requests[1]).toMatchObject({
      path: '/v1/ste/runs',
      body: { surface: 'tmdb-1', tools: 'all' },
    });
    expect(ste.code).not.toBe(2);
  });

  it('status and docs: the report, the prompt-style list labelled as simulator output, and a diff', async () => {
    const api = await start({
      'GET /v1/draft/runs/dr_1': (_req, res) => sendJson(res, 200, run('failed', 1)),
      'GET /v1/docsets/docset-dr_1': (req, res) =>
        sendJson(res, 200, {
          id: 'docset-dr_1',
          format: req.query.format,
          simulated: true,
          text: '(1) A[x], which a.',
        }),
      'GET /v1/docsets/docset-dr_1/diff': (_req, res) =>
        sendJson(res, 200, {
          against: 'docset-0',
          tools: [
            {
              key: 'LoadDB',
              before: 'LoadDB[DBName], old',
              after: 'InitializeDatabase[DatabaseName], new',
              changed: true,
            },
            { key: 'Finish', before: 'Finish[answer], f', after: 'Finish[answer], f', changed: false },
          ],
        }),
    });
    const status = await runCli(['draft', 'status', 'dr_1', '--url', api.url], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('DRAFT run dr_1 — failed: 1/2 tools on s-in');
    const docs = await runCli(['draft', 'docs', 'docset-dr_1', '--url', api.url], { env });
    expect(docs.stdout).toBe('# written with the simulator (tooldrift-sim-v1)\n(1) A[x], which a.\n');
    expect(api.requests.at(-1)?.query).toEqual({ format: 'prompt' });
    const diff = await runCli(['draft', 'docs', 'docset-dr_1', '--against', 'parent', '--url', api.url], {
      env,
    });
    expect(diff.stdout).toBe(
      '1 of 2 tools changed since docset-0\n\nLoadDB\n- LoadDB[DBName], old\n+ InitializeDatabase[DatabaseName], new\n',
    );
    expect(api.requests.at(-1)?.query).toEqual({ against: 'parent' });
  });

  it('says which tools the server did not confirm: in the run report and beside the documentation', async () => {
    const failed = run('succeeded', 2);
    (failed.tools[0] as DraftRunView['tools'][number]).stop = 'rewrite-failed';
    (failed.tools[1] as DraftRunView['tools'][number]).stop = 'no-success';
    const api = await start({
      'GET /v1/draft/runs/dr_1': (_req, res) => sendJson(res, 200, failed),
      'GET /v1/docsets/docset-dr_1': (req, res) =>
        sendJson(res, 200, {
          id: 'docset-dr_1',
          format: req.query.format,
          simulated: false,
          text: '(1) DoFilter[condition], which filters.',
          flagged: [
            {
              key: 'LoadDB',
              name: 'LoadDB',
              stop: 'rewrite-failed',
              flags: ['rewrite-failed', 'no-success', 'not-served'],
              current: false,
            },
            { key: 'FilterDB', name: 'DoFilter', stop: 'no-success', flags: ['no-success'], current: true },
          ],
        }),
      'POST /v1/draft/runs': (_req, res) => sendJson(res, 202, failed),
    });
    const status = await runCli(['draft', 'status', 'dr_1', '--url', api.url], { env });
    expect(status.stdout).toContain(
      'Not confirmed by the server (not converged): LoadDB (rewrite-failed), FilterDB (no-success)\n',
    );
    expect(status.stdout).toMatch(/LoadDB\s+succeeded\s+rewrite-failed/);
    const docs = await runCli(['draft', 'docs', 'docset-dr_1', '--url', api.url], { env });
    expect(docs.stdout).toBe(
      [
        '(1) DoFilter[condition], which filters.',
        '# left out, not current documentation: LoadDB (LoadDB) — the last rewrite changed nothing after a failed call; no exploration succeeded; the server does not serve this name',
        '# unconfirmed: DoFilter (FilterDB) — no exploration succeeded',
        '',
      ].join('\n'),
    );
    await runCli(
      [
        'draft',
        'run',
        '--url',
        api.url,
        '--surface',
        's-ood',
        '--failed-rewrite',
        'retry',
        '--encoder',
        'lexical',
        '--no-wait',
      ],
      { env },
    );
    expect(api.requests.at(-1)?.body).toEqual({
      surface: 's-ood',
      options: { failedRewrite: 'retry', encoder: 'lexical' },
    });
  });

  it('exits 1 on a failed run and 2 on bad usage', async () => {
    const api = await start({ 'POST /v1/draft/runs': (_req, res) => sendJson(res, 202, run('failed', 0)) });
    expect((await runCli(['draft', 'run', '--url', api.url, '--surface', 's-in'], { env })).code).toBe(1);
    expect((await runCli(['draft', 'run', '--url', api.url], { env })).code).toBe(2);
    expect((await runCli(['draft', 'status', '--url', api.url], { env })).code).toBe(2);
    expect((await runCli(['draft', 'docs', 'x', '--format', 'yaml', '--url', api.url], { env })).code).toBe(
      2,
    );
    expect((await runCli(['draft', 'nope', '--url', api.url], { env })).code).toBe(2);
    expect((await runCli(['draft', '--help'], { env })).code).toBe(0);
  });
});
