/**
 * The toolPool aid through the API (issue 14 item 7): `POST /v1/solve` and an evaluation with the surface's tools
 * hidden in a synthetic toolset (bm25, untrained judge gate), and its bad options as 400 problems naming the field
 * (unknown toolset, topK out of range, an unknown pool surface, a method that does not use the aid).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../core/world/tasks/types.ts';
import { call, expectProblem, postJson as post, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

let tasks: Task[] = [];
let toolset = '';
beforeAll(async () => {
  tasks = (await seedTestWorld()).tasks;
  const res = await post('/v1/toolsets', {
    source: 'synthetic',
    name: 'distractors',
    tools: 500,
    seed: 'pool',
  });
  expect(res.status).toBe(201);
  toolset = ((await res.json()) as { id: string }).id;
});

async function pointers(res: Response): Promise<{ pointer: string; message: string }[]> {
  const problem = await expectProblem(res, 400, 'validation-error');
  return problem.errors as { pointer: string; message: string }[];
}

describe('the toolPool aid over HTTP', () => {
  it('solves a task on s-ood through the aid (greedy and mcts), the same way twice', async () => {
    const task = tasks.find((t) => t.dataset === 'coffee' && t.difficulty === 'easy') as Task;
    const body = {
      taskId: task.id,
      surface: 's-ood',
      promptSurface: 's-ood',
      model: { provider: 'sim' },
      aids: { toolPool: { pool: toolset, topK: 3, size: 300 } },
      seed: 'pool',
    };
    const first = await post('/v1/solve', body);
    expect(first.status).toBe(200);
    const a = (await first.json()) as {
      model: { name: string; simulated: boolean };
      trajectory: { steps: { text: string; observation: string }[] };
    };
    expect(a.trajectory.steps.length).toBeGreaterThan(0);
    expect(a.model.simulated).toBe(true);
    expect(a.model.name).toMatch(/simulator/);
    const b = (await (await post('/v1/solve', body)).json()) as typeof a;
    expect(b.trajectory.steps.map((s) => s.text)).toEqual(a.trajectory.steps.map((s) => s.text));
    // mcts lists the aid as well.
    const mcts = await post('/v1/solve', {
      ...body,
      mode: 'mcts',
      search: { simulations: 2, k: 2, maxDepth: 6 },
    });
    expect(mcts.status).toBe(200);
  });

  it('runs an evaluation with the aid to a result', async () => {
    const res = await post('/v1/evals', {
      methods: ['greedy'],
      surfaces: ['s-ood'],
      promptSurface: 's-ood',
      datasets: ['coffee'],
      difficulties: ['easy'],
      sampleSize: 1,
      seed: 'pool',
      model: { provider: 'sim' },
      aids: { toolPool: { pool: toolset, topK: 2, surfaces: ['pc', 's-ood'] } },
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
    expect(body.table.map((r) => r.method)).toEqual(['greedy']);
    expect(body.table[0]?.average).not.toBeNull();
  });

  it('answers bad toolPool options with a 400 naming the field', async () => {
    const task = tasks.find((t) => t.dataset === 'coffee' && t.difficulty === 'easy') as Task;
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { aids: { toolPool: { pool: 'no-such-toolset' } } },
        '/aids/toolPool/pool',
        /no toolset no-such-toolset/,
      ],
      [{ aids: { toolPool: { pool: toolset, topK: 51 } } }, '/aids/toolPool/topK', /./],
      [{ aids: { toolPool: { pool: toolset, topK: 0 } } }, '/aids/toolPool/topK', /./],
      [{ aids: { toolPool: { pool: toolset, ranker: 'cotools' } } }, '/aids/toolPool/ranker', /./],
      [
        { aids: { toolPool: { pool: toolset, surfaces: ['no-such-surface'] } } },
        '/aids/toolPool/surfaces/0',
        /no surface named no-such-surface/,
      ],
    ];
    for (const [extra, pointer, message] of cases) {
      const solve = await pointers(
        await post('/v1/solve', { taskId: task.id, model: { provider: 'sim' }, ...extra }),
      );
      expect(solve.find((e) => e.pointer === pointer)?.message, pointer).toMatch(message);
      const suite = await pointers(await post('/v1/evals', { methods: ['greedy'], ...extra }));
      expect(suite.find((e) => e.pointer === pointer)?.message, pointer).toMatch(message);
    }
    // The Table 5 ablations keep the paper's setting and do not list the aid.
    const unused = await pointers(
      await post('/v1/evals', {
        methods: ['greedy', 'mcts-no-tool-update'],
        aids: { toolPool: { pool: toolset } },
      }),
    );
    expect(unused).toEqual([
      expect.objectContaining({
        pointer: '/aids/toolPool',
        message: 'method mcts-no-tool-update does not use the toolPool aid',
      }),
    ]);
  });
});
