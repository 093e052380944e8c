/**
 * The catalogs the surface and drift tests run on, imported with `importApi` (core/apis/import/): RestBench's TMDB
 * document (once per test file), ToolAlpaca's ten simulated APIs, and RestBench's gold paths.
 */
import type { ApiCatalog } from '../../../../core/apis/types.ts';
import { dataJson, imported, type ToolAlpacaEntry, tmdbImport } from '../data.ts';

/** RestBench's TMDB document. */
export async function tmdbCatalog(): Promise<ApiCatalog> {
  return (await tmdbImport()).catalog;
}

/** ToolAlpaca's ten simulated APIs (name and catalog), from its evaluation file. */
export async function toolAlpacaCatalogs(): Promise<{ name: string; catalog: ApiCatalog }[]> {
  const entries = dataJson<ToolAlpacaEntry[]>('toolalpaca/eval_simulated.json');
  return Promise.all(
    entries.map(async (e) => ({ name: e.Name, catalog: (await imported(e.Documentation)).catalog })),
  );
}

/** RestBench's TMDB queries with their gold paths (`GET /movie/{movie_id}/credits`), whitespace trimmed. */
export function tmdbGoldPaths(): string[][] {
  return dataJson<{ solution: string[] }[]>('restbench-tmdb/restgpt/datasets/tmdb.json').map((i) =>
    i.solution.map((s) => s.trim()),
  );
}
