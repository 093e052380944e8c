/**
 * Trajectories and preference pairs in D1 (idempotent recording, the seeded choice of ≤ 4 successes per task,
 * pairs over the whole tree), the SFT/DPO JSONL
 * exports with their filters, and POST /v1/solve in greedy and MCTS mode with the simulated policy.
 */
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerLeaf } from '../../core/search/answer.ts';
import { createSearch, runSearch, searchEnv } from '../../core/search/mcts.ts';
import {
  dpoPairSet,
  dpoPairs,
  dpoPairsFromPaths,
  extractTrajectories,
  repeatsFailedCall,
  selectForTraining,
  type TrajectoryMeta,
} from '../../core/search/trajectories.ts';
import { node, type SearchTree } from '../../core/search/tree.ts';
import { createSimModel } from '../../core/sim/index.ts';
import { S_OOD_SURFACE } from '../../core/surfaces/builtin.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import { database } from '../../db/client.ts';
import { preferencePairs, trajectories } from '../../db/schema.ts';
import { preferencePairId, preferenceRecord, recordTrajectories } from '../../edge/stores/trajectories.ts';
import { call, expectProblem, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

const EXPLORATION = 'exp-export-test';
const meta = (task: Task, treeIndex: number): TrajectoryMeta => ({
  treeId: `${EXPLORATION}/tree-${treeIndex}`,
  explorationId: EXPLORATION,
  taskId: task.id,
  dataset: task.dataset,
  surfaceId: S_OOD_SURFACE.id,
  promptSurfaceId: 'pc',
  model: 'tooldrift-sim-v1 (simulated)',
  seed: 'edge',
});

const json = (body: unknown, key: string | null = USER_KEY) => ({
  method: 'POST',
  ...(key ? { key } : {}),
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function jsonl(path: string): Promise<Record<string, unknown>[]> {
  const res = await call(path, { key: USER_KEY });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/x-ndjson');
  const text = new TextDecoder().decode(await res.arrayBuffer());
  if (text === '') return [];
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

interface SolveReply {
  answer: string | null;
  correct: boolean | null;
  ending: string;
  task: { id: string | null; question: string; dataset: string | null };
  mode: string;
  search: { nodes: number; iterations: number; solutions: number } | null;
  trajectory: { steps: { text: string; observation: string }[]; toolUpdates: string[] };
  usage: { modelCalls: number; inputTokens: number; outputTokens: number };
  model: { provider: string; name: string; simulated: boolean };
}

/**
 * The search of the tree found in beforeAll and of the MCTS solve that must reproduce it. Twelve simulations: with
 * the per-dataset few-shot pools (FEW_SHOTS_VERSION 3) the simulator's draws changed, and six no longer gave any
 * coffee tree of this world both a correct and a wrong Finish within the ten seeds.
 */
const SEARCH = { simulations: 12, k: 3, maxDepth: 10 };

describe('trajectories, exports and solve', () => {
  let tasks: Task[];
  let task: Task;
  let tree: SearchTree;
  let treeSeed: string;

  beforeAll(async () => {
    const seeded = await seedTestWorld();
    tasks = seeded.tasks;
    const model = createSimModel({ preset: 'static' });
    // A coffee tree with both a correct and a wrong Finish, so that it yields SFT data and DPO pairs, and a
    // success that repeats no failed call (the default selection keeps only those).
    const candidates = tasks.filter((t) => t.dataset === 'coffee');
    search: for (const seed of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']) {
      for (const t of candidates) {
        const s = createSearch(t, { ...SEARCH, seed });
        await runSearch(s, searchEnv(s, { model, world: seeded.world, surface: S_OOD_SURFACE }));
        const found = extractTrajectories(s, meta(t, 0));
        const rewards = new Set(found.map((x) => x.reward));
        const repeatFree = found.some((x) => x.reward === 1 && !repeatsFailedCall(x));
        if (rewards.has(1) && rewards.has(-1) && repeatFree) {
          task = t;
          tree = s;
          treeSeed = seed;
          break search;
        }
      }
    }
    if (!tree) throw new Error('no coffee tree with both a correct and a wrong Finish');
  }, 120_000);

  it('records each root→Finish path once, however often the tree is delivered', async () => {
    const expected = extractTrajectories(tree, meta(task, 0));
    const pairs = dpoPairs(tree).length;
    const { dropped } = dpoPairSet(tree);
    const first = await recordTrajectories(env, tree, meta(task, 0));
    expect(first).toMatchObject({
      found: expected.length,
      inserted: expected.length,
      pairs: { found: pairs, inserted: pairs, dropped },
    });
    const again = await recordTrajectories(env, tree, meta(task, 0));
    expect(again).toMatchObject({
      found: expected.length,
      inserted: 0,
      pairs: { found: pairs, inserted: 0, dropped },
    });
    const rows = await database(env.DB)
      .select()
      .from(trajectories)
      .where(eq(trajectories.treeId, meta(task, 0).treeId));
    expect(rows.map((r) => [r.id, r.leafNode, r.reward]).sort()).toEqual(
      expected.map((t) => [t.id, t.leafNode, t.reward]).sort(),
    );
    const row = rows.find((r) => r.id === expected[0]?.id);
    expect(row).toMatchObject({
      text: expected[0]?.text,
      steps: expected[0]?.steps,
      toolUpdates: expected[0]?.toolUpdates,
      surfaceId: S_OOD_SURFACE.id,
      promptSurfaceId: 'pc',
      model: 'tooldrift-sim-v1 (simulated)',
      seed: 'edge',
      dataset: 'coffee',
    });
  });

  it('selects at most 4 successes per task, deterministically, across the exploration’s trees', async () => {
    for (let i = 1; i <= 4; i++) await recordTrajectories(env, tree, meta(task, i));
    const db = database(env.DB);
    const scope = and(eq(trajectories.explorationId, EXPLORATION), eq(trajectories.taskId, task.id));
    const rows = await db.select().from(trajectories).where(scope);
    const successes = rows.filter((r) => r.reward === 1);
    expect(successes.length).toBeGreaterThanOrEqual(5);
    // The default rule: only successes that repeat no failed call (as many as exist, at most 4).
    const repeatFree = successes.filter((r) => !repeatsFailedCall(r));
    const selected = rows.filter((r) => r.selected);
    expect(selected).toHaveLength(Math.min(4, repeatFree.length));
    expect(selected.length).toBeGreaterThan(0);
    expect(selected.every((r) => r.reward === 1 && !repeatsFailedCall(r))).toBe(true);
    expect(selected.map((r) => r.id).sort()).toEqual([...selectForTraining(rows, EXPLORATION)].sort());
    const redelivered = await recordTrajectories(env, tree, meta(task, 2));
    expect(redelivered.inserted).toBe(0);
    expect(redelivered.selected).toEqual(selected.map((r) => r.id).sort());
  });

  it('exports the selected trajectories as multi-turn SFT JSONL by default, observations in user turns', async () => {
    const lines = await jsonl(`/v1/exports/sft.jsonl?exploration=${EXPLORATION}`);
    const stored = await database(env.DB)
      .select({ id: trajectories.id })
      .from(trajectories)
      .where(and(eq(trajectories.explorationId, EXPLORATION), eq(trajectories.selected, true)));
    // The default selection is the stored one: the same records as the trajectories marked selected.
    expect(lines.map((l) => (l.meta as { trajectoryId: string }).trajectoryId).sort()).toEqual(
      stored.map((r) => r.id).sort(),
    );
    for (const line of lines) {
      const messages = line.messages as { role: string; content: string }[];
      expect(messages.slice(0, 3).map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
      expect(messages[0]?.content).toContain('LoadDB[DBName]');
      expect(messages[0]?.content).not.toContain('Now it is your turn.');
      messages.slice(2).forEach((m, i) => {
        expect(m.role).toBe(i % 2 === 0 ? 'assistant' : 'user');
        if (m.role === 'user') expect(m.content.startsWith('Observation: ')).toBe(true);
        else expect(m.content).not.toContain('Observation:');
      });
      expect(messages.at(-1)?.content).toMatch(/Action: Finish/);
      const steps = (messages.length - 1) / 2;
      expect(line.meta).toMatchObject({
        selection: { rule: 'repeat-free', steps, deprecationErrors: expect.any(Number), repeats: 0 },
      });
    }
  });

  it('exports with another selection rule: selection=clean and uniform fill 4 per task (issue 25 item 9)', async () => {
    const rows = await database(env.DB)
      .select()
      .from(trajectories)
      .where(and(eq(trajectories.explorationId, EXPLORATION), eq(trajectories.taskId, task.id)));
    for (const rule of ['clean', 'uniform'] as const) {
      const lines = await jsonl(`/v1/exports/sft.jsonl?exploration=${EXPLORATION}&selection=${rule}`);
      const ids = lines.map((l) => (l.meta as { trajectoryId: string }).trajectoryId).sort();
      expect(ids).toEqual([...selectForTraining(rows, EXPLORATION, 4, rule)].sort());
      expect(ids).toHaveLength(4);
      for (const l of lines) expect((l.meta as { selection: { rule: string } }).selection.rule).toBe(rule);
    }
    const repeatFree = await jsonl(`/v1/exports/sft.jsonl?exploration=${EXPLORATION}&selection=repeat-free`);
    expect(repeatFree).toEqual(await jsonl(`/v1/exports/sft.jsonl?exploration=${EXPLORATION}`));
    const bad = await expectProblem(
      await call(`/v1/exports/sft.jsonl?exploration=${EXPLORATION}&selection=best`, { key: USER_KEY }),
      400,
      'validation-error',
    );
    expect(JSON.stringify(bad)).toContain('selection');
  });

  it('answers 404 problem+json for an unknown exploration id, for both exports', async () => {
    await expectProblem(
      await call('/v1/exports/sft.jsonl?exploration=nope', { key: USER_KEY }),
      404,
      'not-found',
    );
    await expectProblem(
      await call('/v1/exports/dpo.jsonl?exploration=nope', { key: USER_KEY }),
      404,
      'not-found',
    );
  });

  it('exports the selected trajectories as single-turn chat SFT JSONL (option), with filters', async () => {
    const lines = await jsonl(`/v1/exports/sft.jsonl?exploration=${EXPLORATION}&format=single-turn`);
    const selected = (await jsonl(`/v1/exports/sft.jsonl?exploration=${EXPLORATION}`)).length;
    expect(lines).toHaveLength(selected);
    for (const line of lines) {
      const messages = line.messages as { role: string; content: string }[];
      expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
      expect(messages[0]?.content).toContain('LoadDB[DBName]');
      expect(messages[0]?.content.endsWith('Now it is your turn.')).toBe(true);
      expect(messages[1]?.content).toBe(`Question: ${task.question.trim()}`);
      expect(messages[2]?.content).toMatch(/Action: Finish[\s\S]*Observation: Answer is CORRECT$/);
      expect(line.meta).toMatchObject({
        explorationId: EXPLORATION,
        taskId: task.id,
        dataset: 'coffee',
        surfaceId: S_OOD_SURFACE.id,
        promptSurfaceId: 'pc',
        reward: 1,
      });
    }
    expect(
      await jsonl(
        `/v1/exports/sft.jsonl?exploration=${EXPLORATION}&surface=${S_OOD_SURFACE.id}&dataset=coffee`,
      ),
    ).toHaveLength(selected);
    expect(await jsonl(`/v1/exports/sft.jsonl?exploration=${EXPLORATION}&surface=pc`)).toHaveLength(0);
    expect(await jsonl(`/v1/exports/sft.jsonl?exploration=${EXPLORATION}&dataset=flights`)).toHaveLength(0);
    await expectProblem(
      await call('/v1/exports/sft.jsonl?dataset=nope', { key: USER_KEY }),
      400,
      'validation-error',
    );
    await expectProblem(await call('/v1/exports/sft.jsonl'), 401, 'unauthorized');
  });

  it('stores the DPO pairs of the whole tree once, as export records', async () => {
    const pairs = dpoPairs(tree);
    const rows = await database(env.DB)
      .select()
      .from(preferencePairs)
      .where(eq(preferencePairs.treeId, meta(task, 0).treeId));
    // Recorded twice above (tree 0) and tree 2 redelivered: still one row per pair.
    expect(rows).toHaveLength(pairs.length);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const pair of pairs) {
      const row = byId.get(preferencePairId(meta(task, 0).treeId, pair));
      expect(row).toMatchObject({
        parentNode: pair.parent,
        chosenNode: pair.chosenNode,
        rejectedNode: pair.rejectedNode,
        explorationId: EXPLORATION,
        taskId: task.id,
        dataset: 'coffee',
        surfaceId: S_OOD_SURFACE.id,
        promptSurfaceId: 'pc',
        model: 'tooldrift-sim-v1 (simulated)',
        seed: 'edge',
      });
      expect(row?.record).toEqual(preferenceRecord(pair, task.question, meta(task, 0)));
    }
    const again = await recordTrajectories(env, tree, meta(task, 0));
    const { dropped, droppedRepeating } = dpoPairSet(tree);
    expect(again.pairs).toEqual({ found: pairs.length, inserted: 0, dropped, droppedRepeating });
    // Every record carries both sides' Q and N (issue 25 item 10).
    for (const row of rows) {
      const m = (row.record as { meta: Record<string, { q: number | null; n: number }> }).meta;
      expect(m.chosen?.n).toEqual(expect.any(Number));
      expect(m.rejected?.n).toEqual(expect.any(Number));
      const c = node(tree, row.chosenNode);
      expect(m.chosen).toEqual({ q: c.visits > 0 ? c.value / c.visits : null, n: c.visits });
    }
  });

  it('exports the stored DPO pairs of every tree, with filters', async () => {
    const pairs = dpoPairs(tree);
    // Failures other than wrong Finishes count, so the whole tree gives more than the Finish-only pairs.
    const finishOnly = dpoPairsFromPaths(
      extractTrajectories(tree, meta(task, 0)).map((t) => ({
        nodes: t.steps.map((s) => s.node),
        steps: t.steps,
        reward: t.reward,
      })),
    );
    expect(pairs.length).toBeGreaterThan(finishOnly.length);
    const key = (p: { parent: number; chosenNode: number; rejectedNode: number }) =>
      `${p.parent}:${p.chosenNode}:${p.rejectedNode}`;
    expect(pairs.map(key)).toEqual(expect.arrayContaining(finishOnly.map(key)));
    // More trees, so that the export spans more than one page (50 lines).
    const copies = Math.max(8, Math.ceil(51 / pairs.length));
    for (let i = 5; i < copies; i++) await recordTrajectories(env, tree, meta(task, i));
    const expected = Array.from({ length: copies }, (_, i) => i).flatMap((i) =>
      pairs.map((p) => JSON.stringify(preferenceRecord(p, task.question, meta(task, i)))),
    );
    const lines = await jsonl(`/v1/exports/dpo.jsonl?exploration=${EXPLORATION}`);
    expect(expected.length).toBeGreaterThan(50);
    const text = lines.map((l) => JSON.stringify(l));
    expect(new Set(text).size).toBe(text.length);
    expect([...text].sort()).toEqual([...expected].sort());
    const first = lines.find((l) => (l.meta as { treeId: string }).treeId === `${EXPLORATION}/tree-0`) as {
      prompt: { role: string; content: string }[];
      chosen: { role: string; content: string }[];
      rejected: { role: string; content: string }[];
    };
    expect(first.prompt.map((m) => m.role)).toEqual(['system', 'user']);
    expect(first.prompt[0]?.content.endsWith('Now it is your turn.')).toBe(true);
    expect(first.prompt[1]?.content.startsWith(`Question: ${task.question.trim()}`)).toBe(true);
    expect(first.chosen[0]?.role).toBe('assistant');
    expect(first.rejected[0]?.role).toBe('assistant');
    expect(
      await jsonl(
        `/v1/exports/dpo.jsonl?exploration=${EXPLORATION}&surface=${S_OOD_SURFACE.id}&dataset=coffee`,
      ),
    ).toHaveLength(expected.length);
    expect(await jsonl(`/v1/exports/dpo.jsonl?exploration=${EXPLORATION}&surface=pc`)).toHaveLength(0);
    expect(await jsonl(`/v1/exports/dpo.jsonl?exploration=${EXPLORATION}&dataset=flights`)).toHaveLength(0);
    await expectProblem(await call('/v1/exports/dpo.jsonl'), 401, 'unauthorized');
  });

  it('answers an export a page at a time: at most `limit` records, Link to the next page, X-Total-Count', async () => {
    const all = await jsonl(`/v1/exports/dpo.jsonl?exploration=${EXPLORATION}`);
    expect(all.length).toBeGreaterThan(50);
    const whole = await call(`/v1/exports/dpo.jsonl?exploration=${EXPLORATION}`, { key: USER_KEY });
    expect(whole.headers.get('x-total-count')).toBe(String(all.length));
    expect(whole.headers.get('link')).toBeNull(); // under the default page size: one page
    await whole.body?.cancel();

    // Pages of 7 (not a multiple of the 50-row chunks a page is read in), followed by their Link headers.
    const paged: string[] = [];
    let next: string | null = `/v1/exports/dpo.jsonl?exploration=${EXPLORATION}&limit=7`;
    let pages = 0;
    while (next) {
      const res = await call(next, { key: USER_KEY });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe(String(all.length));
      const text = await res.text();
      const lines = text === '' ? [] : text.slice(0, -1).split('\n');
      expect(lines.length).toBeLessThanOrEqual(7);
      paged.push(...lines);
      pages++;
      const link = res.headers.get('link');
      next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
      if (next) expect(lines).toHaveLength(7);
    }
    expect(pages).toBe(Math.ceil(all.length / 7));
    expect(paged).toEqual(all.map((l) => JSON.stringify(l)));

    // The SFT export pages the same way, a page cut out of a task's records where it must (pages of 1 and 3,
    // under each selection rule): the pages followed to the end are the whole export.
    for (const [rule, limit] of [
      ['repeat-free', 1],
      ['clean', 3],
      ['uniform', 1],
    ] as const) {
      const whole = await call(`/v1/exports/sft.jsonl?exploration=${EXPLORATION}&selection=${rule}`, {
        key: USER_KEY,
      });
      const expected = (await whole.text()).trim().split('\n');
      expect(whole.headers.get('x-total-count')).toBe(String(expected.length));
      const got: string[] = [];
      let page: string | null =
        `/v1/exports/sft.jsonl?exploration=${EXPLORATION}&selection=${rule}&limit=${limit}`;
      while (page) {
        const res = await call(page, { key: USER_KEY });
        expect(res.headers.get('x-total-count')).toBe(String(expected.length));
        const text = await res.text();
        const lines = text === '' ? [] : text.slice(0, -1).split('\n');
        expect(lines.length).toBeLessThanOrEqual(limit);
        got.push(...lines);
        const link = res.headers.get('link');
        page = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
        if (page) expect(lines).toHaveLength(limit);
      }
      expect(got).toEqual(expected);
    }
    await expectProblem(
      await call(`/v1/exports/sft.jsonl?exploration=${EXPLORATION}&cursor=1_nope`, { key: USER_KEY }),
      400,
      'validation-error',
    );

    await expectProblem(
      await call(`/v1/exports/dpo.jsonl?exploration=${EXPLORATION}&limit=10001`, { key: USER_KEY }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call(`/v1/exports/dpo.jsonl?exploration=${EXPLORATION}&cursor=nope`, { key: USER_KEY }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call(`/v1/exports/dpo.jsonl?exploration=${EXPLORATION}&surface=no-such-surface`, {
        key: USER_KEY,
      }),
      404,
      'not-found',
    );
  });

  it('lists the export and solve routes in /openapi.json', async () => {
    const doc = (await (await call('/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/exports/sft.jsonl', '/v1/exports/dpo.jsonl', '/v1/solve']),
    );
  });

  it('solves a coffee task greedily with the simulator on P_c', async () => {
    const easy = tasks.find((t) => t.dataset === 'coffee' && t.difficulty === 'easy') as Task;
    const res = await call(
      '/v1/solve',
      json({ taskId: easy.id, mode: 'greedy', model: { provider: 'sim' } }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as SolveReply;
    expect(body).toMatchObject({ correct: true, ending: 'finish', mode: 'greedy', search: null });
    expect(body.task).toEqual({ id: easy.id, question: easy.question, dataset: 'coffee' });
    expect(body.model.simulated).toBe(true);
    expect(body.trajectory.steps.at(-1)?.observation).toBe('Answer is CORRECT');
    expect(typeof body.answer).toBe('string');
    expect(body.usage.modelCalls).toBe(body.trajectory.steps.length);
  });

  it('solves with the SFT prompt (prompt: "sft") and refuses it for a search mode, naming the field', async () => {
    const easy = tasks.find((t) => t.dataset === 'coffee' && t.difficulty === 'easy') as Task;
    const res = await call(
      '/v1/solve',
      json({ taskId: easy.id, mode: 'greedy', prompt: 'sft', model: { provider: 'sim' } }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as SolveReply;
    expect(body).toMatchObject({ correct: true, ending: 'finish', mode: 'greedy' });
    const refused = await expectProblem(
      await call('/v1/solve', json({ taskId: easy.id, mode: 'mcts', prompt: 'sft' })),
      400,
      'validation-error',
    );
    expect(JSON.stringify(refused)).toContain('/prompt');
    await expectProblem(
      await call('/v1/solve', json({ taskId: easy.id, prompt: 'chat' })),
      400,
      'validation-error',
    );
  });

  it('solves a coffee task with a small MCTS on a drifted surface', async () => {
    const res = await call(
      '/v1/solve',
      json({
        taskId: task.id,
        mode: 'mcts',
        surface: S_OOD_SURFACE.id,
        search: SEARCH,
        seed: treeSeed,
        model: { provider: 'sim' },
      }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as SolveReply;
    expect(body.mode).toBe('mcts');
    // The same search as the tree found in beforeAll (same task, settings and seed), which holds a correct Finish;
    // the answer is the non-oracle choice (the most visited Finish), so it is right exactly when that one is.
    const leaf = answerLeaf(tree);
    expect(leaf).not.toBeNull();
    expect(body.correct).toBe(node(tree, leaf as number).reward === 1);
    expect(body.answer).toBe(node(tree, leaf as number).state.answer);
    expect(body.ending).toBe('finish');
    expect(body.search?.nodes).toBe(tree.nodes.length);
    expect(body.search?.solutions).toBeGreaterThan(0);
    expect(body.usage.modelCalls).toBe(tree.usage.modelCalls);
    expect(body.trajectory.steps.at(-1)?.observation).toBe(node(tree, leaf as number).observation);
    expect(typeof body.answer).toBe('string');
  });

  it('answers a free question without judging it', async () => {
    const easy = tasks.find((t) => t.dataset === 'coffee' && t.difficulty === 'easy') as Task;
    const res = await call('/v1/solve', json({ question: easy.question, dataset: 'coffee' }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as SolveReply;
    expect(body.correct).toBeNull();
    expect(body.task).toEqual({ id: null, question: easy.question, dataset: 'coffee' });
    expect(body.trajectory.steps.length).toBeGreaterThan(0);
    // Nothing claims the answer wrong: a Finish without gold says it was not judged.
    for (const step of body.trajectory.steps) expect(step.observation).not.toContain('INCORRECT');
  });

  it('rejects bad solve requests with problem+json', async () => {
    const id = tasks[0]?.id;
    await expectProblem(
      await call('/v1/solve', json({ taskId: id, surface: 'nope' })),
      400,
      'validation-error',
    );
    await expectProblem(await call('/v1/solve', json({ taskId: id, mode: 'beam' })), 400, 'validation-error');
    await expectProblem(await call('/v1/solve', json({ mode: 'greedy' })), 400, 'validation-error');
    await expectProblem(
      await call('/v1/solve', json({ taskId: id, question: 'q' })),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('/v1/solve', json({ taskId: id, mode: 'mcts', search: { simulations: 50 } })),
      400,
      'validation-error',
    );
    await expectProblem(await call('/v1/solve', json({ taskId: 'no-such-task' })), 404, 'not-found');
    await expectProblem(await call('/v1/solve', json({ taskId: id }, null)), 401, 'unauthorized');
  });
});
