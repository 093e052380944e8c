import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../core/world/tasks/types.ts';
import type { World } from '../../core/world/types.ts';
import { ADMIN_KEY, call, expectProblem, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

describe('before the world is seeded', () => {
  it('/v1/tasks answers 503 naming the missing world', async () => {
    const { results } = await env.DB.prepare("SELECT count(*) AS n FROM meta WHERE key = 'world'").all<{
      n: number;
    }>();
    if (results[0]?.n) return; // another file of this isolate seeded it already
    const body = await expectProblem(await call('/v1/tasks'), 503, 'unavailable');
    expect(body.detail).toContain('npm start');
    const datasets = (await (await call('/v1/datasets')).json()) as { world: { seeded: boolean } };
    expect(datasets.world.seeded).toBe(false);
  });
});

describe('world endpoints', () => {
  let world: World;
  let tasks: Task[];
  beforeAll(async () => {
    ({ world, tasks } = await seedTestWorld());
  });

  it('GET /v1/datasets lists every dataset with schema, sizes and task counts', async () => {
    const res = await call('/v1/datasets');
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      world: { seed: string; scale: number; seeded: boolean; hashes: Record<string, string> };
      datasets: {
        name: string;
        columns?: { name: string }[];
        sizes: Record<string, number>;
        tasks: Record<string, Record<string, number>>;
      }[];
    };
    expect(body.world).toMatchObject({ seed: 'edge-test', scale: 0.05, seeded: true });
    expect(body.world.hashes.world).toMatch(/^[0-9a-f]{16}$/);
    expect(body.datasets.map((d) => d.name)).toEqual([
      'flights',
      'coffee',
      'airbnb',
      'yelp',
      'agenda',
      'scirex',
      'dblp',
      'gsm8k',
    ]);
    const flights = body.datasets.find((d) => d.name === 'flights');
    expect(flights?.sizes.rows).toBe(world.tables.flights.rowCount);
    expect(flights?.columns?.map((c) => c.name)).toEqual(world.tables.flights.columnNames());
    const coffee = body.datasets.find((d) => d.name === 'coffee');
    const coffeeTests = tasks.filter(
      (t) => t.dataset === 'coffee' && t.difficulty === 'hard' && t.split === 'test',
    );
    expect(coffee?.tasks.hard?.test).toBe(coffeeTests.length);
  });

  it('GET /v1/datasets/{name} returns one dataset and validates the name', async () => {
    const res = await call('/v1/datasets/dblp');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { dataset: { name: string; sizes: Record<string, number> } };
    expect(body.dataset.name).toBe('dblp');
    expect(body.dataset.sizes.papers).toBe(world.dblp.papers.size);
    const bad = await expectProblem(await call('/v1/datasets/mnist'), 400, 'validation-error');
    expect(bad.field).toBe('name');
  });

  it('GET /v1/tasks filters and paginates with a cursor', async () => {
    const first = await call('/v1/tasks?dataset=coffee&difficulty=hard&split=test&limit=2');
    expect(first.status).toBe(200);
    const page1 = (await first.json()) as {
      items: { id: string; question: string; gold?: unknown }[];
      nextCursor: string;
    };
    expect(page1.items).toHaveLength(2);
    expect(page1.items.every((t) => t.id.startsWith('coffee-hard-test-'))).toBe(true);
    expect(page1.items[0]).not.toHaveProperty('gold');
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = (await (
      await call(`/v1/tasks?dataset=coffee&difficulty=hard&split=test&limit=2&cursor=${page1.nextCursor}`)
    ).json()) as {
      items: { id: string }[];
    };
    expect((second.items[0]?.id ?? '') > (page1.items[1]?.id ?? '')).toBe(true);
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `/v1/tasks?dataset=coffee&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await (await call(q)).json()) as { items: { id: string }[]; nextCursor: string | null };
      all.push(...page.items.map((t) => t.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(all).toEqual(
      tasks
        .filter((t) => t.dataset === 'coffee')
        .map((t) => t.id)
        .sort(),
    );
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['dataset=imagenet', 'dataset'],
    ['difficulty=medium', 'difficulty'],
    ['split=validation', 'split'],
  ])('GET /v1/tasks?%s is a 400 naming %s', async (query, field) => {
    const body = await expectProblem(await call(`/v1/tasks?${query}`), 400, 'validation-error');
    expect(body.field).toBe(field);
  });

  it('GET /v1/tasks/{id} shows gold and plan to admins only', async () => {
    const task = tasks.find((t) => t.split === 'test') as Task;
    const publicView = (await (await call(`/v1/tasks/${task.id}`)).json()) as Record<string, unknown>;
    expect(publicView).toMatchObject({ id: task.id, question: task.question, dataset: task.dataset });
    expect(publicView).not.toHaveProperty('gold');
    expect(publicView).not.toHaveProperty('plan');
    const userView = (await (await call(`/v1/tasks/${task.id}`, { key: USER_KEY })).json()) as Record<
      string,
      unknown
    >;
    expect(userView).not.toHaveProperty('gold');
    const adminView = (await (await call(`/v1/tasks/${task.id}`, { key: ADMIN_KEY })).json()) as Record<
      string,
      unknown
    >;
    expect(adminView.gold).toEqual(task.gold);
    expect(adminView.plan).toEqual(task.plan);
    expect((adminView.plan as { tool: string }[]).at(-1)?.tool).toBe('Finish');
    await expectProblem(await call(`/v1/tasks/${task.id}`, { key: 'wrong' }), 401, 'unauthorized');
    await expectProblem(await call('/v1/tasks/no-such-task'), 404, 'not-found');
  });

  it('writes the SQL mirror and the passage index to D1', async () => {
    const n = await env.DB.prepare('SELECT count(*) AS n FROM flights_data').first<{ n: number }>('n');
    expect(n).toBe(world.tables.flights.rowCount);
    const passages = await env.DB.prepare('SELECT count(*) AS n FROM world_passages').first<{ n: number }>(
      'n',
    );
    expect(passages).toBe(world.agendaPassages.length + world.scirex.passages.length);
    const person = world.agendaEvents[0]?.person as string;
    const hit = await env.DB.prepare(
      'SELECT count(*) AS n FROM world_passages_fts WHERE world_passages_fts MATCH ?',
    )
      .bind(`"${person}"`)
      .first<{ n: number }>('n');
    expect(hit).toBeGreaterThan(0);
  });
});
