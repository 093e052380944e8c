/** Smoke test of the shared local instance (test/e2e/local-instance.ts): it is healthy, seeded and keyed. */
import { describe, expect, inject, it } from 'vitest';

const baseUrl = inject('baseUrl');
const userKey = inject('userKey');
const adminKey = inject('adminKey');

describe('local e2e instance', () => {
  it('is healthy and serves the seeded e2e world', async () => {
    const res = await fetch(`${baseUrl}/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      status: string;
      checks: { world: { seed?: string; scale?: number } };
    };
    expect(body.status).toBe('ok');
    expect(body.checks.world).toMatchObject({ seed: 'e2e', scale: 0.05 });
  });

  it('lists tasks and the seven ToolQA-D datasets', async () => {
    const res = await fetch(`${baseUrl}/v1/tasks?limit=5`, {
      headers: { authorization: `Bearer ${userKey}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { id: string; dataset: string }[] };
    expect(body.items.length).toBeGreaterThan(0);
    const datasets = (await (await fetch(`${baseUrl}/v1/datasets`)).json()) as {
      datasets: { name: string; tasks?: unknown }[];
    };
    expect(datasets.datasets.map((d) => d.name)).toEqual(
      expect.arrayContaining(['flights', 'coffee', 'airbnb', 'yelp', 'agenda', 'scirex', 'dblp']),
    );
  });

  it('accepts the provided keys and only those', async () => {
    const call = (key: string) =>
      fetch(`${baseUrl}/v1/explorations/nope`, { headers: { authorization: `Bearer ${key}` } });
    expect((await call(userKey)).status).toBe(404);
    expect((await call(adminKey)).status).toBe(404);
    const rejected = await call('dev-user-key');
    expect(rejected.status).toBe(401);
    expect(rejected.headers.get('content-type')).toContain('application/problem+json');
  });
});
