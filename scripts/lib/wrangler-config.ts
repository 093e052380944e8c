/**
 * What scripts need from wrangler.toml (the only Wrangler configuration) without starting wrangler: the `vars`
 * of the top level or of an environment (Wrangler does not inherit `vars` into environments, so neither does
 * this), and the local identity of a D1 binding.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WRANGLER_CONFIG = join(ROOT, 'wrangler.toml');

interface D1Binding {
  binding: string;
  database_id?: string;
  preview_database_id?: string;
  migrations_dir?: string;
  migrations_table?: string;
}

interface Section {
  vars?: Record<string, string>;
  d1_databases?: D1Binding[];
}

function section(environment?: string): Section {
  const config = parse(readFileSync(WRANGLER_CONFIG, 'utf8')) as Section & { env?: Record<string, Section> };
  return (environment === undefined ? config : config.env?.[environment]) ?? {};
}

export function wranglerVars(environment?: string): Record<string, string> {
  return section(environment).vars ?? {};
}

/**
 * A D1 binding of the top level as local development sees it: the id naming its local database (Wrangler's
 * choice: `preview_database_id`, else `database_id`, else the binding name), its migrations folder (absolute)
 * and migrations table (Wrangler's defaults `migrations`, `d1_migrations`).
 */
export function localD1(binding: string): { id: string; migrationsDir: string; migrationsTable: string } {
  const d1 = section().d1_databases?.find((d) => d.binding === binding);
  if (!d1) throw new Error(`wrangler.toml declares no D1 binding ${binding}`);
  return {
    id: d1.preview_database_id ?? d1.database_id ?? d1.binding,
    migrationsDir: join(ROOT, d1.migrations_dir ?? 'migrations'),
    migrationsTable: d1.migrations_table ?? 'd1_migrations',
  };
}
