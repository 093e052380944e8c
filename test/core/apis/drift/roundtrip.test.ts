/**
 * The property every generated surface keeps (issue 22 §4): every base call of the catalog's operations
 * translates onto the surface — as a tool call and as an HTTP request — and resolves back to the same base call;
 * the translated arguments fit the tool's MCP input schema; and the surface's OpenAPI document is valid OpenAPI
 * 3.1, at every point of its deprecation window. Over TMDB and the ten ToolAlpaca documents, for every kind alone
 * and all kinds together, two seeds, with only the required parameters and with all of them.
 */
import { describe, expect, it } from 'vitest';
import { API_DRIFT_KINDS, generateApiSurface } from '../../../../core/apis/drift/index.ts';
import { baseApiSurface } from '../../../../core/apis/surface/base.ts';
import { apiMcpTools } from '../../../../core/apis/surface/docs.ts';
import { apiSurfaceOpenApi } from '../../../../core/apis/surface/openapi.ts';
import { resolveApiCall } from '../../../../core/apis/surface/resolve.ts';
import { translateBaseCall } from '../../../../core/apis/surface/translate.ts';
import type { ApiCatalog } from '../../../../core/apis/types.ts';
import { validateJson } from '../../../../core/apis/validate.ts';
import { sampleBaseArgs } from '../support/base-calls.ts';
import { tmdbCatalog, toolAlpacaCatalogs } from '../support/catalogs.ts';
import { openApi31Problems } from '../support/openapi.ts';

const APIS: { name: string; catalog: ApiCatalog }[] = [
  { name: 'TMDB', catalog: await tmdbCatalog() },
  ...(await toolAlpacaCatalogs()),
];
const KIND_SETS: string[][] = [[], ...API_DRIFT_KINDS.map((k) => [k]), [...API_DRIFT_KINDS]];
const WINDOW = { deprecatedAt: '2026-01-01', sunsetAt: '2026-03-01' };

describe.each(APIS)('$name', ({ catalog }) => {
  const base = baseApiSurface('api', catalog);

  it('every base call of every operation goes onto each drifted surface and comes back unchanged', () => {
    let calls = 0;
    for (const kinds of KIND_SETS) {
      for (const seed of ['a', 'b']) {
        const surface = generateApiSurface(base, catalog, { seed, kinds, window: WINDOW });
        const schemas = new Map(apiMcpTools(surface).map((t) => [t.name, t.inputSchema]));
        for (const op of catalog.operations) {
          for (const p of [0, 1]) {
            const args = sampleBaseArgs(op, `${seed}/${p}`, p);
            const t = translateBaseCall(surface, catalog, op.name, args);
            if (!t.ok)
              throw new Error(`${kinds.join('+')} ${seed} ${op.name} ${JSON.stringify(args)}: ${t.reason}`);
            const named = resolveApiCall(surface, catalog, { via: 'name', name: t.tool, args: t.args });
            expect(named).toMatchObject({ kind: 'call', operation: op.name, args });
            expect(validateJson(schemas.get(t.tool) ?? false, t.args).errors).toEqual([]);
            if (t.http) {
              const viaHttp = resolveApiCall(surface, catalog, { via: 'http', ...t.http, body: t.http.body });
              expect(viaHttp).toMatchObject({ kind: 'call', operation: op.name, args });
            }
            calls++;
          }
        }
      }
    }
    expect(calls).toBe(KIND_SETS.length * 2 * 2 * catalog.operations.length);
  });

  it('documents each drifted surface as valid OpenAPI 3.1 before, during and after its window', () => {
    for (const kinds of KIND_SETS) {
      const surface = generateApiSurface(base, catalog, { seed: 'doc', kinds, window: WINDOW });
      for (const now of [new Date('2025-12-01'), new Date('2026-02-01'), new Date('2026-04-01')]) {
        const doc = apiSurfaceOpenApi(surface, catalog, { now });
        expect(openApi31Problems(doc), `${kinds.join('+')} at ${now.toISOString()}`).toEqual([]);
      }
    }
  });
});
