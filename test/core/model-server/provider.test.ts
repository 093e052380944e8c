/**
 * tooldrift's `openai` provider against a real engine: the committed tiny model behind the local model server.
 * Greedy and MCTS run through the provider as they would against vLLM; the tests check what only a real model
 * exercises — log-probabilities that become priors, k candidates per expansion, stop strings ending each step,
 * usage — plus retries and timeouts on the real transport. The fake-server tests (test/core/models/openai.test.ts)
 * keep checking the provider's own edge cases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { greedy as greedyMethod } from '../../../core/methods/greedy.ts';
import { type ReactOptions, ReactOptionsSchema } from '../../../core/methods/react.ts';
import { ModelContextLengthError, ModelTimeoutError } from '../../../core/models/errors.ts';
import { createTextModel, type ModelDeps } from '../../../core/models/factory.ts';
import type { TextModel } from '../../../core/models/types.ts';
import { meteredModel, UsageMeter } from '../../../core/models/usage.ts';
import { createSearch, runSearch, searchEnv } from '../../../core/search/mcts.ts';
import { node } from '../../../core/search/tree.ts';
import { PC_SURFACE, S_IN_SURFACE } from '../../../core/surfaces/builtin.ts';
import { createKernelDeps } from '../../../core/world/kernel-deps.ts';
import { generateTasks } from '../../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import type { Task } from '../../../core/world/tasks/types.ts';
import type { World } from '../../../core/world/types.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { type LocalModel, MICRO_NAME, startLocalModel } from './local-model.ts';

interface Exchange {
  body: Record<string, unknown>;
  status: number;
  json: Record<string, unknown> | null;
}

/** A fetch that records every request body and JSON answer (and can fail the first `failFirst` calls). */
function recordingFetch(failFirst = 0) {
  const exchanges: Exchange[] = [];
  let calls = 0;
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    calls++;
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    if (calls <= failFirst) {
      exchanges.push({ body, status: 503, json: null });
      return new Response(JSON.stringify({ error: { message: 'overloaded' } }), {
        status: 503,
        headers: { 'content-type': 'application/json' },
      });
    }
    const response = await fetch(input, init);
    const json = (await response.clone().json()) as Record<string, unknown>;
    exchanges.push({ body, status: response.status, json });
    return response;
  };
  return { exchanges, fetch: fetchImpl };
}

let local: LocalModel;
let world: World;
let task: Task;

beforeAll(async () => {
  // MCTS sends ToolEvo's few-shot agent prompt, longer than the tiny model's 2,048-token training context:
  // the engine runs it with a larger context (the model is weak there; the test is about the plumbing).
  // Greedy sends no max_tokens: the server's default per step keeps a rambling step short (model:serve --max-tokens).
  local = await startLocalModel({ contextSize: 6144, defaultMaxTokens: 64 });
  world = generateWorld({ seed: 'model-server-test', scale: 0.05 });
  const { tasks } = await generateTasks(world, TASK_TEMPLATES, {
    counts: () => ({ train: 0, dev: 0, test: 1 }),
    groups: [{ dataset: 'coffee', difficulty: 'easy' }],
  });
  task = tasks[0] as Task;
}, 180_000);
afterAll(async () => {
  await local?.close();
});

function model(deps: ModelDeps, settings: Record<string, unknown> = {}) {
  return createTextModel(
    { provider: 'openai', baseUrl: local.baseUrl, model: MICRO_NAME, maxRetries: 0, ...settings },
    { seed: 'provider-test', ...deps },
  );
}

/** The greedy method on the test's task on `s-in` (≤ 4 steps, seeded), asked with `prompt` (ReactOptions). */
function greedy(m: TextModel, prompt: ReactOptions['prompt']) {
  return greedyMethod.run({
    task: {
      id: task.id,
      question: task.question,
      gold: task.gold,
      dataset: task.dataset,
      difficulty: task.difficulty,
    },
    options: ReactOptionsSchema.parse({ prompt }),
    model: m,
    world,
    surface: S_IN_SURFACE,
    deps: createKernelDeps({ gold: task.gold }),
    aids: { documentation: PC_SURFACE, updateMemory: [] },
    limits: { maxSteps: 4 },
    seeds: { model: 7, search: task.id },
  });
}

