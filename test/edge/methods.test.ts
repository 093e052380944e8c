/**
 * GET /v1/methods lists the method registry and the aid slots; /v1/solve and /v1/evals take `aids` and answer
 * aids that are not available yet, or that a method does not use, with a 400 problem; an evaluation runs every
 * registered method (read from the registry) with the simulator.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AID_SLOTS } from '../../core/aids/index.ts';
import { METHOD_IDS, METHODS } from '../../core/methods/registry.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import { call, expectProblem, postJson as post, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

let tasks: Task[] = [];
beforeAll(async () => {
  tasks = (await seedTestWorld()).tasks;
});

interface Catalog {
  items: {
    id: string;
    summary: string;
    options: { type: string; properties?: Record<string, { default?: unknown }> };
    carriesMemory: boolean;
    aids: string[];
  }[];
  aids: { slot: string; summary: string; available: boolean; options: { type: string } }[];
  presets: { id: string; method: string; aids: string[]; carriesMemory: boolean }[];
}

async function pointers(res: Response): Promise<{ pointer: string; message: string }[]> {
  const problem = await expectProblem(res, 400, 'validation-error');
  return problem.errors as { pointer: string; message: string }[];
}

describe('GET /v1/methods', () => {
  it('lists every registered method and every aid slot', async () => {
    const res = await call('/v1/methods');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Catalog;
    expect(body.items.map((m) => m.id)).toEqual(METHOD_IDS);
    for (const m of METHODS) {
      const item = body.items.find((i) => i.id === m.id);
      expect(item).toMatchObject({ summary: m.summary, carriesMemory: m.memory !== null, aids: [...m.aids] });
      expect(item?.options.type).toBe('object');
    }
    expect(body.items.find((m) => m.id === 'mcts')?.options.properties?.simulations?.default).toBe(8);
    expect(body.aids.map((a) => [a.slot, a.available])).toEqual(AID_SLOTS.map((s) => [s, true]));
    // The combined agent of a drift stream is a preset: a listed method with every aid it uses on.
    const combined = body.presets.find((p) => p.id === 'combined-greedy');
    expect(combined).toMatchObject({ method: 'greedy-memory', carriesMemory: true });
    expect(combined?.aids.sort()).toEqual([...AID_SLOTS].sort());
    for (const p of body.presets)
      for (const slot of p.aids) expect(body.items.find((m) => m.id === p.method)?.aids).toContain(slot);
  });

  it('is described in /openapi.json, and solve and suites carry the aid fields', async () => {
    const doc = (await (await call('/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }> };
    };
    expect(doc.paths['/v1/methods']?.get).toBeDefined();
    const solve = doc.components.schemas.SolveRequest?.properties;
    expect(Object.keys(solve ?? {})).toContain('aids');
    expect(solve?.mode?.enum).toEqual(METHODS.filter((m) => m.memory === null).map((m) => m.id));
  });
});

describe('aids in requests', () => {
  it('answers aids naming what does not exist with a 400 problem naming the field', async () => {
    const task = tasks.find((t) => t.dataset === 'coffee' && t.difficulty === 'easy') as Task;
    const cases: [unknown, string, RegExp][] = [
      // The toolPool aid is available (issue 14 item 7): a toolset that does not exist is the 400 here.
      [{ toolPool: { pool: 'all', topK: 2 } }, '/aids/toolPool/pool', /no toolset all/],
      // DRAFT documentation sets are available (issue 16): a set that does not exist is the 400 here.
      [
        { documentation: { docset: 'draft-1' } },
        '/aids/documentation/docset',
        /no documentation set draft-1/,
      ],
    ];
    for (const [aids, pointer, message] of cases) {
      const errors = await pointers(
        await post('/v1/solve', { taskId: task.id, model: { provider: 'sim' }, aids }),
      );
      expect(errors.find((e) => e.pointer === pointer)?.message).toMatch(message);
      const suite = await pointers(await post('/v1/evals', { methods: ['greedy'], aids }));
      expect(suite.find((e) => e.pointer === pointer)?.message).toMatch(message);
    }
    // Demonstrations are available: an exemplar set (an STE run id) without exemplars is a 400 on its set.
    const noSet = await pointers(
      await post('/v1/solve', {
        taskId: task.id,
        model: { provider: 'sim' },
        aids: { demonstrations: { set: 'ste-1' } },
      }),
    );
    expect(noSet.find((e) => e.pointer === '/aids/demonstrations/set')?.message).toMatch(
      /no exemplars in set ste-1/,
    );
    const unused = await pointers(
      await post('/v1/solve', {
        taskId: task.id,
        mode: 'mcts',
        aids: { updateMemory: { lines: ['X[a], x'] } },
      }),
    );
    expect(unused).toEqual([
      expect.objectContaining({
        pointer: '/aids/updateMemory',
        message: 'method mcts does not use the updateMemory aid',
      }),
    ]);
    const unknown = await pointers(
      await post('/v1/solve', { taskId: task.id, aids: { documentation: { surface: 'no-such-surface' } } }),
    );
    expect(unknown).toEqual([
      expect.objectContaining({
        pointer: '/aids/documentation/surface',
        message: 'no surface named no-such-surface',
      }),
    ]);
    const suiteUnknown = await pointers(
      await post('/v1/evals', { aids: { documentation: { surface: 'no-such-surface' } } }),
    );
    expect(suiteUnknown.map((e) => e.pointer)).toEqual(['/aids/documentation/surface']);
  });

  it('solves with the updateMemory aid: the lines are listed from the first step and reported', async () => {
    const task = tasks.find((t) => t.dataset === 'coffee' && t.difficulty === 'easy') as Task;
    const line = 'LoadCoffeePrices[Coffee], loads the coffee price table';
    const res = await post('/v1/solve', {
      taskId: task.id,
      model: { provider: 'sim' },
      aids: { updateMemory: { lines: [line] }, documentation: { surface: 'pc' } },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { correct: boolean; trajectory: { toolUpdates: string[] } };
    expect(body.trajectory.toolUpdates[0]).toBe(`(14) ${line}`);
    expect(body.correct).toBe(true);
  });
});

describe('evaluations of every registered method', () => {
  it('runs each method of the registry to a result', async () => {
    const res = await post('/v1/evals', {
      methods: [...METHOD_IDS],
      surfaces: ['pc'],
      datasets: ['coffee'],
      difficulties: ['easy'],
      sampleSize: 1,
      mcts: { simulations: 2, k: 2, maxDepth: 8 },
      seed: 'registry',
      model: { provider: 'sim' },
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const deadline = Date.now() + 50_000;
    let body: { status: string; table: { method: string; average: number | null }[] };
    for (;;) {
      body = (await (await call(`/v1/evals/${id}`, { key: USER_KEY })).json()) as typeof body;
      if (body.status !== 'running' || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(body.status).toBe('done');
    expect(body.table.map((r) => r.method)).toEqual(METHOD_IDS);
    for (const row of body.table) expect(row.average).not.toBeNull();
  });
});
