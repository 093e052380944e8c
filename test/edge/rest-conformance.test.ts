import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { stepSurface } from '../../core/surfaces/adapter.ts';
import { builtinSurface } from '../../core/surfaces/builtin.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import { INVALID_ACTION } from '../../core/world/kernel/messages.ts';
import { type EnvState, initialState } from '../../core/world/kernel/state.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import type { World } from '../../core/world/types.ts';
import { edgeKernelDeps } from '../../functions/world-runtime.ts';
import { postJson as post } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

/**
 * REST conformance: every tool of pc, s-in and s-ood called over HTTP answers exactly what the surface adapter
 * answers in-process for the same call on the same state (200 with the observation, 400 with it as the problem
 * detail), retired names answer 410 with their exact deprecation message, unknown names 404 with the exact
 * invalid-action text. (The adapter's own exactness against the spec is tested in test/core/surfaces.)
 */
describe.each(['pc', 's-in', 's-ood'])('REST conformance on %s', (surfaceId) => {
  let world: World;
  let task: Task;
  let surface: Surface;
  beforeAll(async () => {
    const seeded = await seedTestWorld();
    world = seeded.world;
    task = seeded.tasks.find((t) => t.dataset === 'coffee') as Task;
    surface = builtinSurface(surfaceId) as Surface;
  });

  it('answers every tool, retired name, unknown name and wrong key set exactly like the adapter', async () => {
    const session = (await (
      await post('/v1/sessions', { taskId: task.id, surface: surfaceId, stepBudget: 200 })
    ).json()) as {
      id: string;
    };
    const deps = edgeKernelDeps(env, task.gold);
    let state: EnvState = initialState();
    const expectLike = async (name: string, args: Record<string, unknown>) => {
      const local = await stepSurface(world, surface, state, { action: name, actionInput: args }, deps);
      state = local.state;
      const res = await post(`/v1/sessions/${session.id}/tools/${encodeURIComponent(name)}`, args);
      const body = (await res.json()) as { observation?: string; detail?: string; successor?: string };
      if (local.outcome.kind === 'rejected') {
        const want = local.outcome.reason === 'retired' ? 410 : local.kernel === undefined ? 404 : 400;
        expect(res.status, `${name} ${JSON.stringify(args)}`).toBe(want);
        if (want === 404)
          expect(body.detail).toBe(`No tool named ${name} on this surface. ${local.observation}`);
        else expect(body.detail).toBe(local.observation);
      } else {
        expect(res.status, name).toBe(200);
        expect(body.observation).toBe(local.observation);
      }
      return { res, body, local };
    };

    const tools = surface.tools.filter((t) => t.name !== 'Finish');
    for (const t of tools) await expectLike(t.name, t.example);
    for (const t of tools) {
      // Mostly a parameter error; a lone numbered group may legitimately be empty (spec §4.3: `{ }` gives an
      // empty condition), which expectLike checks against the adapter too.
      const { res, local } = await expectLike(t.name, {});
      if (surfaceId === 'pc') {
        expect(res.status).toBe(400);
        expect(local.observation).toBe(INVALID_ACTION);
      }
    }
    for (const r of surface.retired) {
      const { body } = await expectLike(r.name, {});
      expect(body.detail).toBe(r.message);
      expect(body.successor).toBe(r.successor);
    }
    const unknown = await expectLike('Calculate', { formula: '1+1' });
    expect(unknown.res.status).toBe(404);
    expect(unknown.local.observation).toBe(INVALID_ACTION);
    const finish = await expectLike('Finish', { answer: 'not the answer' });
    expect(finish.body.observation).toBe('Answer is INCORRECT');
  });
});
