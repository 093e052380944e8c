declare namespace Cloudflare {
  interface Env {
    /** Migrations read by vitest.config.ts and applied in apply-migrations.ts. */
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
  }
}
