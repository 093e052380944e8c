import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

// Applies db/migrations (read in vitest.config.ts) to the test D1 database before the edge tests run.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
