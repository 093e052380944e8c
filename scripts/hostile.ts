/**
 * Sends the hostile corpus (scripts/lib/hostile-corpus.ts) to a LOCAL tooldrift server and prints, per case and in
 * total, how many were tried, refused, slow and leaked:
 *
 *     npm run hostile -- --url http://127.0.0.1:8787 --key dev-user-key [--category sql] [--json]
 *
 * Each case is sent once, one at a time, with a concurrent /health probe. Exits 1 unless every case was refused
 * with 0 slow and 0 leaked. Only 127.0.0.1/localhost URLs are accepted.
 */
import { parseArgs } from 'node:util';
import { CATEGORIES, runHostile } from './lib/hostile-corpus.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:8787' },
    key: { type: 'string', default: process.env.TOOLDRIFT_KEY ?? 'dev-user-key' },
    category: { type: 'string', multiple: true },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(
    `usage: npm run hostile -- --url http://127.0.0.1:8787 --key <user key> [--category ${Object.keys(CATEGORIES).join('|')}]... [--json]`,
  );
  process.exit(0);
}

const report = await runHostile(
  { baseUrl: values.url, key: values.key, categories: values.category },
  values.json
    ? undefined
    : (r) => {
        const flags = [r.refused ? 'refused' : 'NOT REFUSED', r.slow ? 'SLOW' : '', r.leaked ? 'LEAKED' : '']
          .filter(Boolean)
          .join(' ');
        console.log(
          `${r.category.padEnd(7)} ${String(r.status).padStart(3)} ${String(r.ms).padStart(6)} ms  health ${String(r.healthMs).padStart(5)} ms  ${flags.padEnd(20)} ${r.name}`,
        );
        if (!r.refused || r.leaked) console.log(`        ${r.excerpt.replaceAll('\n', ' ')}`);
      },
);

if (values.json) console.log(JSON.stringify(report, null, 2));
else {
  const categories = [...new Set(report.results.map((r) => r.category))];
  console.log('\ncategory  tried  refused  slow  leaked');
  for (const c of [...categories, 'total']) {
    const rows = c === 'total' ? report.results : report.results.filter((r) => r.category === c);
    const count = (f: (r: (typeof rows)[number]) => boolean) => rows.filter(f).length;
    console.log(
      `${c.padEnd(8)}  ${String(rows.length).padStart(5)}  ${String(count((r) => r.refused)).padStart(7)}  ${String(count((r) => r.slow)).padStart(4)}  ${String(count((r) => r.leaked)).padStart(6)}`,
    );
  }
}
process.exit(report.refused === report.tried && report.slow === 0 && report.leaked === 0 ? 0 : 1);
