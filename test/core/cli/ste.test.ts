import { afterEach, describe, expect, it } from 'vitest';
import type { SteRun } from '../../../cli/api-types.ts';
import { type FakeApi, fakeApi, type Handler, runCli, sendJson } from './harness.ts';

const env = { TOOLDRIFT_KEY: 'secret-test-key-123' };
let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});
async function start(routes: Record<string, Handler>): Promise<FakeApi> {
  api = await fakeApi(routes);
  return api;
}

function steRun(status: SteRun['status'], trialsDone: number): SteRun {
  return {
    id: 'ste_1',
    status,
    surface: 's-ood',
    surfaceVersion: 'abc',
    docs: 's-ood',
    since: 's-in',
    trigger: null,
    progress: {
      tools: 1,
      toolsDone: status === 'running' ? 0 : 1,
      trialsDone,
      trialsTotal: 8,
      exemplars: 5,
      modelCalls: 40,
    },
    tools: [
      {
        tool: 'Init_DB',
        status,
        phase: 'query',
        trialsDone,
        trialsTotal: 8,
        solved: 6,
        kept: 5,
        dropped: 3,
        exemplars: 5,
        modelCalls: 40,
        error: null,
      },
    ],
    config: {},
    createdAt: '2026-11-20T03:00:00Z',
    updatedAt: '2026-11-20T03:01:00Z',
    links: {},
  };
}

describe('tooldrift ste', () => {
  it('run: posts the flags, shows a progress bar over trials and prints the per-tool table', async () => {
    let polls = 0;
    const fake = await start({
      'POST /v1/ste/runs': (_req, res) => sendJson(res, 202, steRun('queued', 0)),
      'GET /v1/ste/runs/ste_1': (_req, res) => {
        polls++;
        sendJson(res, 200, polls < 2 ? steRun('running', 4) : steRun('succeeded', 8));
      },
    });
    const run = await runCli(
      [
        'ste',
        'run',
        '--url',
        fake.url,
        '--surface',
        's-ood',
        '--since',
        's-in',
        '--episodes',
        '2',
        '--trials',
        '4',
        '--no-paraphrase',
        '--seed',
        'x',
      ],
      { env },
    );
    expect(run.code).toBe(0);
    expect(fake.requests[0]?.body).toEqual({
      surface: 's-ood',
      since: 's-in',
      seed: 'x',
      episodes: 2,
      trials: 4,
      paraphrase: false,
    });
    expect(run.stderr).toBe(
      'ste ste_1: 0/8 trials 0%, 0:00 elapsed 5 exemplars\nste ste_1: 8/8 trials 100%, 0:02 elapsed succeeded\n',
    );
    expect(run.stdout).toContain(
      'STE run ste_1 — succeeded: surface s-ood@abc (tools changed since s-in), docs s-ood',
    );
    expect(run.stdout).toMatch(/Init_DB\s+succeeded\s+8\/8\s+6\s+5\s+3\s+5\s+40/);
  });

  it('status and exemplars read the API; a failed run exits 1, a bad subcommand 2', async () => {
    const fake = await start({
      'GET /v1/ste/runs/ste_1': (_req, res) => sendJson(res, 200, steRun('failed', 3)),
      'POST /v1/ste/runs': (_req, res) => sendJson(res, 202, steRun('failed', 3)),
      'GET /v1/ste/exemplars': (_req, res) =>
        sendJson(res, 200, {
          items: [
            {
              tool: 'Init_DB',
              query: 'Which columns?',
              action: 'Init_DB',
              actionInput: '{"databaseIdentifier": "coffee"}',
            },
          ],
          nextCursor: '1_x',
        }),
    });
    const status = await runCli(['ste', 'status', 'ste_1', '--url', fake.url], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('STE run ste_1 — failed');
    const ex = await runCli(['ste', 'exemplars', '--url', fake.url, '--tool', 'Init_DB', '--limit', '1'], {
      env,
    });
    expect(fake.requests.at(-1)?.query).toEqual({ tool: 'Init_DB', limit: '1' });
    expect(ex.stdout).toBe(
      'Init_DB\tWhich columns?\n\tInit_DB {"databaseIdentifier": "coffee"}\n1 exemplars; next page: --cursor 1_x\n',
    );
    expect((await runCli(['ste', 'run', '--url', fake.url], { env })).code).toBe(1);
    // The paper's options: long-term memory at every trial and the Table 2 ablations.
    await runCli(
      [
        'ste',
        'run',
        '--url',
        fake.url,
        '--long-term-memory',
        'trial',
        '--no-execution-feedback',
        '--no-short-term-memory',
        '--no-self-reflection',
        '--no-wait',
      ],
      { env },
    );
    expect(fake.requests.at(-1)?.body).toEqual({
      longTermMemory: 'trial',
      executionFeedback: false,
      shortTermMemory: false,
      selfReflection: false,
    });
    expect((await runCli(['ste', 'frobnicate', '--url', fake.url], { env })).code).toBe(2);
    expect((await runCli(['ste', 'status', '--url', fake.url], { env })).code).toBe(2);
  });
});
