declare namespace Cloudflare {
  interface Env {
    /** Migrations read by vitest.config.ts and applied in apply-migrations.ts. */
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
    /** Benchmark documents as text (vitest.config.ts, test/edge/api-data.ts). */
    TEST_TMDB_OAS: string;
    TEST_STE_CATALOG: string;
    TEST_TOOLALPACA: string;
  }
}

/** Vite's `?raw` import: the file's text (used to hand documents to importers inside workerd). */
declare module '*?raw' {
  const text: string;
  export default text;
}
