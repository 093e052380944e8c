/**
 * RestBench on the seeded TMDB mock (issue 22, done-when 1 and 3): each of the 100 gold paths, played through an
 * API session's step (the code the session's Durable Object runs) by the scripted client — every argument from the
 * query or from ids earlier answers showed — completes without an error and scores Correct Path Rate 100 in both
 * definitions; on a drifted surface too, once the gold path is translated through the drift; a wrong path scores
 * lower; two sessions with the same seed see the same entities.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generateApiSurface } from '../../../core/apis/drift/index.ts';
import { callBackend, emptyOverlay, MockWorld } from '../../../core/apis/mock/index.ts';
import { parseQuerySet, type QueryItem } from '../../../core/apis/querysets.ts';
import { type ScriptedAnswer, scriptedArgs } from '../../../core/apis/scripted.ts';
import { baseApiSurface } from '../../../core/apis/surface/base.ts';
import type { ApiSurface } from '../../../core/apis/surface/model.ts';
import { translateBaseCall } from '../../../core/apis/surface/translate.ts';
import type { ApiCatalog } from '../../../core/apis/types.ts';
import { type ApiSessionConfig, type ApiStepDeps, runApiStep } from '../../../core/sessions/api.ts';
import { initialProgress, type SessionProgress } from '../../../core/sessions/episode.ts';
import { dataJson, tmdbImport } from './data.ts';

const NOW = new Date('2026-06-01T00:00:00Z');

let catalog: ApiCatalog;
let items: QueryItem[];
let base: ApiSurface;
let drifted: ApiSurface;

beforeAll(async () => {
  catalog = (await tmdbImport()).catalog;
  const parsed = parseQuerySet(dataJson('restbench-tmdb/restgpt/datasets/tmdb.json'), catalog);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems.slice(0, 3)));
  items = parsed.set.items;
  base = baseApiSurface('tmdb', catalog, 'TMDB');
  drifted = generateApiSurface(base, catalog, {
    seed: '7',
    kinds: ['rename-path', 'rename-params', 'version-prefix', 'reshape-response', 'rename-operation'],
  });
});

function config(surface: ApiSurface, item: QueryItem | null): ApiSessionConfig {
  return {
    backend: 'api',
    id: 'test',
    api: { id: 'tmdb', title: 'TMDB', mode: 'seeded', seed: 'gold', worldSize: 10_000, upstream: null },
    query: item ? { text: item.query, queryset: 'restbench', index: item.index, gold: item.gold } : null,
    server: { kind: 'surface', surface },
    promptSurface: base,
    stepBudget: 20,
    seed: '0',
    createdAt: NOW.toISOString(),
    expiresAt: NOW.toISOString(),
  };
}

/**
 * Plays `path` (base operations) on the session's surface over its HTTP channel, then Finish; the steps'
 * statuses and the final progress.
 */
async function play(cfg: ApiSessionConfig, path: readonly string[], text: string) {
  const surface = (cfg.server as { surface: ApiSurface }).surface;
  // One world per seed, as the edge keeps one per isolate (its value pools fill as it is used).
  worlds[cfg.api.seed] ??= new MockWorld('tmdb', catalog, cfg.api.seed);
  const deps: ApiStepDeps = {
    catalog,
    world: worlds[cfg.api.seed] as MockWorld,
    backend: { mode: 'seeded' },
  };
  let progress: SessionProgress = initialProgress();
  const answers: ScriptedAnswer[] = [];
  const statuses: number[] = [];
  for (const name of path) {
    const op = catalog.operations.find((o) => o.name === name);
    if (!op) throw new Error(`no operation ${name}`);
    const translated = translateBaseCall(surface, catalog, name, scriptedArgs(op, answers, text));
    if (!translated.ok || !translated.http)
      throw new Error(`${name}: ${translated.ok ? 'no HTTP shape' : translated.reason}`);
    const { method, path: p, query, headers, body } = translated.http;
    const step = await runApiStep(
      cfg,
      progress,
      { http: { method, path: p, query, headers, body } },
      'http',
      deps,
      NOW,
    );
    progress = step.progress;
    statuses.push(step.response?.status ?? 0);
    answers.push({ operation: `${name} ${op.path}`, body: step.response?.body });
  }
  const finish = await runApiStep(
    cfg,
    progress,
    { action: 'Finish', actionInput: { answer: 'done' } },
    'action',
    deps,
    NOW,
  );
  return { statuses, progress: finish.progress, answers };
}

