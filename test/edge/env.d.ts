declare namespace Cloudflare {
  interface Env {
    /** Migrations read by vitest.config.ts and applied in apply-migrations.ts. */
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
  }
}

/** Vite's `?raw` import: the file's text (used to hand documents to importers inside workerd). */
declare module '*?raw' {
  const text: string;
  export default text;
}

/** A JSON file's text without indentation (vitest.config.ts, `compactJson`). */
declare module '*.json?compact' {
  const text: string;
  export default text;
}
