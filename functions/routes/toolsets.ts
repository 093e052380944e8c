/**
 * Chain-of-Tools toolsets (issue 14 §2, §5): pools of tools to search. Created from a JSON Lines upload (tools
 * `{name, description, parameters?}`, one per line; a malformed line is a 400 naming its line), from a surface's
 * tools, or from the seeded synthetic catalog (up to 100,000 tools). Search ranks a toolset's tools for a query
 * with an untrained ranker (bm25, char, dense, hybrid; dense uses the deployment's embedding model: Workers AI
 * in production, the lexical encoder locally). Rankers are built on first use and kept per isolate.
 */
import { z } from '@hono/zod-openapi';
import type { EmbeddingModel } from '../../core/models/types.ts';
import { CATALOG_CAPACITY } from '../../core/retrieval/catalog.ts';
import { HybridRanker } from '../../core/retrieval/hybrid.ts';
import { JsonlError, parseToolsJsonl } from '../../core/retrieval/jsonl.ts';
import { surfaceToolPool } from '../../core/retrieval/pool.ts';
import { createRanker, UNTRAINED_RANKERS } from '../../core/retrieval/rankers.ts';
import type { Ranker, Tool } from '../../core/retrieval/types.ts';
import type { Bindings } from '../../edge/env.ts';
import { embeddingModelFor } from '../../edge/models.ts';
import { DurableObjectIndex, ensureDoIndexBuild, IndexRanker } from '../../edge/retrieval/do-index.ts';
import type { Owner } from '../../edge/stores/owners.ts';
import { findSurface } from '../../edge/stores/surfaces.ts';
import {
  createToolset,
  findToolset,
  listToolsets,
  loadToolsetTools,
  type ToolsetRecord,
} from '../../edge/stores/toolsets.ts';
import { ownerOf } from '../http/auth.ts';
import { routeModule } from '../http/openapi.ts';
import { foundOr404, ProblemError } from '../http/problem.ts';

/** Most tools one upload may hold (each is a D1 row written in the request). */
export const MAX_UPLOAD_TOOLS = 5_000;
/**
 * Largest pool a dense ranker is built for inside one Worker request (embedding the pool is the cost). Larger
 * pools are served by the toolset's Durable Object index (edge/retrieval/do-index.ts), built in chunks on first
 * use; until it is ready, dense and hybrid answer 503 with its progress.
 */
export const MAX_DENSE_POOL = 5_000;

const Name = z.string().trim().min(1).max(100);

const CreateToolset = z
  .discriminatedUnion('source', [
    z.strictObject({
      source: z.literal('upload'),
      name: Name,
      jsonl: z.string().min(1).openapi({
        description: 'JSON Lines: one `{"name", "description", "parameters"?}` object per line.',
      }),
    }),
    z.strictObject({ source: z.literal('surface'), name: Name, surface: z.string().min(1).max(64) }),
    z.strictObject({
      source: z.literal('synthetic'),
      name: Name,
      tools: z.number().int().min(1).max(100_000).default(10_000),
      seed: z.string().min(1).max(100).default('tool-catalog'),
    }),
  ])
  .openapi('CreateToolset');

