import { readFileSync } from 'node:fs';
import { importApi } from '../../../core/apis/import/index.ts';
import type { ApiCatalog } from '../../../core/apis/types.ts';

/** The text of a file under `data/apis/` (the benchmark copies) or `test/fixtures/apis/`. */
export function dataText(path: string): string {
  return readFileSync(new URL(`../../../data/apis/${path}`, import.meta.url), 'utf8');
}

export function fixtureText(name: string): string {
  return readFileSync(new URL(`../../fixtures/apis/${name}`, import.meta.url), 'utf8');
}

export function dataJson<T = unknown>(path: string): T {
  return JSON.parse(dataText(path)) as T;
}

export const TMDB_DOCUMENT = 'restbench-tmdb/restgpt/specs/tmdb_oas.json';

/** Imports a document that must import (the test fails with the problems otherwise). */
export async function imported(
  text: string,
  filename?: string,
): Promise<{ catalog: ApiCatalog; document: Record<string, unknown> | null }> {
  const result = await importApi({ text, ...(filename ? { filename } : {}) });
  if (!result.ok) throw new Error(`import failed: ${JSON.stringify(result.problems.slice(0, 3))}`);
  return { catalog: result.catalog, document: result.document };
}

let tmdb: Promise<{ catalog: ApiCatalog; document: Record<string, unknown> | null }> | undefined;

/** The TMDB import, done once per test file. */
export function tmdbImport(): Promise<{ catalog: ApiCatalog; document: Record<string, unknown> | null }> {
  tmdb ??= imported(dataText(TMDB_DOCUMENT), 'tmdb_oas.json');
  return tmdb;
}

export interface ToolAlpacaEntry {
  Name: string;
  Documentation: string;
  Function_Projection: Record<string, [string, string]>;
  Instructions: string[];
  Golden_Answers: { Action: string; Action_Input: string }[][];
}
