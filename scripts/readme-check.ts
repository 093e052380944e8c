/**
 * `npm run readme:check`: runs every command the README shows against a running local tooldrift (default
 * `npm start -- --test-scheduled` on http://localhost:8787 with the development keys: the README fires a cron tick
 * through wrangler's test route) and reports each as run, checked, skipped (with
 * the reason) or failed; exits 1 on a failure (scripts/lib/readme-commands.ts). The e2e test
 * test/e2e/readme.test.ts runs the same check in `npm test` against its own instance.
 *
 *     npm run readme:check -- [--url http://localhost:8787] [--key dev-user-key] [--admin-key dev-admin-key] [--verbose]
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runReadme } from './lib/readme-commands.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:8787' },
    key: { type: 'string', default: 'dev-user-key' },
    'admin-key': { type: 'string', default: 'dev-admin-key' },
    verbose: { type: 'boolean', default: false },
  },
});
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = await runReadme({
  root,
  baseUrl: values.url.replace(/\/+$/, ''),
  userKey: values.key,
  adminKey: values['admin-key'],
  ...(values.verbose ? { log: (t: string) => process.stderr.write(t) } : {}),
});
for (const r of results) {
  const first = r.command.text.trim().split('\n')[0] ?? '';
  console.log(`${r.status.padEnd(8)} README:${r.command.line}  ${first.slice(0, 90)}`);
  if (r.status === 'skipped') console.log(`         (${r.detail})`);
  if (r.status === 'failed') console.log(r.detail.replace(/^/gm, '         '));
}
const count = (s: string) => results.filter((r) => r.status === s).length;
console.log(
  `\n${count('ran')} run, ${count('checked')} checked, ${count('skipped')} skipped with a reason, ${count('failed')} failed`,
);
process.exit(count('failed') === 0 ? 0 : 1);
