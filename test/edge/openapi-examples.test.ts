/**
 * Every request body in /openapi.json has an example for each of its media types, and the server accepts each
 * example as it is (issue 24 item 7: /docs had no example on any of its request bodies, and Swagger's generated one
 * for POST /v1/sessions was refused by "Try it out"). Path parameters are filled with resources the examples
 * themselves created (a session, a schedule, a toolset), tool names with Init_DB (s-ood's LoadDB, the session example's surface).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, call, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

interface Operation {
  'x-admin-only'?: boolean;
  requestBody?: { content: Record<string, { example?: unknown }> };
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
}

async function waitForTraining(toolset: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const res = await call(`/v1/toolsets/${toolset}/training?limit=1`, { key: USER_KEY });
    const page = (await res.json()) as { items: { status: string; error: string | null }[] };
    const status = page.items[0]?.status;
    if (status === 'succeeded' || status === 'failed') return `${status}${page.items[0]?.error ?? ''}`;
    await new Promise((r) => setTimeout(r, 100));
  }
  return 'timed out';
}

describe('OpenAPI request examples', () => {
  let doc: Doc;
  beforeAll(async () => {
    await seedTestWorld();
    doc = (await (await call('/openapi.json')).json()) as Doc;
  });

  it('documents an example for every media type of every request body', () => {
    const bodies = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) =>
        Object.entries(op.requestBody?.content ?? {}).map(([type, media]) => ({
          at: `${method.toUpperCase()} ${path} ${type}`,
          example: media.example,
        })),
      ),
    );
    expect(bodies.length).toBeGreaterThanOrEqual(22); // 21 operations, the step in two media types
    expect(bodies.filter((b) => b.example === undefined).map((b) => b.at)).toEqual([]);
  });

  it('accepts every example as it is (2xx), in document order', async () => {
    const created = new Map<string, string>(); // collection path → id the example created
    const answers: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
          const url = path.replace(/\/\{(\w+)\}/g, (_, name: string, offset: number) => {
            if (name === 'name') return '/Init_DB'; // the session example's surface is s-ood
            const collection = path.slice(0, offset);
            const id = created.get(collection);
            if (!id) throw new Error(`${path}: no ${collection} was created before it`);
            return `/${id}`;
          });
          if (url.endsWith('/judge')) {
            // The judge answers once the toolset's training (the train example, posted before) has finished.
            expect(await waitForTraining(url.split('/')[3] as string)).toBe('succeeded');
          }
          const res = await call(url, {
            method: method.toUpperCase(),
            key: op['x-admin-only'] ? ADMIN_KEY : USER_KEY,
            headers: {
              'content-type': type,
              ...(path.endsWith('/mcp') ? { accept: 'application/json, text/event-stream' } : {}),
            },
            // A text body (ReAct text, a YAML document) is sent as it is; JSON bodies as JSON.
            body:
              typeof media.example === 'string' && !type.includes('json')
                ? media.example
                : JSON.stringify(media.example),
          });
          const text = await res.text();
          answers.push(`${res.status} ${method.toUpperCase()} ${url} ${type} ${text.slice(0, 200)}`);
          if (
            res.status < 300 &&
            method === 'post' &&
            res.headers.get('content-type') === 'application/json'
          ) {
            const id = (JSON.parse(text) as { id?: string }).id;
            if (id) created.set(path, id);
          }
        }
      }
    }
    expect(answers.filter((a) => !/^2\d\d /.test(a))).toEqual([]);
    expect(answers.length).toBeGreaterThanOrEqual(22);
  }, 300_000);
});
