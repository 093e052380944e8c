import { describe, expect, it } from 'vitest';
import { generateApiSurface } from '../../../../core/apis/drift/index.ts';
import { baseApiSurface } from '../../../../core/apis/surface/base.ts';
import { apiMcpTools, apiToolList, firstSentence } from '../../../../core/apis/surface/docs.ts';
import type { ApiTool } from '../../../../core/apis/surface/model.ts';
import { apiSurfaceOpenApi } from '../../../../core/apis/surface/openapi.ts';
import { tmdbCatalog, toolAlpacaCatalogs } from '../support/catalogs.ts';
import { openApi31Problems } from '../support/openapi.ts';

const tmdb = await tmdbCatalog();
const base = baseApiSurface('tmdb', tmdb);
const WINDOW = { deprecatedAt: '2026-01-01', sunsetAt: '2026-03-01' };
const drifted = generateApiSurface(base, tmdb, {
  seed: 'docs',
  kinds: ['version-prefix', 'deprecate-operation', 'move-params', 'pagination', 'reshape-response'],
  window: WINDOW,
});
const kept = drifted.tools.filter((t) => t.lifecycle.status === 'deprecated');
const DURING = new Date('2026-02-01');
const AFTER = new Date('2026-03-02');

type Op = Record<string, unknown> & { responses: Record<string, Record<string, unknown>> };
const opAt = (doc: Record<string, unknown>, method: string, path: string) =>
  (doc.paths as Record<string, Record<string, Op>>)[path]?.[method] as Op;

describe('the ReAct tool list', () => {
  it('numbers the tools in ToolEvo form with route, description and parameters, Finish last', () => {
    const lines = apiToolList(base).split('\n');
    expect(lines).toHaveLength(55);
    expect(lines[0]).toBe(
      '(1) GET_movie-movie_id-keywords[movie_id], GET /movie/{movie_id}/keywords: Get the keywords that have been added to a movie. Parameters: movie_id (integer, path, required).',
    );
    const search = lines.find((l) => l.includes('GET_search-person[')) as string;
    expect(search).toMatch(
      /^\(\d+\) GET_search-person\[query, page, include_adult, region\], GET \/search\/person: /,
    );
    expect(search).toContain('query (string, query, required) — ');
    expect(lines[54]).toBe('(55) Finish[answer], which returns the answer and finishes the task.');
    expect(
      apiToolList(base, { newTools: ['(56) Extra[x], which helps.'] })
        .split('\n')
        .slice(-2),
    ).toEqual([
      '(55) Finish[answer], which returns the answer and finishes the task.',
      '(56) Extra[x], which helps.',
    ]);
  });

  it('says what replaces a deprecated tool and when it goes, and drops it after its sunset', () => {
    expect(kept.length).toBeGreaterThan(0);
    const old = kept[0] as ApiTool;
    const next = drifted.tools.find((t) => t.name === old.lifecycle.successor) as ApiTool;
    const during = apiToolList(drifted, { now: DURING }).split('\n');
    const line = during.find((l) => l.startsWith(`(`) && l.includes(` ${old.name}[`)) as string;
    expect(line).toContain(`Deprecated. It will be removed on 2026-03-01. Use ${next.name}[`);
    expect(line).toContain(`(${next.method?.toUpperCase()} ${next.path}) instead.`);
    const after = apiToolList(drifted, { now: AFTER }).split('\n');
    expect(after).toHaveLength(during.length - kept.length);
    expect(after.some((l) => l.includes(` ${old.name}[`))).toBe(false);
  });

  it('cuts descriptions to their first sentence without markdown tables', () => {
    expect(firstSentence('Get the daily trends.\n\n| a | b |\n| - | - |\nMore.')).toBe(
      'Get the daily trends.',
    );
    expect(firstSentence('x'.repeat(300), 20)).toBe(`${'x'.repeat(19)}…`);
  });
});

