/**
 * DRAFT at the edge: runs through the queue and one Durable Object per (run, tool), documentation sets in D1
 * rendered like a surface's documentation, revision diffs, a tool object evicted before every alarm ending with
 * the documentation of an uninterrupted run, and bad input answered with problem+json.
 */
import { evictDurableObject, runDurableObjectAlarm } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { draftToolEmbedRequests, draftToolModelCalls, resolveDraftOptions } from '../../core/draft/config.ts';
import { initialDocSet } from '../../core/draft/docset.ts';
import { advanceTool } from '../../core/draft/loop.ts';
import { startDocSet, toolStatesFor } from '../../core/draft/run.ts';
import { LexicalEmbeddingModel } from '../../core/models/lexical.ts';
import { USE_MODEL } from '../../core/models/use-tokenizer.ts';
import { PC_SURFACE, S_IN_SURFACE } from '../../core/surfaces/builtin.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import { database } from '../../db/client.ts';
import { docsetRevisions } from '../../db/schema.ts';
import { draftEmbedderFor, draftRunEstimate } from '../../edge/jobs/draft.ts';
import { textModelFor } from '../../edge/models.ts';
import { saveDocset } from '../../edge/stores/draft.ts';
import { draftToolStub } from '../../edge/stubs.ts';
import { edgeKernelDeps, worldFor } from '../../edge/world-runtime.ts';
import { call, expectProblem, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

let tasks: Task[];
beforeAll(async () => {
  ({ tasks } = await seedTestWorld());
}, 120_000);

function post(body: unknown, key: string | null = USER_KEY) {
  return call('/v1/draft/runs', {
    method: 'POST',
    ...(key ? { key } : {}),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

interface RunView {
  id: string;
  status: string;
  docsetId: string | null;
  parentDocset: string | null;
  progress: { tools: number; done: number; modelCalls: number };
  tools: {
    key: string;
    status: string;
    deltas: { iteration: number; delta: number | null }[];
    stop: string | null;
  }[];
}

// The first run of this file loads USE lite in the tool objects' isolate (DRAFT's default encoder here): seconds
// on an idle machine, tens of seconds under load.
async function waitForRun(id: string, timeoutMs = 150_000): Promise<RunView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(`/v1/draft/runs/${id}`, { key: USER_KEY });
    const body = (await res.json()) as RunView;
    if (!['queued', 'running', 'finalizing'].includes(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('DRAFT runs', () => {
  it('re-documents P_c tools on s-in through the queue and stores the set with every revision', async () => {
    const res = await post({
      surface: 's-in',
      tools: ['LoadDB', 'GetValue'],
      chunkSteps: 2,
      options: { seed: 'edge' },
    });
    expect(res.status).toBe(202);
    const created = (await res.json()) as RunView;
    expect(created.progress.tools).toBe(2);
    const done = await waitForRun(created.id);
    expect(done.status).toBe('succeeded');
    expect(done.progress).toMatchObject({ tools: 2, done: 2 });
    expect(done.progress.modelCalls).toBeGreaterThan(0);
    for (const t of done.tools) {
      expect(t.status).toBe('succeeded');
      expect(['converged', 'max-iterations', 'rewrite-failed', 'no-success']).toContain(t.stop);
      expect(t.deltas.length).toBeGreaterThan(0);
      expect(t.deltas.every((d) => typeof d.delta === 'number')).toBe(true);
    }
    const id = done.docsetId as string;
    expect(id).toBe(`docset-${created.id}`);

    const json = (await (await call(`/v1/docsets/${id}`, { key: USER_KEY })).json()) as {
      simulated: boolean;
      encoder: string;
      tools: { key: string; versions: unknown[]; doc: { name: string }; flags: string[] }[];
      categories: { name: string; description: string }[];
    };
    expect(json.simulated).toBe(true);
    expect(json.tools.map((t) => t.key)).toContain('Finish');
    expect(json.categories.find((c) => c.name === 'database')?.description).not.toBe('');
    const revisions = await database(env.DB)
      .select()
      .from(docsetRevisions)
      .where(eq(docsetRevisions.docsetId, id));
    expect(revisions).toHaveLength(json.tools.reduce((s, t) => s + t.versions.length, 0));

    // φ and Δ were measured with USE lite: no provider embedding is configured here (EMBEDDING_PROVIDER=lexical).
    expect(json.encoder).toBe(USE_MODEL);
    // s-in serves none of the P_c names it retired: the tools this run did not re-document keep their stale pc
    // lines, flagged not-served, and no rendering presents them as current documentation.
    const current = json.tools.filter((t) => !t.flags.includes('not-served'));
    expect(json.tools.find((t) => t.key === 'RetrieveAgenda')?.flags).toEqual(['not-served']);
    const prompt = (await (await call(`/v1/docsets/${id}?format=prompt`, { key: USER_KEY })).json()) as {
      text: string;
      flagged: { key: string; stop: string; flags: string[]; current: boolean }[];
    };
    expect(prompt.text.split('\n')).toHaveLength(current.length);
    expect(prompt.text).not.toContain('RetrieveAgenda[');
    expect(prompt.text).toContain('Finish[answer]');
    expect(prompt.flagged.find((f) => f.key === 'RetrieveAgenda')).toEqual({
      key: 'RetrieveAgenda',
      name: 'RetrieveAgenda',
      stop: 'not-explored',
      flags: ['not-served'],
      current: false,
    });
    const schema = (await (await call(`/v1/docsets/${id}?format=json-schema`, { key: USER_KEY })).json()) as {
      schema: { tools: { name: string; inputSchema: { type: string } }[] };
    };
    expect(schema.schema.tools.every((t) => t.inputSchema.type === 'object')).toBe(true);
    const openapi = (await (await call(`/v1/docsets/${id}?format=openapi`, { key: USER_KEY })).json()) as {
      openapi: { paths: Record<string, unknown>; tags: { name: string }[] };
    };
    expect(Object.keys(openapi.openapi.paths)).toHaveLength(current.length);

    // A first set has no parent (a 400 naming `against`); against its source (the default) it lists what DRAFT
    // changed from the documentation it started from.
    const noParent = await expectProblem(
      await call(`/v1/docsets/${id}/diff?against=parent`, { key: USER_KEY }),
      400,
      'validation-error',
    );
    expect(noParent.field).toBe('against');
    const fromSource = (await (await call(`/v1/docsets/${id}/diff`, { key: USER_KEY })).json()) as {
      against: string;
      source: string;
      tools: { key: string; before: string; after: string; changed: boolean }[];
    };
    expect(fromSource).toMatchObject({ against: 'source', source: 'pc' });
    expect(fromSource.tools).toHaveLength(13);
    for (const t of fromSource.tools) expect(t.changed).toBe(t.before !== t.after);
    const explored = json.tools.filter((t) => t.versions.length > 1).map((t) => t.key);
    expect(explored.length).toBeGreaterThan(0);
    for (const t of fromSource.tools.filter((x) => !explored.includes(x.key))) expect(t.changed).toBe(false);

    // Continue the set: the new run starts from it and the diff against its parent lists every tool.
    const next = await post({ surface: 's-in', fromDocset: id, tools: ['LoadDB'], chunkSteps: 3 });
    expect(next.status).toBe(202);
    const second = await waitForRun(((await next.json()) as RunView).id);
    expect(second).toMatchObject({ status: 'succeeded', parentDocset: id });
    const diff = (await (
      await call(`/v1/docsets/${second.docsetId}/diff?against=parent`, { key: USER_KEY })
    ).json()) as {
      against: string;
      tools: { key: string; changed: boolean }[];
    };
    expect(diff.against).toBe(id);
    expect(diff.tools).toHaveLength(13);
    expect(diff.tools.filter((t) => t.key !== 'LoadDB').every((t) => !t.changed)).toBe(true);

    const page = await call('/v1/draft/runs?limit=1', { key: USER_KEY });
    const list = (await page.json()) as { items: RunView[]; nextCursor: string | null };
    expect(list.items).toHaveLength(1);
    expect(list.items[0]?.id).toBe(second.id);
    expect(list.nextCursor).toMatch(/^\d+_/);
    expect(page.headers.get('link')).toContain('rel="next"');
    const older = (await (
      await call(`/v1/draft/runs?limit=1&cursor=${encodeURIComponent(list.nextCursor ?? '')}`, {
        key: USER_KEY,
      })
    ).json()) as { items: RunView[] };
    expect(older.items[0]?.id).not.toBe(second.id);
  }, 200_000);

  it('ends an evicted-before-every-alarm tool object with the documentation of an uninterrupted run', async () => {
    const options = resolveDraftOptions({ seed: 'evict' });
    const model = textModelFor(env, {});
    const start = startDocSet({
      docs: PC_SURFACE,
      server: 's-in',
      model: model.model,
      simulated: true,
      options,
    });
    const [state] = toolStatesFor(start, ['GetValue']);
    const stub = draftToolStub(env, 'evict-run', 'GetValue');
    const doStub = env.DRAFT_TOOLS.get(env.DRAFT_TOOLS.idFromName('evict-run/GetValue'));
    await stub.start({ runId: 'evict-run', state: state!, serverSurface: 's-in', model: {}, chunkSteps: 1 });
    let rounds = 0;
    for (; rounds < 100; rounds++) {
      const p = await stub.progress();
      if (p?.status !== 'running') break;
      await evictDurableObject(doStub);
      await runDurableObjectAlarm(doStub);
    }
    const stored = await stub.state();
    expect(stored?.phase).toBe('done');
    expect(rounds).toBeGreaterThan(3);
    const reference = await advanceTool(state!, {
      model,
      embedder: draftEmbedderFor(env, options.encoder),
      world: worldFor(env),
      server: S_IN_SURFACE,
      deps: edgeKernelDeps(env),
    });
    expect(stored).toEqual(JSON.parse(JSON.stringify(reference)));
    // A second start is a no-op.
    await stub.start({ runId: 'evict-run', state: state!, serverSurface: 'pc', model: {}, chunkSteps: 1 });
    expect(await stub.state()).toEqual(stored);
  }, 120_000);

  it('measures φ and Δ with USE lite unless a provider embedding is configured (encoder: auto)', () => {
    // Here EMBEDDING_PROVIDER is lexical: no provider embedding, so `auto` is the sentence encoder the project ships.
    expect(draftEmbedderFor(env, 'auto').model).toBe(USE_MODEL);
    expect(draftEmbedderFor(env, 'use').model).toBe(USE_MODEL);
    expect(draftEmbedderFor(env, 'lexical').model).toBe(new LexicalEmbeddingModel().model);
    // A tool state stored before the option existed keeps the deployment's encoder it was measured with.
    expect(draftEmbedderFor(env, undefined).model).toBe(new LexicalEmbeddingModel().model);
    const withProvider = { ...env, EMBEDDING_PROVIDER: 'workers-ai', AI: {} } as unknown as typeof env;
    expect(draftEmbedderFor(withProvider, 'auto').model).toBe('@cf/baai/bge-base-en-v1.5');
    expect(draftEmbedderFor(withProvider, 'use').model).toBe(USE_MODEL);
    // A provider embedding bills each request: the run's estimate counts φ's and Δ's requests then, not otherwise.
    const options = resolveDraftOptions({ iterations: 2 });
    const tools = ['LoadDB', 'GetValue', 'EdgeCheck'];
    const text = tools.length * draftToolModelCalls(options);
    expect(draftRunEstimate(env, { options, tools }).modelCalls).toBe(text);
    expect(draftRunEstimate(withProvider, { options, tools }).modelCalls).toBe(
      text + tools.length * draftToolEmbedRequests(options),
    );
    const local = { options: { ...options, encoder: 'use' as const }, tools };
    expect(draftRunEstimate(withProvider, local).modelCalls).toBe(text);
  });

  it('cancels a run', async () => {
    const res = await post({ surface: 's-ood', options: { adaptiveTermination: false }, chunkSteps: 1 });
    const { id } = (await res.json()) as RunView;
    const del = await call(`/v1/draft/runs/${id}`, { method: 'DELETE', key: USER_KEY });
    expect(del.status).toBe(200);
    const view = (await del.json()) as RunView;
    expect(view.status).toBe('cancelled');
    expect(view.tools.every((t) => t.status === 'cancelled' || t.status === 'succeeded')).toBe(true);
    await expectProblem(
      await call(`/v1/draft/runs/${id}`, { method: 'DELETE', key: USER_KEY }),
      409,
      'conflict',
    );
  });
});

describe('DRAFT documentation as what an agent is given', () => {
  it('gives a session the refined documentation, and serves the refined descriptions over MCP', async () => {
    const set = initialDocSet(PC_SURFACE, 's-in', 'manual', false, resolveDraftOptions());
    const refined = {
      name: 'InitializeDatabase',
      params: [{ name: 'DatabaseName', required: true }],
      description: 'which loads the database DatabaseName, one of flights/coffee/airbnb/yelp/agenda.',
    };
    set.tools = set.tools.map((t) => (t.key === 'LoadDB' ? { ...t, doc: refined } : t));
    await saveDocset(env, 'docset-session-test', 'manual', set);

    const res = await call('/v1/sessions', {
      method: 'POST',
      key: USER_KEY,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ surface: 's-in', docset: 'docset-session-test', seed: 'docset' }),
    });
    expect(res.status).toBe(201);
    const session = (await res.json()) as { id: string; tools: string; promptSurface: string };
    expect(session.promptSurface).toBe('pc+draft');
    expect(session.tools).toContain(
      '(3) InitializeDatabase[DatabaseName], which loads the database DatabaseName',
    );
    expect(session.tools).toContain('(4) FilterDB[condition], ');

    const transport = new StreamableHTTPClientTransport(
      new URL(`https://tooldrift.test/v1/sessions/${session.id}/mcp`),
      {
        fetch: (url, init) => exports.default.fetch(new Request(url, init)),
        requestInit: { headers: { authorization: `Bearer ${USER_KEY}` } },
      },
    );
    const client = new Client({ name: 'draft-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t.description]));
      expect(byName.get('InitializeDatabase')).toBe(
        'InitializeDatabase[DatabaseName], which loads the database DatabaseName, one of flights/coffee/airbnb/yelp/agenda.',
      );
      // A served tool the set has no documentation for under its name keeps the surface's own description.
      expect(byName.get('Apply_Database_Filters')).toMatch(
        /^Apply_Database_Filters\[condition1, condition2, \.\.\.\], which filters the loaded database/,
      );
    } finally {
      await client.close();
    }
    await expectProblem(
      await call('/v1/sessions', {
        method: 'POST',
        key: USER_KEY,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ surface: 's-in', docset: 'docset-nope' }),
      }),
      400,
      'validation-error',
    );
  });
});

describe('DRAFT documentation as the documentation aid', () => {
  it('POST /v1/solve and evaluation suites accept a documentation set; unknown sets are 400s', async () => {
    const json = (path: string, body: unknown) =>
      call(path, {
        method: 'POST',
        key: USER_KEY,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const task = tasks.find((t) => t.dataset === 'coffee') as Task;
    const solved = await json('/v1/solve', {
      taskId: task.id,
      surface: 's-in',
      aids: { documentation: { docset: 'docset-session-test' } },
    });
    expect(solved.status).toBe(200);
    const body = (await solved.json()) as { trajectory: { steps: { action?: string }[] } };
    // The agent read the set's refined LoadDB (InitializeDatabase) and called it under that name.
    expect(body.trajectory.steps[0]?.action).toBe('InitializeDatabase');
    const missing = await expectProblem(
      await json('/v1/solve', {
        taskId: task.id,
        surface: 's-in',
        aids: { documentation: { docset: 'nope' } },
      }),
      400,
      'validation-error',
    );
    expect(JSON.stringify(missing.errors)).toContain('aids.documentation.docset');
    const evalProblem = await expectProblem(
      await json('/v1/evals', {
        methods: ['greedy'],
        surfaces: ['s-in'],
        aids: { documentation: { docset: 'nope' } },
      }),
      400,
      'validation-error',
    );
    expect(JSON.stringify(evalProblem.errors)).toContain('/aids/documentation/docset');
  });
});

describe('DRAFT routes reject bad input', () => {
  it('needs a key to start, list or read runs', async () => {
    await expectProblem(await post({ surface: 's-in' }, null), 401, 'unauthorized');
    await expectProblem(await call('/v1/draft/runs'), 401, 'unauthorized');
  });

  it('answers invalid bodies with 400 naming the field', async () => {
    for (const [body, field] of [
      [{}, 'surface'],
      [{ surface: 's-in', extra: 1 }, ''],
      [{ surface: 'no-such-surface' }, 'surface'],
      [{ surface: 's-in', docsSurface: 'nope' }, 'docsSurface'],
      [{ surface: 's-in', tools: ['NoSuchTool'] }, 'tools'],
      [{ surface: 's-in', tools: ['Finish'] }, 'tools'],
      [{ surface: 's-in', tools: [] }, 'tools'],
      [{ surface: 's-in', fromDocset: 'docset-missing' }, 'fromDocset'],
      [{ surface: 's-in', options: { phi: 2 } }, 'options'],
      [{ surface: 's-in', options: { iterations: 0 } }, 'options'],
      [{ surface: 's-in', model: { provider: 'nope' } }, 'model'],
      [{ surface: 's-in', chunkSteps: 0 }, 'chunkSteps'],
    ] as const) {
      const problem = await expectProblem(await post(body), 400, 'validation-error');
      if (field !== '') expect(JSON.stringify(problem.errors), JSON.stringify(body)).toContain(field);
    }
  });

  it('answers unknown ids with 404 and bad queries with 400', async () => {
    await expectProblem(await call('/v1/draft/runs/nope', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(
      await call('/v1/draft/runs/nope', { method: 'DELETE', key: USER_KEY }),
      404,
      'not-found',
    );
    await expectProblem(await call('/v1/docsets/nope', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(
      await call('/v1/docsets/nope/diff?against=parent', { key: USER_KEY }),
      404,
      'not-found',
    );
    await expectProblem(
      await call('/v1/docsets/nope?format=yaml', { key: USER_KEY }),
      400,
      'validation-error',
    );
    // `against` defaults to the set's source documentation: an unknown set is a 404 either way.
    await expectProblem(await call('/v1/docsets/nope/diff', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(
      await call(`/v1/docsets/nope/diff?against=${'x'.repeat(101)}`, { key: USER_KEY }),
      400,
      'validation-error',
    );
    await expectProblem(await call('/v1/draft/runs?limit=0', { key: USER_KEY }), 400, 'validation-error');
  });
});