const ToolView = z
  .object({
    name: z.string(),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('Tool');

const ToolsetView = z
  .object({
    id: z.string(),
    name: z.string(),
    source: z.enum(['upload', 'surface', 'synthetic']),
    spec: z
      .unknown()
      .openapi({ description: 'Surface id or synthetic catalog options (null for an upload).' }),
    toolCount: z.number().int(),
    createdAt: z.string(),
    links: z.record(z.string(), z.string()),
  })
  .openapi('Toolset');

const ToolsetDetail = ToolsetView.extend({
  tools: z.array(ToolView).openapi({ description: 'The first 100 tools in pool order.' }),
}).openapi('ToolsetDetail');

const SearchBody = z
  .strictObject({
    query: z.string().trim().min(1).max(2_000),
    k: z.number().int().min(1).max(50).default(5),
    ranker: z.enum(UNTRAINED_RANKERS).default('bm25'),
  })
  .openapi('ToolSearch');

const SearchResult = z
  .object({
    ranker: z.string(),
    results: z.array(z.object({ rank: z.number().int(), score: z.number(), tool: ToolView })),
  })
  .openapi('ToolSearchResult');

const IdParam = z.object({ id: z.string().min(1).max(64) });

function view(r: ToolsetRecord): z.infer<typeof ToolsetView> {
  return {
    id: r.id,
    name: r.name,
    source: r.source,
    spec: r.spec,
    toolCount: r.toolCount,
    createdAt: new Date(r.createdAt).toISOString(),
    links: { self: `/v1/toolsets/${r.id}`, search: `/v1/toolsets/${r.id}/search` },
  };
}

function uploadedTools(jsonl: string): Tool[] {
  try {
    const tools = parseToolsJsonl(jsonl, MAX_UPLOAD_TOOLS);
    if (tools.length === 0) throw new JsonlError(1, 'no tools: the upload has no non-blank line');
    return tools;
  } catch (err) {
    if (!(err instanceof JsonlError)) throw err;
    if (err.reason.startsWith('more than'))
      throw new ProblemError('payload-too-large', {
        detail: `An upload holds at most ${MAX_UPLOAD_TOOLS} tools; line ${err.line} is one too many.`,
        extensions: { maxTools: MAX_UPLOAD_TOOLS, line: err.line },
      });
    throw new ProblemError('validation-error', {
      detail: `Invalid body.jsonl: line ${err.line}: ${err.reason}`,
      errors: [{ in: 'body', field: 'jsonl', pointer: '/jsonl', message: `line ${err.line}: ${err.reason}` }],
      extensions: { line: err.line },
    });
  }
}

async function requireToolset(env: Bindings, id: string, owner: Owner): Promise<ToolsetRecord> {
  return foundOr404(findToolset(env.DB, id, owner), 'toolset', id);
}

/** Built rankers of this isolate, least recently used first out (a 100k-tool BM25 index is ≈ 30 MB). */
const rankerCache = new Map<string, { tools: Tool[]; ranker: Ranker }>();
const RANKER_CACHE_ENTRIES = 4;

async function rankerFor(env: Bindings, record: ToolsetRecord, id: (typeof UNTRAINED_RANKERS)[number]) {
  const key = `${record.id}\u0000${id}`;
  const hit = rankerCache.get(key);
  if (hit) {
    rankerCache.delete(key);
    rankerCache.set(key, hit);
    return hit;
  }
  const encoder = embeddingModelFor(env);
  const large = (id === 'dense' || id === 'hybrid') && record.toolCount > MAX_DENSE_POOL;
  const index = large ? await readyDoIndex(env, record, encoder) : null;
  const tools = await loadToolsetTools(env.DB, record);
  let ranker: Ranker;
  if (index) {
    const dense = new IndexRanker('dense', index, encoder);
    ranker =
      id === 'dense' ? dense : new HybridRanker([(await rankerFor(env, record, 'bm25')).ranker, dense]);
  } else ranker = await createRanker(id, tools, { encoder });
  const entry = { tools, ranker };
  rankerCache.set(key, entry);
  while (rankerCache.size > RANKER_CACHE_ENTRIES) {
    const oldest = rankerCache.keys().next().value;
    if (oldest === undefined) break;
    rankerCache.delete(oldest);
  }
  return entry;
}

/** The toolset's Durable Object index once built; otherwise starts (once) its build and answers 503 with progress. */
async function readyDoIndex(env: Bindings, record: ToolsetRecord, encoder: EmbeddingModel) {
  const status = await ensureDoIndexBuild(env, record, encoder);
  if (status.state === 'ready' && status.dimensions !== null)
    return new DurableObjectIndex(env, status.name, status.dimensions, status.total, status.shardSize);
  const progress = { state: status.state, done: status.done, total: status.total, error: status.error };
  throw new ProblemError('unavailable', {
    detail:
      status.state === 'failed'
        ? `Building this toolset's dense index failed: ${status.error}. Use bm25 or char.`
        : `This toolset's dense index (${status.total} tools, beyond the ${MAX_DENSE_POOL} embedded inside a request) is being built: ${status.done}/${status.total} tools. Retry shortly.`,
    headers: status.state === 'failed' ? {} : { 'retry-after': '5' },
    extensions: { index: progress },
  });
}

export const registerToolsetRoutes = routeModule('Toolsets', 'user', (routes) => {
  routes.post(
    '/v1/toolsets',
    'Create a toolset from a JSON Lines upload, a surface or the synthetic catalog',
    { body: CreateToolset, ok: [201, 'The toolset', ToolsetView], problems: [400, 404, 413, 415] },
    async (c) => {
      const body = c.req.valid('json');
      let record: ToolsetRecord;
      switch (body.source) {
        case 'upload':
          record = await createToolset(
            c.env.DB,
            {
              name: body.name,
              source: 'upload',
              tools: uploadedTools(body.jsonl),
            },
            ownerOf(c),
          );
          break;
        case 'surface': {
          const surface = await findSurface(c.env, body.surface);
          if (!surface)
            throw new ProblemError('not-found', {
              detail: `No surface with id ${body.surface}.`,
              errors: [{ in: 'body', field: 'surface', pointer: '/surface', message: 'unknown surface' }],
            });
          record = await createToolset(
            c.env.DB,
            {
              name: body.name,
              source: 'surface',
              spec: { surface: surface.id },
              tools: surfaceToolPool(surface),
            },
            ownerOf(c),
          );
          break;
        }
        case 'synthetic': {
          const spec = { seed: body.seed, tools: Math.min(body.tools, CATALOG_CAPACITY) };
          record = await createToolset(
            c.env.DB,
            {
              name: body.name,
              source: 'synthetic',
              spec,
              tools: spec.tools,
            },
            ownerOf(c),
          );
          break;
        }
      }
      return c.json(view(record), 201, { location: `/v1/toolsets/${record.id}` });
    },
  );

  routes.get(
    '/v1/toolsets',
    'Toolsets, newest first',
    { ok: [200, 'Every toolset', z.object({ toolsets: z.array(ToolsetView) })] },
    async (c) => c.json({ toolsets: (await listToolsets(c.env.DB, ownerOf(c))).map(view) }, 200),
  );

  routes.get(
    '/v1/toolsets/{id}',
    'A toolset with its first 100 tools',
    { params: IdParam, ok: [200, 'The toolset', ToolsetDetail], problems: [400, 404] },
    async (c) => {
      const record = await requireToolset(c.env, c.req.valid('param').id, ownerOf(c));
      const tools = await loadToolsetTools(c.env.DB, record);
      return c.json({ ...view(record), tools: tools.slice(0, 100) }, 200);
    },
  );

  routes.post(
    '/v1/toolsets/{id}/search',
    'Rank the toolset’s tools for a query (bm25, char, dense or hybrid)',
    {
      params: IdParam,
      body: SearchBody,
      ok: [200, 'The top k tools, best first', SearchResult],
      problems: [400, 404, 409, 413, 415, 503],
    },
    async (c) => {
      const record = await requireToolset(c.env, c.req.valid('param').id, ownerOf(c));
      const body = c.req.valid('json');
      const { tools, ranker } = await rankerFor(c.env, record, body.ranker);
      const [hits = []] = await ranker.rank([body.query], body.k);
      return c.json(
        {
          ranker: body.ranker,
          results: hits.map((h, i) => ({ rank: i + 1, score: h.score, tool: tools[h.index] as Tool })),
        },
        200,
      );
    },
  );
});