describe('MCP tool descriptors', () => {
  it('describe every served tool with a closed JSON Schema of its arguments, then Finish', () => {
    const tools = apiMcpTools(drifted, { now: DURING });
    expect(tools.at(-1)?.name).toBe('Finish');
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    expect(tools).toHaveLength(drifted.tools.length + 1);
    const paged = drifted.tools.find((t) => t.pagination) as ApiTool;
    const schema = tools.find((t) => t.name === paged.name)?.inputSchema as {
      properties: object;
      additionalProperties: boolean;
    };
    expect(schema.additionalProperties).toBe(false);
    const pageKeys = Object.keys(schema.properties).filter((k) => !paged.params.some((p) => p.name === k));
    expect(pageKeys.length).toBeGreaterThan(0);
    expect(apiMcpTools(drifted, { now: AFTER })).toHaveLength(tools.length - kept.length);
  });
});

describe('the OpenAPI 3.1 document of a surface', () => {
  it('documents the base API: every operation at its route, ids = tool names, valid', () => {
    const doc = apiSurfaceOpenApi(base, tmdb);
    expect(doc).toMatchObject({
      openapi: '3.1.0',
      info: { title: base.title, version: tmdb.version },
      servers: [{ url: 'https://api.themoviedb.org/3' }],
    });
    const ops = Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, id: op.operationId })),
    );
    expect(ops.map((o) => o.id).sort()).toEqual(tmdb.operations.map((o) => o.name).sort());
    for (const o of tmdb.operations)
      expect(opAt(doc, o.method as string, o.path as string).operationId).toBe(o.name);
    expect(openApi31Problems(doc)).toEqual([]);
  });

  it('documents the drifted API: its routes, moved bodies, reshaped answers, deprecated and retired operations', () => {
    const doc = apiSurfaceOpenApi(drifted, tmdb, { now: DURING });
    expect(openApi31Problems(doc)).toEqual([]);
    for (const t of drifted.tools) {
      const op = opAt(doc, t.method as string, t.path as string);
      expect(op, `${t.method} ${t.path}`).toBeDefined();
      if (t.lifecycle.status === 'deprecated') {
        expect(op.deprecated).toBe(true);
        expect(op.description).toContain(`Use ${t.lifecycle.successor}[`);
        const ok = Object.entries(op.responses).find(([s]) => s.startsWith('2'))?.[1] as { headers?: object };
        expect(Object.keys(ok.headers ?? {})).toEqual(['Deprecation', 'Sunset', 'Link']);
      } else expect(op.deprecated).toBeUndefined();
      if (t.method === 'post') {
        const body = (op.requestBody as { content: Record<string, { schema: { properties: object } }> })
          .content['application/json'];
        expect(Object.keys(body?.schema.properties ?? {})).toEqual(
          t.params.filter((p) => p.in === 'body').map((p) => p.name),
        );
      }
    }
    for (const r of drifted.retired) {
      const op = opAt(doc, r.method as string, r.path as string);
      expect(op).toMatchObject({ deprecated: true, description: r.message });
      expect(Object.keys(op.responses)).toEqual(['410']);
    }
    expect(drifted.response).not.toEqual({});
  });

  it('turns a tool past its sunset into a deprecated operation that only answers 410', () => {
    const doc = apiSurfaceOpenApi(drifted, tmdb, { now: AFTER });
    expect(openApi31Problems(doc)).toEqual([]);
    for (const t of kept) {
      const op = opAt(doc, t.method as string, t.path as string);
      expect(op.deprecated).toBe(true);
      expect(Object.keys(op.responses)).toEqual(['410']);
      expect(op.description).toContain('was removed on 2026-03-01');
    }
  });

  it('documents a whole request body (Améthyste), and the check it passes is not vacuous', async () => {
    const amethyste = (await toolAlpacaCatalogs()).find((a) => a.name === 'Améthyste')?.catalog;
    if (!amethyste) throw new Error('missing');
    const doc = apiSurfaceOpenApi(baseApiSurface('amethyste', amethyste), amethyste);
    expect(openApi31Problems(doc)).toEqual([]);
    const avatar = opAt(doc, 'post', '/generateAvatar');
    expect(Object.keys((avatar.requestBody as { content: object }).content)).toEqual(['application/json']);
    const broken = structuredClone(doc) as { paths: Record<string, Record<string, Op>> };
    (broken.paths['/generateAvatar']?.post?.parameters as Record<string, unknown>[])[0] = {
      name: 'userId',
      in: 'somewhere',
    };
    expect(openApi31Problems(broken).length).toBeGreaterThan(0);
  });
});
