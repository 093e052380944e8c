/**
 * The `vars` of wrangler.toml (the only Wrangler configuration), for scripts that need the configured world
 * without starting wrangler: the top level, or an environment's own `vars` (Wrangler does not inherit `vars`
 * into environments, so neither does this).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';

export const WRANGLER_CONFIG = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'wrangler.toml');

interface VarsSection {
  vars?: Record<string, string>;
}

export function wranglerVars(environment?: string): Record<string, string> {
  const config = parse(readFileSync(WRANGLER_CONFIG, 'utf8')) as VarsSection & {
    env?: Record<string, VarsSection>;
  };
  const section = environment === undefined ? config : config.env?.[environment];
  return section?.vars ?? {};
}
