/**
 * Evaluation over time on an imported API (issue 26 §4): on a TMDB stream release, each configuration answers the
 * same RestBench queries through the method's API run; every record carries the operations called and the gold
 * path, and the recomputed verdict (Correct Path Rate's ordered subsequence) is the run's own. A configuration of
 * several aids runs without the aid maintenance could not fill, and says so; a single-aid one is not run.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MockWorld } from '../../../core/apis/mock/index.ts';
import { parseQuerySet, type QueryItem } from '../../../core/apis/querysets.ts';
import { baseApiSurface } from '../../../core/apis/surface/base.ts';
import type { ApiSurface } from '../../../core/apis/surface/model.ts';
import type { ApiCatalog } from '../../../core/apis/types.ts';
import { startDocSet } from '../../../core/draft/run.ts';
import { LexicalEmbeddingModel } from '../../../core/models/lexical.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import { configurationsFor, evaluateRelease, streamApiPool } from '../../../core/streams/evaluate.ts';
import type { Release } from '../../../core/streams/model.ts';
import { releasesUpTo } from '../../../core/streams/release.ts';
import { recomputedCorrect } from '../../../core/streams/series.ts';
import { dataJson, tmdbImport } from '../apis/data.ts';

const now = new Date('2026-06-01T00:00:00Z');
const api = {
  id: 'tmdb',
  title: 'TMDB',
  mode: 'seeded' as const,
  seed: 's',
  worldSize: 10_000,
  upstream: null,
};
let catalog: ApiCatalog;
let base: ApiSurface;
let items: QueryItem[];
let release1: Release;

beforeAll(async () => {
  catalog = (await tmdbImport()).catalog;
  base = baseApiSurface('tmdb', catalog, 'TMDB');
  const parsed = parseQuerySet(dataJson('restbench-tmdb/restgpt/datasets/tmdb.json'), catalog);
  if (!parsed.ok) throw new Error('RestBench does not parse');
  items = parsed.set.items.slice(0, 4);
  release1 = releasesUpTo(
    { id: 'api', seed: '3', intensity: { 'rename-operation': 2 } },
    { kind: 'api', base, catalog },
    1,
  )[1] as Release;
});

describe('evaluateRelease on an imported API', () => {
  it('records the paths, recomputes their verdicts, and runs the combined agent without missing aids', async () => {
    // The documentation set as DRAFT starts it (the API's own docs), no STE exemplars.
    const docset = startDocSet({ docs: base, catalog, server: base.id, model: 'sim', simulated: true });
    const configurations = configurationsFor('api');
    expect(configurations.map((c) => c.id)).toEqual(['stale', 'draft', 'ste', 'pool', 'combined']);
    const e = await evaluateRelease({
      seed: 'api-eval',
      release: release1,
      base,
      state: { release: 1, docset, rounds: [], demonstrations: [], retired: [] },
      suite: { kind: 'api', api, catalog, world: new MockWorld('tmdb', catalog, 's'), items, maxSteps: 6 },
      configurations,
      memory: {},
      model: createSimModel({ seed: 'api-eval' }),
      embedder: new LexicalEmbeddingModel(),
      now,
    });
    expect(e.notes).toEqual([
      { configuration: 'ste', reason: expect.stringContaining('no STE exemplars') },
      {
        configuration: 'combined',
        slot: 'demonstrations',
        reason: expect.stringContaining('no STE exemplars'),
      },
    ]);
    for (const id of ['stale', 'draft', 'pool', 'combined'])
      expect(e.records.filter((r) => r.configuration === id).map((r) => r.task)).toEqual(
        items.map((i) => String(i.index)),
      );
    for (const r of e.records) {
      expect(r.goldPath?.length).toBeGreaterThan(0);
      expect(Array.isArray(r.called)).toBe(true);
      expect(recomputedCorrect(r)).toBe(r.correct);
    }
  }, 120_000);

  it("pools the release's operations with the retired names as distractors (the API toolPool aid)", async () => {
    const served = release1.surface as ApiSurface;
    const gone = release1.diff?.retired.map((r) => r.name) ?? [];
    expect(gone.length).toBeGreaterThan(0);
    const retired = gone.map((name) => ({ id: name, name, description: `the retired ${name}` }));
    const pool = streamApiPool(served, retired, now);
    expect(pool.operations).toEqual(expect.arrayContaining(gone));
    expect(pool.size).toBe(pool.operations.length);
    // Three tools per step, retrieved from the pool, never the whole API.
    const docs = await pool.docsFor(items[0]!.query, []);
    expect(docs.tools).toHaveLength(3);
    for (const t of docs.tools ?? []) expect(pool.operations).toContain(t.operation);
  });
});
