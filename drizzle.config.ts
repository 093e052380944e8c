import { defineConfig } from 'drizzle-kit';

// drizzle-kit only generates SQL here; wrangler applies it (locally, in tests and on deploy).
export default defineConfig({
  dialect: 'sqlite',
  schema: './db/schema.ts',
  out: './db/migrations',
});