describe('openai provider × local model server (real engine)', () => {
  it('greedy: each step is one stopped, temperature-0 call, and usage adds up to what the server reported', async () => {
    const recorder = recordingFetch();
    const meter = new UsageMeter();
    const outcome = await greedy(
      meteredModel(model({ fetch: recorder.fetch }), meter, { runId: 'greedy' }),
      'sft',
    );
    expect(outcome.model).toBe(MICRO_NAME);
    expect(recorder.exchanges.length).toBe(outcome.modelCalls);
    expect(outcome.modelCalls).toBeGreaterThan(0);
    for (const { body, status } of recorder.exchanges) {
      expect(status).toBe(200);
      expect(body).toMatchObject({ model: MICRO_NAME, temperature: 0, stop: ['Observation:'], seed: 7 });
      expect(body.n).toBeUndefined();
    }
    // The SFT prompt: the conversation grows by an assistant step and an observation per step.
    const sizes = recorder.exchanges.map((e) => (e.body.messages as unknown[]).length);
    expect(sizes).toEqual(sizes.map((_, i) => 2 + 2 * i));
    for (const step of outcome.steps) expect(step.text).not.toContain('Observation:');
    const reported = recorder.exchanges.reduce(
      (s, e) => {
        const u = e.json?.usage as { prompt_tokens: number; completion_tokens: number };
        return { input: s.input + u.prompt_tokens, output: s.output + u.completion_tokens };
      },
      { input: 0, output: 0 },
    );
    expect([outcome.inputTokens, outcome.outputTokens]).toEqual([reported.input, reported.output]);
    expect(meter.forRun('greedy')).toMatchObject({
      calls: outcome.modelCalls,
      inputTokens: reported.input,
      outputTokens: reported.output,
      costUsd: 0,
    });
  }, 240_000);

  it('MCTS: k candidates per expansion, their real token log-probabilities as priors', async () => {
    const recorder = recordingFetch();
    const tree = createSearch(
      { id: task.id, question: task.question, gold: task.gold },
      { seed: 'provider-mcts', simulations: 1, k: 3, maxDepth: 2, maxNewTokens: 48 },
    );
    await runSearch(
      tree,
      searchEnv(tree, { model: model({ fetch: recorder.fetch }), world, surface: S_IN_SURFACE }),
    );
    expect(recorder.exchanges.length).toBe(tree.usage.modelCalls);
    expect(recorder.exchanges.length).toBeGreaterThan(0);
    // Raw priors (the paper's): per expansion, exp of the mean token log-prob of the first candidate with a text.
    const expected = new Map<string, number[]>();
    for (const { body, json } of recorder.exchanges) {
      expect(body).toMatchObject({
        n: 3,
        logprobs: true,
        stop: ['Observation:'],
        max_tokens: 48,
        temperature: 0.5,
      });
      const choices = (json?.choices ?? []) as {
        message: { content: string };
        logprobs: { content: { logprob: number }[] };
      }[];
      expect(choices).toHaveLength(3);
      const seen = new Set<string>();
      for (const c of choices) {
        const text = c.message.content.trim();
        const lps = c.logprobs.content.map((t) => t.logprob);
        if (seen.has(text) || lps.length === 0) continue;
        seen.add(text);
        expected.set(text, [
          ...(expected.get(text) ?? []),
          Math.exp(lps.reduce((x, y) => x + y, 0) / lps.length),
        ]);
      }
    }
    let checked = 0;
    for (const node of tree.nodes) {
      const priors = expected.get(node.text);
      if (node.depth === 0 || !priors) continue;
      expect(priors.some((p) => Math.abs(p - node.prior) < 1e-12)).toBe(true);
      expect(node.prior).toBeGreaterThan(0);
      expect(node.prior).toBeLessThan(1);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
    for (const n of tree.nodes) expect(n.text).not.toContain('Observation:');
    const usage = recorder.exchanges.reduce(
      (s, e) => s + ((e.json?.usage as { completion_tokens: number } | undefined)?.completion_tokens ?? 0),
      0,
    );
    expect(tree.usage.outputTokens).toBe(usage);
  }, 240_000);

  it('retries a 503 with backoff, then gets the real answer', async () => {
    const recorder = recordingFetch(1);
    const waits: number[] = [];
    const retried: number[] = [];
    const m = model(
      {
        fetch: recorder.fetch,
        sleep: async (ms) => void waits.push(ms),
        onRetry: (e) => void retried.push(e.retry),
      },
      { maxRetries: 2 },
    );
    const r = await m.generate({
      messages: [{ role: 'user', content: 'Question: hi' }],
      maxTokens: 4,
      seed: 1,
    });
    expect(recorder.exchanges.map((e) => e.status)).toEqual([503, 200]);
    expect(retried).toEqual([0]);
    expect(waits).toHaveLength(1);
    expect(r.usage.calls).toBe(1);
    expect(r.candidates).toHaveLength(1);
  });

  it('a deadline shorter than the generation times out, and the server stops generating for it', async () => {
    const before = local.engine.stats.cancelled;
    const m = model({}, { timeoutMs: 150, maxRetries: 0 });
    await expect(
      m.generate({
        messages: [{ role: 'user', content: 'Question: hi' }],
        // 16 sampled choices, generated one after another: whatever length the committed model's answers have
        // (it may stop after a few dozen tokens), the request outlasts a 150 ms deadline by far.
        n: 16,
        maxTokens: 3000,
        temperature: 1,
        seed: 2,
      }),
    ).rejects.toBeInstanceOf(ModelTimeoutError);
    const deadline = Date.now() + 30_000;
    while (local.engine.stats.cancelled === before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(local.engine.stats.cancelled).toBe(before + 1);
  });
});

describe('a prompt over the model’s context (real engine, 512-token context)', () => {
  let small: LocalModel;
  beforeAll(async () => {
    small = await startLocalModel({ contextSize: 512, defaultMaxTokens: 16 });
  }, 180_000);
  afterAll(async () => {
    await small?.close();
  });
  const smallModel = (deps: ModelDeps) =>
    createTextModel(
      { provider: 'openai', baseUrl: small.baseUrl, model: MICRO_NAME, maxRetries: 2 },
      { seed: 'provider-test', ...deps },
    );

  it('is a typed, unretried error from the provider', async () => {
    const recorder = recordingFetch();
    const error = await smallModel({ fetch: recorder.fetch })
      .generate({ messages: [{ role: 'user', content: 'word '.repeat(600) }], maxTokens: 4 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelContextLengthError);
    expect(recorder.exchanges.map((e) => [e.status, (e.json?.error as { code?: string })?.code])).toEqual([
      [400, 'context_length_exceeded'],
    ]);
  });

  it('ends a greedy episode as an empty generation (ToolQA-D’s prompt-length rule), not as a run error', async () => {
    const recorder = recordingFetch();
    // ToolEvo's few-shot agent prompt is far over 512 tokens.
    const outcome = await greedy(smallModel({ fetch: recorder.fetch }), 'agent');
    expect(recorder.exchanges.map((e) => e.status)).toEqual([400]);
    expect(outcome).toMatchObject({ ending: 'empty-generation', correct: false, steps: [], modelCalls: 0 });
  });

  it('makes the MCTS state terminal with −1, like a prompt over the word limit', async () => {
    const recorder = recordingFetch();
    const tree = createSearch(
      { id: task.id, question: task.question, gold: task.gold },
      { seed: 'provider-mcts', simulations: 2, k: 2, maxDepth: 2, maxNewTokens: 16 },
    );
    await runSearch(
      tree,
      searchEnv(tree, { model: smallModel({ fetch: recorder.fetch }), world, surface: S_IN_SURFACE }),
    );
    expect(recorder.exchanges.map((e) => e.status)).toEqual([400]);
    expect(node(tree, 0)).toMatchObject({ terminal: true, ending: 'empty', reward: -1 });
    expect(tree.usage.modelCalls).toBe(0);
  });
});
