/**
 * Slow and failing models (issue 13, item 7): a second local instance whose `openai` provider is a fake
 * OpenAI-compatible server (test/e2e/fake-openai.ts) answering in 300 ms and failing at seeded rates with 429,
 * 5xx and timeouts. The instance gives each model call 1.5 s and one retry, and each `eval-group` job two task
 * runs (EVAL_CHUNK_TASKS=2), so every group runs as a chain of chunk jobs.
 *
 * An evaluation (greedy and greedy-memory, which carries memory across chunks) and an exploration (MCTS trees,
 * alarm-driven chunks) run at once and must both finish: every planned task run recorded once, every run the
 * model failed recorded as a run error, every tree settled, and the usage totals equal to the calls the fake
 * server answered (per model name: `fake-eval` for the evaluation, `fake-explore` for the exploration). The
 * figures (duration, calls, failures by kind, max in flight, usage) are printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalDetail, Exploration } from '../../cli/api-types.ts';
import { type FakeOpenAI, startFakeOpenAI } from './fake-openai.ts';
import { E2E_USER_KEY, type LocalInstance, startLocalInstance } from './local-instance.ts';

let fake: FakeOpenAI;
let instance: LocalInstance;

beforeAll(async () => {
  fake = await startFakeOpenAI({
    seed: 'slow-model-e2e',
    latencyMs: 300,
    rates: { rateLimited: 0.15, serverError: 0.15, timeout: 0.1 },
  });
  instance = await startLocalInstance({
    OPENAI_BASE_URL: fake.baseUrl,
    MODEL_TIMEOUT_MS: '1500',
    MODEL_MAX_RETRIES: '1',
    EVAL_CHUNK_TASKS: '2',
  });
}, 240_000);

afterAll(async () => {
  await instance?.stop();
  await fake?.close();
});

async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${instance.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${E2E_USER_KEY}`, 'content-type': 'application/json' },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  expect(res.status, `${path}: ${text.slice(0, 500)}`).toBeLessThan(300);
  return JSON.parse(text) as T;
}

interface ResultRow {
  id: string;
  method: string;
  surface: string;
  taskId: string;
  ending: string;
  errorClass: string | null;
  modelCalls: number;
}

async function allResults(evalId: string): Promise<ResultRow[]> {
  const out: ResultRow[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: ResultRow[]; nextCursor: string | null } = await api(
      `/v1/evals/${evalId}/results?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

async function until<T>(
  what: string,
  poll: () => Promise<T>,
  done: (v: T) => boolean,
  ms: number,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await poll();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what} did not finish in ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

describe('an evaluation and an exploration under a slow, failing model', () => {
  it('both finish, chunked, with every failure a run error and usage equal to the calls answered', async () => {
    const started = performance.now();
    const evalCreated = await api<{ id: string; progress: { total: number } }>('/v1/evals', {
      method: 'POST',
      body: {
        surfaces: ['pc'],
        methods: ['greedy', 'greedy-memory'],
        datasets: ['coffee', 'flights'],
        difficulties: ['easy'],
        sampleSize: 5,
        maxSteps: 4,
        seed: 'slow-model',
        model: { provider: 'openai', model: 'fake-eval' },
      },
    });
    const exploration = await api<Exploration>('/v1/explorations', {
      method: 'POST',
      body: {
        tasks: { dataset: 'coffee', difficulty: 'easy', limit: 2 },
        treesPerTask: 2,
        search: { simulations: 4, k: 2, maxDepth: 4 },
        model: { provider: 'openai', model: 'fake-explore' },
        seed: 'slow-model',
        chunkIterations: 2,
      },
    });

    const evaluation = await until(
      'the evaluation',
      () => api<EvalDetail>(`/v1/evals/${evalCreated.id}`),
      (e) => e.status !== 'running',
      240_000,
    );
    const explored = await until(
      'the exploration',
      () => api<Exploration>(`/v1/explorations/${exploration.id}`),
      (x) => x.counts.queued + x.counts.running === 0 && x.status !== 'running' && x.status !== 'queued',
      240_000,
    );
    const seconds = (performance.now() - started) / 1000;

    // The evaluation: every planned run exactly once, in chunk jobs.
    expect(evaluation.status).toBe('done');
    const total = evalCreated.progress.total;
    expect(total).toBe(20);
    expect(evaluation.progress).toEqual({ done: total, total });
    const rows = await allResults(evalCreated.id);
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => `${r.method}/${r.surface}/${r.taskId}`)).size).toBe(total);
    // Five tasks a group, two a chunk: the group's third chunk starts at task 4.
    const chunk = await api<{ status: string }>(`/v1/jobs/${encodeURIComponent(`${evalCreated.id}:0@0004`)}`);
    expect(chunk.status).toBe('succeeded');

    // Every run the model failed is a run error, with the model's error recorded.
    const runErrors = rows.filter((r) => r.errorClass === 'run-error');
    expect(runErrors.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.ending === 'error').toBe(r.errorClass === 'run-error');
    for (const r of runErrors) {
      const detail = await api<{ trajectory: { error?: string } }>(
        `/v1/evals/${evalCreated.id}/results/${r.id}`,
      );
      expect(detail.trajectory.error).toMatch(/openai/);
    }

    // The exploration: every tree settled.
    expect(explored.counts.done + explored.counts.failed).toBe(explored.trees);
    expect(explored.trees).toBe(4);

    // Usage equals what the fake server answered, per model.
    const evalCalls = fake.byModel.get('fake-eval');
    const exploreCalls = fake.byModel.get('fake-explore');
    expect(evaluation.usage.modelCalls).toBe(evalCalls?.ok);
    expect(evaluation.usage.inputTokens).toBe(evalCalls?.promptTokens);
    expect(evaluation.usage.outputTokens).toBe(evalCalls?.completionTokens);
    expect(explored.usage.modelCalls).toBe(exploreCalls?.ok);
    expect(explored.usage.inputTokens).toBe(exploreCalls?.promptTokens);
    expect(explored.usage.outputTokens).toBe(exploreCalls?.completionTokens);
    expect(fake.total.rateLimited + fake.total.serverError + fake.total.timeout).toBeGreaterThan(0);

    const line = (name: string, c: typeof fake.total | undefined) =>
      `${name}: answered ${c?.ok ?? 0}, 429 ${c?.rateLimited ?? 0}, 5xx ${c?.serverError ?? 0}, ` +
      `timeouts ${c?.timeout ?? 0}, tokens ${c?.promptTokens ?? 0} in / ${c?.completionTokens ?? 0} out`;
    // Straight to stdout: vitest shows console output of failing tests only.
    process.stdout.write(
      `${[
        `[slow-model] finished in ${seconds.toFixed(1)} s; max model calls in flight at once: ${fake.maxInFlight}`,
        `[slow-model] ${line('all', fake.total)}`,
        `[slow-model] ${line('evaluation', evalCalls)}; usage ${JSON.stringify(evaluation.usage)}; ` +
          `${runErrors.length}/${total} run errors`,
        `[slow-model] ${line('exploration', exploreCalls)}; usage ${JSON.stringify(explored.usage)}; ` +
          `trees ${JSON.stringify(explored.counts)}`,
      ].join('\n')}\n`,
    );
  });
});