const worlds: Record<string, MockWorld> = {};

const goldOf = (item: QueryItem) => item.gold.path.map((g) => g.operation);

describe('RestBench TMDB gold paths on the seeded mock', () => {
  it('has the 100 queries, each gold path naming TMDB operations', () => {
    expect(items).toHaveLength(100);
    expect(items.every((i) => i.gold.path.length >= 1 && i.gold.path.length <= 4)).toBe(true);
  });

  it('plays each of the 100 gold paths without an error and scores Correct Path Rate 100 (both definitions)', async () => {
    for (const item of items) {
      const { statuses, progress } = await play(config(base, item), goldOf(item), item.query);
      expect(
        statuses.every((s) => s === 200),
        `item ${item.index} (${item.query}): ${statuses}`,
      ).toBe(true);
      expect(progress.api?.score?.correctPath, `item ${item.index}`).toEqual({
        subsequence: true,
        set: true,
      });
      expect(progress.ending).toBe('finish');
      // No gold answer in RestBench: the answer is kept for judging, the reward stays null.
      expect(progress.reward).toBeNull();
      expect(progress.api?.score?.answer).toBe('done');
    }
  });

  it('plays every gold path on a surface drifted by five kinds, translated through the drift, and still scores 100', async () => {
    expect(
      drifted.tools.some((t) => t.path !== undefined && !catalog.operations.some((o) => o.path === t.path)),
    ).toBe(true);
    for (const item of items) {
      const { statuses, progress } = await play(config(drifted, item), goldOf(item), item.query);
      expect(
        statuses.every((s) => s === 200),
        `item ${item.index}: ${statuses}`,
      ).toBe(true);
      const score = progress.api?.score;
      expect(score?.correctPath, `item ${item.index}`).toEqual({ subsequence: true, set: true });
      // The score shows the gold path as the drifted surface exposes it.
      expect(score?.goldOnSurface.every((r) => r?.includes('/'))).toBe(true);
    }
  });

  it("scores a wrong path lower: reversed order fails the paper's definition, a missing step both", async () => {
    const item = items.find((i) => new Set(goldOf(i)).size >= 2) as QueryItem;
    const reversed = [...goldOf(item)].reverse();
    const r = await play(config(base, item), reversed, item.query);
    expect(r.progress.api?.score?.correctPath).toEqual({ subsequence: false, set: true });
    const partial = await play(config(base, item), goldOf(item).slice(1), item.query);
    expect(partial.progress.api?.score?.correctPath).toEqual({ subsequence: false, set: false });
  });

  it('gives two sessions with the same seed the same entities', async () => {
    const item = items[0] as QueryItem;
    const a = await play(config(base, item), goldOf(item), item.query);
    const b = await play(config(base, item), goldOf(item), item.query);
    expect(b.answers).toEqual(a.answers);
    const other = await play(
      { ...config(base, item), api: { ...config(base, item).api, seed: 'another' } },
      goldOf(item),
      item.query,
    );
    expect(JSON.stringify(other.answers)).not.toEqual(JSON.stringify(a.answers));
  });

  it("judges a gold answer with the strict number rule: 25.0 answers 25, 2.5 does not (not the kernel's fall-through)", async () => {
    const item = { ...(items[0] as QueryItem), gold: { ...(items[0] as QueryItem).gold, answer: 25 } };
    const deps: ApiStepDeps = {
      catalog,
      world: new MockWorld('tmdb', catalog, 'gold'),
      backend: { mode: 'seeded' },
    };
    const finish = async (answer: string) =>
      (
        await runApiStep(
          config(base, item),
          initialProgress(),
          { action: 'Finish', actionInput: { answer } },
          'action',
          deps,
          NOW,
        )
      ).progress.reward;
    expect(await finish('25.0')).toBe(1);
    // ToolEVO's EM (the kernel's default) would fall through to the string test, where "2.5" normalises to "25".
    expect(await finish('2.5')).toBe(-1);
    expect(await finish('-25')).toBe(-1);
  });

  it('answers the first call of query 1 with the person the query names', async () => {
    const world = new MockWorld('tmdb', catalog, 'gold');
    const r = await callBackend(
      world,
      { mode: 'seeded' },
      'GET_search-person',
      { query: 'Sofia Coppola' },
      emptyOverlay(),
    );
    expect((r.body as { results: { name: string }[] }).results[0]?.name).toBe('Sofia Coppola');
  });
});
