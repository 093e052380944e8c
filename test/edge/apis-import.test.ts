import { describe, expect, it } from 'vitest';
import { importApi, validateOpenApiDocument } from '../../core/apis/import/index.ts';
import { validateJson } from '../../core/apis/validate.ts';
import { tmdbText } from './api-data.ts';

// Importing an API inside workerd (issue 22 §2): the OpenAPI libraries and the JSON Schema validator must run
// where `eval` and `new Function` do not (Swagger 2.0 conversion, YAML and catalogs run the same code in Node:
// test/core/apis/). Import time is printed; the speed target lives in `npm run bench:api`.

describe('importing the TMDB document in workerd', () => {
  it('imports the 54 operations with their schemas, validated against the official OpenAPI schema', async () => {
    const started = performance.now();
    const result = await importApi({ text: tmdbText, filename: 'tmdb_oas.json' });
    const ms = performance.now() - started;
    console.log(`TMDB import in workerd: ${ms.toFixed(0)} ms (${tmdbText.length} characters)`);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const { catalog, document } = result;
    expect(catalog.source).toBe('openapi-3.0');
    expect(catalog.operations).toHaveLength(54);
    expect(catalog.operations.reduce((n, op) => n + op.params.length, 0)).toBe(145);
    const credits = catalog.operations.find((op) => op.path === '/movie/{movie_id}/credits');
    expect(credits?.argumentsSchema).toBeDefined();
    expect(validateJson(credits!.argumentsSchema, { movie_id: 550 }).valid).toBe(true);
    expect(validateJson(credits!.argumentsSchema, { movie_id: 'x' }).errors[0]?.pointer).toBe('/movie_id');
    expect(document?.openapi).toBe('3.1.1');
    expect(validateOpenApiDocument(document, { unknownFields: 'allow' })).toEqual([]);
  });

  it('reports a schema violation with its JSON pointer', async () => {
    const doc = JSON.parse(tmdbText) as { paths: Record<string, { get: { responses: unknown } }> };
    doc.paths['/movie/{movie_id}/credits']!.get.responses = 'none';
    const result = await importApi({ text: JSON.stringify(doc) });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems[0]?.pointer).toBe('/paths/~1movie~1{movie_id}~1credits/get/responses');
  });
});
