import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// workerd refuses `eval` and `new Function` (issue 22: "no eval/new Function anywhere in what the Worker bundle
// imports"). This bundles the imported-API modules as wrangler does (esbuild, the workerd/worker/browser export
// conditions, tree shaking) and checks what ends up inside: not ajv (`@scalar/openapi-parser`'s index also exports
// an ajv-based `validate`; only its `dereference` may come along), not Node's fetch stack, no code generation.

const ENTRY = `
export { importApi, validateOpenApiDocument } from './core/apis/import/index.ts';
export { parseQuerySet } from './core/apis/querysets.ts';
export { correctPath, matchOperation } from './core/apis/scoring.ts';
export { validateJson } from './core/apis/validate.ts';
`;

describe('the imported-API modules in a Worker bundle', () => {
  it('bring no ajv, no Node-only packages and no eval / new Function', async () => {
    const result = await build({
      stdin: { contents: ENTRY, resolveDir: new URL('../../../', import.meta.url).pathname, loader: 'ts' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['browser', 'module', 'main'],
      metafile: true,
      logLevel: 'silent',
    });
    // What the output holds (esbuild parses the modules an index re-exports but drops those nothing uses).
    const output = Object.values(result.metafile.outputs)[0]!;
    const inputs = Object.entries(output.inputs)
      .filter(([, use]) => use.bytesInOutput > 0)
      .map(([path]) => path);
    expect(inputs.some((path) => path.includes('@scalar/openapi-parser/'))).toBe(true);
    expect(
      inputs.filter((path) =>
        /node_modules\/(ajv|ajv-[a-z-]+|undici|@scalar\/(json-schema-validator|openapi-validator))\//.test(
          path,
        ),
      ),
    ).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/new Function\s*\(/);
    expect(code).not.toMatch(/\beval\s*\(/);
    expect(code).not.toMatch(/from ["']node:/);
  });
});
