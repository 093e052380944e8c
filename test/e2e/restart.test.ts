/**
 * Work interrupted by a crash resumes (issue 24, recovery), end to end: a second local instance runs an evaluation,
 * an exploration, a DRAFT run (all three on a fake OpenAI-compatible model answering in 250 ms, so they are still
 * running when the runtime dies) and a Chain-of-Tools training (checkpointed chunks of 1 s) at once. Mid-run,
 * wrangler and workerd are killed with SIGKILL — queue messages in flight, Durable Object alarms and running
 * chunks are lost — and started again on the same state. The cron trigger (fired by hand, as a cron tick would)
 * runs the sweeper, which sends again the jobs whose runner vanished (JOB_STALE_MS is 4 s here) and wakes the
 * objects whose alarm did. Each piece of work must then finish, with every planned row once: each evaluation run
 * once, every tree settled, every DRAFT tool ended and one documentation set, one training version with its
 * weights.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalDetail, Exploration } from '../../cli/api-types.ts';
import { type FakeOpenAI, startFakeOpenAI } from './fake-openai.ts';
import { instanceApi } from './instance-api.ts';
import { E2E_USER_KEY, type LocalInstance, startLocalInstance } from './local-instance.ts';

let fake: FakeOpenAI;
let instance: LocalInstance;

beforeAll(async () => {
  fake = await startFakeOpenAI({
    seed: 'restart-e2e',
    latencyMs: 250,
    rates: { rateLimited: 0, serverError: 0, timeout: 0 },
  });
  instance = await startLocalInstance({
    OPENAI_BASE_URL: fake.baseUrl,
    EVAL_CHUNK_TASKS: '2',
    JOB_SHARE: '16', // every start at once: the kill finds each piece of work under way
    TRAIN_CHUNK_MS: '1000',
    JOB_STALE_MS: '4000',
  });
}, 240_000);

afterAll(async () => {
  await instance?.stop();
  await fake?.close();
});

const { api, all } = instanceApi(() => instance.baseUrl, E2E_USER_KEY);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface DraftRun {
  status: string;
  docsetId: string | null;
  progress: { tools: number; done: number };
  tools: { key: string; status: string }[];
}
interface Training {
  status: string;
  progress: { phase: string; chunk: number } | null;
  weights: { bytes: number; sha256: string } | null;
}

describe('work interrupted by a killed runtime', () => {
  it('finishes after a restart: every evaluation run once, every tree settled, the DRAFT set, the training', async () => {
    // The training first: its chunks are the slowest to reach a checkpoint.
    const toolset = await api<{ id: string }>('/v1/toolsets', {
      method: 'POST',
      body: { source: 'synthetic', name: 'restart', tools: 200, seed: 'restart' },
    });
    const training = await api<{ version: number }>(`/v1/toolsets/${toolset.id}/train`, {
      method: 'POST',
      body: {
        seed: 'restart',
        retriever: { epochs: 4, intermediate: 128 },
        judge: { epochs: 2, intermediate: 32 },
      },
    });
    const trainingPath = `/v1/toolsets/${toolset.id}/training/${training.version}`;
    const evaluation = await api<{ id: string; progress: { total: number } }>('/v1/evals', {
      method: 'POST',
      body: {
        surfaces: ['pc'],
        methods: ['greedy'],
        datasets: ['coffee', 'flights'],
        difficulties: ['easy'],
        sampleSize: 6,
        maxSteps: 4,
        seed: 'restart',
        model: { provider: 'openai', model: 'fake-eval' },
      },
    });
    const exploration = await api<Exploration>('/v1/explorations', {
      method: 'POST',
      body: {
        tasks: { dataset: 'coffee', difficulty: 'easy', limit: 3 },
        treesPerTask: 3,
        search: { simulations: 100, k: 3, maxDepth: 6 },
        model: { provider: 'openai', model: 'fake-explore' },
        seed: 'restart',
        chunkIterations: 1,
      },
    });
    const draft = await api<{ id: string }>('/v1/draft/runs', {
      method: 'POST',
      body: {
        surface: 's-in',
        tools: ['LoadDB', 'FilterDB', 'GetValue'],
        options: { seed: 'restart', adaptiveTermination: false },
        model: { provider: 'openai', model: 'fake-draft' },
        chunkSteps: 1,
      },
    });

    // Mid-run: the evaluation has recorded runs, the training has stored a checkpoint, trees are searching.
    const killBy = Date.now() + 90_000;
    for (;;) {
      const [e, t, x] = await Promise.all([
        api<EvalDetail>(`/v1/evals/${evaluation.id}`),
        api<Training>(trainingPath),
        api<Exploration>(`/v1/explorations/${exploration.id}`),
      ]);
      const underway = e.progress.done > 0 && (t.progress?.chunk ?? 0) >= 1 && x.counts.done < x.trees;
      if (underway || Date.now() > killBy) break;
      await sleep(200);
    }
    await instance.kill();
    const callsBeforeKill = fake.total.ok;

    await instance.restart();
    // What the crash left unfinished (read before the sweeper runs: nothing moves until a tick sends it again).
    const [e0, x0, d0, t0] = await Promise.all([
      api<EvalDetail>(`/v1/evals/${evaluation.id}`),
      api<Exploration>(`/v1/explorations/${exploration.id}`),
      api<DraftRun>(`/v1/draft/runs/${draft.id}`),
      api<Training>(trainingPath),
    ]);
    const interrupted = {
      evaluation: e0.status === 'running' ? `${e0.progress.done}/${e0.progress.total}` : null,
      exploration: x0.counts.queued + x0.counts.running > 0 ? JSON.stringify(x0.counts) : null,
      draft:
        d0.status === 'running' || d0.status === 'queued' ? `${d0.progress.done}/${d0.progress.tools}` : null,
      training: t0.status === 'running' || t0.status === 'queued' ? `chunk ${t0.progress?.chunk ?? 0}` : null,
    };
    // The kill waits for the evaluation, the training and the exploration to be under way; the DRAFT tools (5 rounds
    // of a few model calls at 250 ms each) take longer than that.
    for (const [what, where] of Object.entries(interrupted))
      expect(where, `the ${what} had ended before the kill`).not.toBeNull();

    // Cron ticks until everything has ended.
    const started = performance.now();
    const deadline = Date.now() + 300_000;
    let ticks = 0;
    let state: { e: EvalDetail; x: Exploration; d: DraftRun; t: Training };
    for (;;) {
      const res = await fetch(`${instance.baseUrl}/__scheduled?cron=${encodeURIComponent('*/5 * * * *')}`);
      expect(res.status).toBe(200);
      ticks++;
      const [e, x, d, t] = await Promise.all([
        api<EvalDetail>(`/v1/evals/${evaluation.id}`),
        api<Exploration>(`/v1/explorations/${exploration.id}`),
        api<DraftRun>(`/v1/draft/runs/${draft.id}`),
        api<Training>(trainingPath),
      ]);
      state = { e, x, d, t };
      const ended =
        e.status !== 'running' &&
        x.counts.queued + x.counts.running === 0 &&
        !['queued', 'running', 'finalizing'].includes(d.status) &&
        !['queued', 'running'].includes(t.status);
      if (ended) break;
      if (Date.now() > deadline)
        throw new Error(`still running 300 s after the restart: ${JSON.stringify(state)}`);
      await sleep(2000);
    }
    const seconds = (performance.now() - started) / 1000;
    const { e, x, d, t } = state;

    // The evaluation: every planned run, once.
    expect(e.status).toBe('done');
    const total = evaluation.progress.total;
    expect(total).toBe(12);
    expect(e.progress).toEqual({ done: total, total });
    const rows = await all<{ method: string; surface: string; taskId: string }>(
      `/v1/evals/${evaluation.id}/results`,
    );
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => `${r.method}/${r.surface}/${r.taskId}`)).size).toBe(total);

    // The exploration: every tree settled, none twice.
    expect(x.trees).toBe(9);
    expect(x.counts.done + x.counts.failed).toBe(9);

    // DRAFT: every tool ended, one set.
    expect(d.status).toBe('succeeded');
    expect(d.docsetId).not.toBeNull();
    expect(d.tools.map((tool) => tool.key).sort()).toEqual(['FilterDB', 'GetValue', 'LoadDB']);
    expect(d.progress).toMatchObject({ tools: 3, done: 3 });

    // The training: succeeded with its weights, one version.
    expect(t.status).toBe('succeeded');
    expect(t.weights?.bytes).toBeGreaterThan(0);
    const listed = await all<Training & { version: number }>(`/v1/toolsets/${toolset.id}/training`);
    expect(listed.map((v) => v.version)).toEqual([training.version]);

    process.stdout.write(
      `[restart] killed mid-run (${JSON.stringify(interrupted)}); after the restart everything ended in ` +
        `${seconds.toFixed(1)} s over ${ticks} cron ticks; model calls ${callsBeforeKill} before the kill, ` +
        `${fake.total.ok} in all\n`,
    );
  }, 600_000);
});
