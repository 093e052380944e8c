import { readFileSync } from 'node:fs';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { copyModelAssets } from './scripts/lib/model-assets.ts';

// Three projects: `core` runs the runtime-independent logic in plain Node; `edge` runs the Worker, its bindings
// and Durable Objects inside workerd through Cloudflare's Vitest integration; `e2e` runs black-box tests (CLI,
// dashboard) in Node against one seeded local `wrangler dev` instance started by test/e2e/local-instance.ts.
// Vitest is kept to 2 workers.
export default defineConfig({
  test: {
    maxWorkers: 2,
    // Console output (the Worker's JSON logs) is shown only for failing tests.
    silent: 'passed-only',
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
    projects: [
      {
        test: {
          name: 'core',
          include: ['test/core/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        plugins: [
          compactJson(),
          cloudflareTest(async () => {
            copyModelAssets(); // the USE lite weights, read through the ASSETS binding (test/edge/use-encoder.test.ts)
            const migrations = await readD1Migrations('db/migrations');
            return {
              wrangler: { configPath: './wrangler.toml' },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  API_KEYS:
                    'test-user-key,test-ratelimit-key,test-queue-key,fuzz-1,fuzz-2,fuzz-3,fuzz-4,fuzz-5,fuzz-6,fuzz-7,fuzz-8',
                  ADMIN_API_KEYS: 'test-admin-key',
                  RATE_LIMIT_PER_MINUTE: '600',
                  RATE_LIMIT_BURST: '200',
                  // A small world keeps generation in the tests fast.
                  WORLD_SEED: 'edge-test',
                  WORLD_SCALE: '0.05',
                },
              },
            };
          }),
        ],
        test: {
          name: 'edge',
          include: ['test/edge/**/*.test.ts'],
          setupFiles: ['test/edge/apply-migrations.ts'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/local-instance.ts'],
          // Whole evaluations run through the instance's queue: generous limits.
          testTimeout: 300_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});

/**
 * `import text from './doc.json?compact'` gives the document's text without its indentation. Modules reach workerd
 * over a WebSocket whose messages are limited to 1 MiB; TMDB's description is 1.31 MB as written (3.4 MB as Vite's
 * JSON module, a named export per key) and 0.67 MB compact (test/edge/api-data.ts). Vite has no option for it.
 */
function compactJson(): Plugin {
  const prefix = '\0compact-json:';
  return {
    name: 'tooldrift:compact-json',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!source.endsWith('.json?compact')) return null;
      const resolved = await this.resolve(source.slice(0, -'?compact'.length), importer, { skipSelf: true });
      // The id ends in .js so Vite's JSON plugin leaves the generated module alone.
      return resolved ? `${prefix}${resolved.id}.js` : null;
    },
    load(id) {
      if (!id.startsWith(prefix)) return null;
      const path = id.slice(prefix.length, -'.js'.length);
      const text = JSON.stringify(JSON.parse(readFileSync(path, 'utf8')));
      // No source map: one mapping per token of a 0.67 MB string would triple the module again.
      return { code: `export default ${JSON.stringify(text)};`, map: { mappings: '' } };
    },
  };
}
