/**
 * `npm start`: prepares local state and serves tooldrift on http://localhost:8787 (PORT or `-- --port N` overrides).
 *  1. creates .dev.vars from .dev.vars.example on first run (local keys only),
 *  2. applies D1 migrations to the local database and seeds it with the world and its tasks (scripts/seed.ts;
 *     seeding is skipped when the database already holds the current world),
 *  3. runs `wrangler dev` with local bindings only (no login, no remote resources, no network).
 * Extra arguments are passed to `wrangler dev` (e.g. `npm start -- --test-scheduled`); `--persist-to DIR` is
 * also passed to the seeding step, so the database that is seeded is the one that is served.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyDocsAssets } from './lib/docs-assets.ts';
import { copyModelAssets } from './lib/model-assets.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wrangler = join(root, 'node_modules', '.bin', 'wrangler');
const port = process.env.PORT ?? '8787';

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => child.kill(sig));
  });
}

async function main(): Promise<void> {
  if (!existsSync(join(root, '.dev.vars'))) {
    copyFileSync(join(root, '.dev.vars.example'), join(root, '.dev.vars'));
    console.log('Created .dev.vars from .dev.vars.example (local development keys).');
  }
  // CI=1 keeps wrangler from prompting; --local never touches a remote database.
  // CLOUDFLARE_CF_FETCH_ENABLED=false: Miniflare would otherwise download the `request.cf` sample from
  // workers.cloudflare.com on start and print a getaddrinfo stack trace when offline; a placeholder does locally.
  const offline = { CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' };
  const quiet = { ...process.env, CI: '1', ...offline };
  const extra = process.argv.slice(2);
  const persistAt = extra.indexOf('--persist-to');
  const persist = persistAt >= 0 ? extra.slice(persistAt, persistAt + 2) : [];
  const seeded = await run(
    join(root, 'node_modules', '.bin', 'tsx'),
    [join(root, 'scripts', 'seed.ts'), ...persist],
    quiet,
  );
  if (seeded !== 0) process.exit(seeded);
  copyDocsAssets();
  copyModelAssets(); // the `use` embedding provider reads the USE lite weights from the assets

  // A `--port` among the extra arguments wins over PORT (wrangler refuses the flag twice).
  const portGiven = extra.some((a) => a === '--port' || a.startsWith('--port='));
  const devArgs = ['dev', ...(portGiven ? [] : ['--port', port]), '--local', ...extra];
  const code = await run(wrangler, devArgs, { ...process.env, ...offline });
  process.exit(code);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
