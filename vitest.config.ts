import { readFileSync } from 'node:fs';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
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
          cloudflareTest(async () => {
            copyModelAssets(); // the USE lite weights, read through the ASSETS binding (test/edge/use-encoder.test.ts)
            const migrations = await readD1Migrations('db/migrations');
            return {
              wrangler: { configPath: './wrangler.toml' },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  // The benchmark documents the API tests import (test/edge/api-data.ts), as text bindings: as
                  // modules they travel over the WebSocket that feeds workerd its modules, whose messages are limited
                  // to 1 MiB, and full runs crashed with "Message is too large" once they were in the module graph.
                  ...apiDocumentBindings(),
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
          // No on-disk module cache for workerd: with it, a fresh worker asks for its file's whole import graph in
          // one `fetchWarmModules` reply, which the pool inlines into one WebSocket message; workerd accepts at
          // most 1 MiB per message, and once the worker's graph outgrew that, full runs crashed ("Message is too
          // large", 1009). Without it, modules come one message each.
          fsModuleCache: false,
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

/** The API documents of the workerd tests, read here in Node (test/edge/api-data.ts). */
function apiDocumentBindings(): Record<string, string> {
  const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
  return {
    TEST_TMDB_OAS: read('./data/apis/restbench-tmdb/restgpt/specs/tmdb_oas.json'),
    TEST_STE_CATALOG: read('./data/apis/ste/tool_metadata/API_descriptions.json'),
    TEST_TOOLALPACA: read('./data/apis/toolalpaca/eval_simulated.json'),
  };
}
