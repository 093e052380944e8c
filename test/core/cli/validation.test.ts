/**
 * Client-side validation gives the API's messages: the suite is checked with EvalSuiteSchema and the problem is
 * built like the API's validation hook builds it (functions/app.ts defaultHook → validationProblem), so a bad
 * flag prints exactly what POST /v1/evals would answer — and the CLI sends nothing.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemLines } from '../../../cli/problem.ts';
import { validateBody, validationProblemBody } from '../../../cli/validation.ts';
import { EvalSuiteSchema } from '../../../core/evals/suite.ts';
import { validationProblem } from '../../../functions/http/problem.ts';
import { type FakeApi, fakeApi, runCli } from './harness.ts';

/** The API's answer to an invalid JSON body: hono's validator, the app's hook and `validationProblem`. */
async function apiProblem(body: unknown): Promise<Record<string, unknown>> {
  const app = new OpenAPIHono({
    defaultHook: (result, c) => {
      if (!result.success) return validationProblem(c, result.target, result.error);
    },
  });
  app.openapi(
    {
      method: 'post',
      path: '/v1/evals',
      request: { body: { required: true, content: { 'application/json': { schema: EvalSuiteSchema } } } },
      responses: { 202: { description: 'ok' } },
    },
    (c) => c.json({}, 202),
  );
  const res = await app.request('/v1/evals', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(400);
  const problem = (await res.json()) as Record<string, unknown>;
  delete problem.instance;
  delete problem.requestId;
  return problem;
}

const INVALID_SUITES: [string, unknown][] = [
  ['sample size 0', { sampleSize: 0 }],
  ['sample size not a number', { sampleSize: 'abc' }],
  ['unknown method', { methods: ['greedy', 'beam'] }],
  ['empty surfaces', { surfaces: [] }],
  ['unknown dataset and bad split', { datasets: ['flights', 'nope'], split: 'val' }],
  ['unknown member', { sample: 3 }],
  ['duplicate difficulty', { difficulties: ['easy', 'easy'] }],
  ['mcts out of range', { mcts: { simulations: 0 } }],
];

describe('validationProblemBody', () => {
  it.each(INVALID_SUITES)('equals the API problem: %s', async (_label, suite) => {
    const parsed = EvalSuiteSchema.safeParse(suite);
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(validationProblemBody('json', parsed.error)).toEqual(await apiProblem(suite));
  });

  it('accepts a valid suite and fills nothing in the request', () => {
    const checked = validateBody(EvalSuiteSchema, { sampleSize: 1, surfaces: ['pc'] });
    expect(checked.ok).toBe(true);
  });
});

describe('tooldrift eval with invalid flags', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await fakeApi({});
  });
  afterAll(() => api.close());

  it.each([
    [['--sample', '0'], { sampleSize: 0 }],
    [['--sample', 'abc'], { sampleSize: 'abc' }],
    [['--methods', 'greedy,beam'], { methods: ['greedy', 'beam'] }],
    [['--surfaces', ''], { surfaces: [] }],
    [['--datasets', 'flights,nope', '--split', 'val'], { datasets: ['flights', 'nope'], split: 'val' }],
    [['--mcts-simulations', '0'], { mcts: { simulations: 0 } }],
  ])('%j prints the API message, exits 2 and sends nothing', async (flags, suite) => {
    const run = await runCli(['eval', '--url', api.url, ...flags], { env: { TOOLDRIFT_KEY: 'k' } });
    const expected = problemLines((await apiProblem(suite)) as never);
    expect(run.stderr).toBe(`${expected.join('\n')}\n`);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(api.requests).toHaveLength(0);
  });

  it('prints the first failing field in the detail line, then every field', async () => {
    const run = await runCli(['eval', '--sample', '0', '--split', 'val'], { env: { TOOLDRIFT_KEY: 'k' } });
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Request validation failed: Invalid --split: /);
    expect(lines.slice(1).map((l) => l.replace(/:.*/, ''))).toEqual(['  - --split', '  - --sample']);
  });

  it('validates a schedule suite where the API reports it (json.suite.…)', async () => {
    const run = await runCli(
      ['schedules', 'create', '--url', api.url, '--name', 'n', '--cron', '0 3 * * *', '--sample', '0'],
      { env: { TOOLDRIFT_KEY: 'k' } },
    );
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toMatch(/^Request validation failed: Invalid --sample: /);
    expect(api.requests).toHaveLength(0);
  });
});
