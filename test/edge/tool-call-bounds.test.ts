/**
 * Expensive tool calls on the server (issue 24, edge/tool-calls.ts): a Python call is bounded per call (the server's
 * step budget, PYTHON_MAX_STEPS: a heavy loop ends with ToolQA's timeout observation), and a key has at most
 * TOOL_CALLS_PER_KEY Python or SQL calls in flight and takes at most PYTHON_STEPS_PER_SECOND Python steps a
 * second on average — beyond them a 429 problem with `Retry-After` that records nothing — through `/v1/kernel/call` and a session's step and REST tool routes alike. Light tools and other keys
 * are not affected.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { TIMEOUT_OBSERVATION } from '../../core/sandbox/python/tool.ts';
import { ToolCallRefused } from '../../core/world/kernel/kernel.ts';
import { readConfig } from '../../edge/env.ts';
import { toolCallOptions, toolCallsRunning } from '../../edge/tool-calls.ts';
import { ADMIN_KEY, call, expectProblem, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

const HEAVY = 'd = {}\nfor i in range(10**7): d[i] = i\nprint(len(d))';

function post(path: string, body: unknown, key = USER_KEY) {
  return call(path, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const python = (code: string, key = USER_KEY) =>
  post('/v1/kernel/call', { tool: 'PythonInterpreter', args: { Python: code } }, key);

beforeAll(async () => {
  await seedTestWorld();
}, 120_000);

describe('expensive tool calls', () => {
  it('bounds one Python call by the server step budget and still answers ordinary code', async () => {
    expect(readConfig(env).pythonMaxSteps).toBe(100_000);
    const heavy = await python(HEAVY);
    expect(heavy.status).toBe(200);
    expect(((await heavy.json()) as { observation: string }).observation).toBe(TIMEOUT_OBSERVATION);
    const light = (await (await python('print(sum(i * i for i in range(1000)))')).json()) as {
      observation: string;
    };
    expect(light.observation).toBe('332833500');
  });

  it('holds at most TOOL_CALLS_PER_KEY calls of a key at once; the next is refused until one ends', async () => {
    const gate = toolCallOptions(env, 'gate-test').around;
    const other = toolCallOptions(env, 'gate-other').around;
    const release: (() => void)[] = [];
    const held = () => new Promise<string>((resolve) => release.push(() => resolve('done')));
    const first = gate(held);
    const second = gate(held);
    await expect(gate(async () => 'third')).rejects.toBeInstanceOf(ToolCallRefused);
    expect(toolCallsRunning('gate-test')).toBe(2);
    // Another key has its own slots; a job's calls (no key) are not counted.
    await expect(other(async () => 'other')).resolves.toBe('other');
    await expect(toolCallOptions(env).around(async () => 'job')).resolves.toBe('job');
    while (release.length < 2) await new Promise((r) => setTimeout(r, 1));
    release.shift()?.();
    expect(await first).toBe('done');
    await expect(gate(async () => 'again')).resolves.toBe('again');
    release.shift()?.();
    expect(await second).toBe('done');
    expect(toolCallsRunning('gate-test')).toBe(0);
  });

  it("holds a key's Python calls to PYTHON_STEPS_PER_SECOND on average; its SQL calls and other keys pass", async () => {
    const { pythonStepsPerSecond: rate, pythonMaxSteps: max } = readConfig(env);
    expect(rate).toBe(200_000);
    const gate = toolCallOptions(env, 'steps-test').around;
    const costly = (steps: number) =>
      gate(
        async () => ({ steps }),
        (r) => r.steps,
      );
    // From rest, two full-budget calls run back to back (the bucket holds 2 × PYTHON_MAX_STEPS) ...
    await costly(max);
    await costly(max + 50_000);
    // ... and leave the key 50,000 steps in debt: its next Python call waits a quarter second, told to retry in 1 s.
    const refused = await costly(10).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ToolCallRefused);
    expect((refused as ToolCallRefused).retryAfterSeconds).toBe(1);
    expect((refused as Error).message).toMatch(/200000 a second/);
    // A refused call is not charged; calls without a step count (SQL) and other keys' calls are not held.
    await expect(gate(async () => 'sql')).resolves.toBe('sql');
    await expect(
      toolCallOptions(env, 'steps-other').around(
        async () => ({ steps: 1 }),
        (r) => r.steps,
      ),
    ).resolves.toEqual({ steps: 1 });
    // Once the allowance has caught up (50,000 steps at 200,000 a second: 250 ms), the key's calls run again.
    await new Promise((r) => setTimeout(r, 300));
    await expect(costly(10)).resolves.toEqual({ steps: 10 });
  });

  it('refuses a key that sends heavy Python calls back to back with a 429 until its step allowance catches up', async () => {
    // Heavy calls one after another: the first two take the bucket (2 × 100,000 steps), and each takes far less
    // than the half second that refills one, so a refusal follows within a few more.
    const key = ADMIN_KEY;
    const statuses: number[] = [];
    let third: Response | undefined;
    while (statuses.length < 8) {
      const res = await python(HEAVY, key);
      statuses.push(res.status);
      if (res.status === 429) {
        third = res;
        break;
      }
      await res.text();
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(statuses.at(-1), statuses.join()).toBe(429);
    if (!third) throw new Error('no refusal');
    expect(third.headers.get('retry-after')).toBe('1');
    const problem = await expectProblem(third, 429, 'rate-limited');
    expect(problem.detail).toMatch(/evaluation steps more than its 200000 a second allow/);
    // Light Python code waits its turn too; a second later it runs.
    await new Promise((r) => setTimeout(r, 1000));
    const light = await python('print(6 * 7)', key);
    expect(light.status).toBe(200);
    expect(((await light.json()) as { observation: string }).observation).toBe('42');
  });

  it('answers a kernel call beyond the bound with a 429 problem and Retry-After; light tools and other keys pass', async () => {
    // SQL calls hold their slot while D1 answers, so eight at once overlap.
    const sql = (key = USER_KEY) =>
      post(
        '/v1/kernel/call',
        { tool: 'SQLInterpreter', args: { SQL: 'SELECT COUNT(*) AS n FROM coffee.coffee_data' } },
        key,
      );
    const answers = await Promise.all([...Array.from({ length: 8 }, () => sql()), python(HEAVY)]);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    const refused = answers.find((r) => r.status === 429) as Response;
    expect(refused.headers.get('retry-after')).toBe('1');
    const problem = await expectProblem(refused, 429, 'rate-limited');
    expect(problem.detail).toMatch(/at most 2 at once/);
    expect(problem.retryAfterSeconds).toBe(1);
    // Light tools and another key's calls are not counted; slots come back: calls one after another all run.
    const [light, other] = await Promise.all([
      post('/v1/kernel/call', { tool: 'LoadDB', args: { DBName: 'coffee' } }),
      sql(ADMIN_KEY),
    ]);
    expect(light.status).toBe(200);
    expect(other.status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await sql()).status).toBe(200);
  });

  it('answers a session step refused by the bound with a 429 that records no step', async () => {
    const sessions: string[] = [];
    for (let i = 0; i < 6; i++) {
      const made = await post('/v1/sessions', { surface: 'pc', seed: `bounds-${i}` });
      expect(made.status).toBe(201);
      sessions.push(((await made.json()) as { id: string }).id);
    }
    const answers = await Promise.all(
      sessions.map((s) =>
        post(`/v1/sessions/${s}/tools/SQLInterpreter`, {
          SQL: 'SELECT COUNT(*) AS n FROM coffee.coffee_data',
        }),
      ),
    );
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.headers.get('retry-after')).toBe('1');
      await expectProblem(r, 429, 'rate-limited');
    }
    // A refused session has no step recorded: its first step is still step 1.
    const index = answers.findIndex((r) => r.status === 429);
    const view = (await (await call(`/v1/sessions/${sessions[index]}`, { key: USER_KEY })).json()) as {
      steps: number;
      transcript: unknown[];
    };
    expect(view.steps).toBe(0);
    expect(view.transcript).toEqual([]);
    const retried = await post(`/v1/sessions/${sessions[index]}/tools/PythonInterpreter`, {
      Python: 'print(1)',
    });
    expect(retried.status).toBe(200);
    expect(((await retried.json()) as { step: number }).step).toBe(1);
  });
});
