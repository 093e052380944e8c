/**
 * `npm run fuzz`: the black-box API fuzz (scripts/lib/api-fuzz.ts) against a LOCAL tooldrift server — seeded
 * requests over every operation of /openapi.json with two user keys — and its report: requests by status and
 * every finding (5xx, an error that is not problem+json, an unpaged list, a body or query with an unknown field
 * accepted, another key's resource answered, an unknown id answered). Exits 1 on any finding.
 *
 *     npm run fuzz -- --url http://127.0.0.1:8787 --key dev-user-key --admin-key dev-admin-key --requests 10000
 *
 * The server's rate limit must allow the requests (e.g. `npm start -- --var RATE_LIMIT_PER_MINUTE:1000000 --var
 * RATE_LIMIT_BURST:1000000`). Only loopback URLs are accepted.
 */
import { parseArgs } from 'node:util';
import { runApiFuzz } from './lib/api-fuzz.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:8787' },
    key: { type: 'string', default: process.env.TOOLDRIFT_KEY ?? 'dev-user-key' },
    'admin-key': { type: 'string', default: 'dev-admin-key' },
    requests: { type: 'string', default: '10000' },
    seed: { type: 'string', default: 'api-fuzz' },
    concurrency: { type: 'string', default: '4' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(
    'usage: npm run fuzz -- [--url http://127.0.0.1:8787] [--key <user key>] [--admin-key <admin key>] [--requests 10000] [--seed S] [--concurrency 4] [--json]',
  );
  process.exit(0);
}
const host = new URL(values.url).hostname;
if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
  console.error(`npm run fuzz only targets a local server (got ${host}).`);
  process.exit(2);
}

const started = Date.now();
let last = 0;
const report = await runApiFuzz({
  baseUrl: values.url,
  key: values.key,
  adminKey: values['admin-key'],
  requests: Number(values.requests),
  seed: values.seed,
  concurrency: Number(values.concurrency),
  onProgress: (done, total) => {
    if (values.json || done - last < 500) return;
    last = done;
    process.stderr.write(`${done}/${total} requests, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  },
});
if (values.json) console.log(JSON.stringify(report, null, 2));
else {
  console.log(
    `${report.requests} requests over ${report.covered} of ${report.operations} operations in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  console.log(
    `by status: ${Object.entries(report.byStatus)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
  );
  const c = report.checked;
  console.log(
    `checked: ${c.strictBodies} bodies with an unknown field, ${c.strictQueries} queries with an unknown parameter, ${c.lists} list pages, ${c.foreign} requests for the other key's resources, ${c.unknownIds} naming an unknown id`,
  );
  const kinds = [
    'server-error',
    'not-a-problem',
    'unpaged-list',
    'not-strict',
    'foreign-access',
    'unknown-id',
  ] as const;
  for (const kind of kinds)
    console.log(`${kind.padEnd(15)} ${report.findings.filter((f) => f.kind === kind).length}`);
  for (const f of report.findings.slice(0, 30))
    console.log(`  ${f.kind} ${f.status} ${f.request}: ${f.detail}`);
}
process.exit(report.findings.length === 0 ? 0 : 1);
