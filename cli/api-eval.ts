/**
 * `tooldrift eval --api ID --queryset ID …`: an evaluation over an imported API's query set (issue 23 §4). The flags
 * become the suite of `POST /v1/evals {"api", "queryset", …}` (validated with the API's own ApiSuiteSchema, so a bad
 * value gets the message the API would give), and the finished evaluation prints as DRAFT Table 1 prints: Correct
 * Path Rate in both definitions, success where the set has gold answers and calls per query, per method × surface ×
 * documentation, then the Table 7-style taxonomy of the failures.
 */
import { ApiSuiteSchema } from '../core/evals/api-suite.ts';
import type { ApiTableRow } from '../core/evals/api-table.ts';
import { EXIT_USAGE } from './http.ts';
import { CliError, problemLines } from './problem.ts';
import {
  type FlagValues,
  flagValue,
  listValue,
  readJsonFile,
  setAidsAndModel,
  setFlags,
  setMethodOptionFlags,
  stringFlag,
} from './suite.ts';
import { type HeaderCell, isoTime, renderTable, shareCell } from './table.ts';
import { validateBody } from './validation.ts';

export const API_EVAL_HELP = `Over an imported API's query set (instead of ToolQA-D datasets):
  --api ID                an imported API (\`tooldrift api list\`)
  --queryset ID           one of its query sets (GET /v1/apis/ID/querysets)
  --methods LIST          methods that run on APIs (default greedy; \`tooldrift methods\` says which do)
  --surfaces LIST         the API's id (the API as imported) and its drifted versions (default: the API's id)
  --docs LIST             what the agent reads, each imported | surface | docset:ID | description:ID
                          (default imported: the API's own docs, stale on a drifted surface)
  --sample N|all          the query set's first N items (default all)
  --aids JSON             aid rows, e.g. '[{}, {"toolPool": {"pool": "all", "k": 5}}]' (RestBench's settings:
                          pool candidates — the item's candidate APIs — or all)
  --max-steps N, --seed S, --name NAME, --suite FILE, the --mcts-* and ReAct option flags and the model flags as above
  (--method and --surface are the same as --methods and --surfaces)`;

/** Flags of ToolQA-D suites that mean nothing over a query set. */
const KERNEL_ONLY = ['prompt-surface', 'datasets', 'difficulties', 'split', 'table5'];

/** A `--docs` entry as the suite writes it. */
function docsValue(raw: string): unknown {
  const m = /^(docset|description):(.+)$/.exec(raw);
  return m ? { [m[1] as string]: m[2] } : raw;
}

/** The API suite the flags describe (not yet validated). */
export function apiSuiteFromFlags(values: FlagValues): Record<string, unknown> {
  const given = KERNEL_ONLY.filter((f) => values[f] !== undefined);
  if (given.length > 0)
    throw new CliError(
      [
        `--${given.join(', --')} ${given.length === 1 ? 'applies' : 'apply'} to ToolQA-D suites, not with --api.`,
      ],
      EXIT_USAGE,
    );
  const file = stringFlag(values, 'suite');
  const base = file ? readJsonFile(file, '--suite') : {};
  if (!base || typeof base !== 'object' || Array.isArray(base))
    throw new CliError([`--suite ${file} must hold a JSON object (a suite).`], EXIT_USAGE);
  const suite: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  setFlags(suite, values, { api: 'api', queryset: 'queryset', name: 'name', seed: 'seed' });
  setFlags(suite, values, { methods: 'method', surfaces: 'surface' }, listValue);
  setFlags(suite, values, { methods: 'methods', surfaces: 'surfaces' }, listValue);
  setFlags(suite, values, { docs: 'docs' }, (raw) => listValue(raw).map(docsValue));
  setFlags(suite, values, { sampleSize: 'sample', maxSteps: 'max-steps' }, flagValue);
  setMethodOptionFlags(suite, values);
  setAidsAndModel(suite, values);
  return suite;
}

/** Validates an API suite as POST /v1/evals does; a failure is the API's validation problem, exit code 2. */
export function validateApiSuite(suite: unknown): void {
  const checked = validateBody(ApiSuiteSchema, suite);
  if (!checked.ok) throw new CliError(problemLines(checked.problem), EXIT_USAGE, checked.problem);
}

/** `GET /v1/evals/{id}` of an evaluation over a query set (`kind: "api"`), as the CLI reads it. */
export interface ApiEvalDetail {
  id: string;
  kind: 'api';
  name: string | null;
  status: string;
  createdAt: string;
  finishedAt: string | null;
  progress: { done: number; total: number };
  suite: Record<string, unknown>;
  model: { provider: string; name: string; simulated: boolean };
  /** The rows core/evals/api-table.ts computes (the route answers them as they are). */
  table: ApiTableRow[];
  taxonomy: {
    categories: { id: string; label: string }[];
    rows: {
      method: string;
      surface: string;
      docs: string;
      aids: string;
      failures: number;
      runErrors: number;
      counts: Record<string, number>;
    }[];
  };
  usage: { modelCalls: number; inputTokens: number; outputTokens: number; latencyMs: number };
}

export function isApiEvalDetail(d: unknown): d is ApiEvalDetail {
  return typeof d === 'object' && d !== null && (d as { kind?: unknown }).kind === 'api';
}

const figure = (x: number | null, digits = 1) => (x === null ? '-' : x.toFixed(digits));

/** The whole report: a heading, the CP% table, the taxonomy, the simulator's label and the usage. */
export function apiEvalReport(e: ApiEvalDetail): string {
  const model = `${e.model.provider}/${e.model.name}${e.model.simulated ? ' (simulated)' : ''}`;
  const withAids = e.table.some((r) => r.aids !== 'none');
  const withSuccess = e.table.some((r) => r.success !== null);
  const header: HeaderCell[] = [
    { text: 'method' },
    { text: 'surface' },
    { text: 'docs' },
    ...(withAids ? [{ text: 'aids' }] : []),
    { text: 'done' },
    { text: 'CP% (subsequence)' },
    { text: 'CP% (set)' },
    ...(withSuccess ? [{ text: 'success %' }] : []),
    { text: 'calls/query' },
  ];
  const table = renderTable({
    header: [header],
    align: header.map((_, i) => (i < (withAids ? 4 : 3) ? 'left' : 'right')),
    rows: e.table.map((r) => [
      r.method,
      r.surface,
      r.docs,
      ...(withAids ? [r.aids] : []),
      `${r.done}/${r.total}`,
      figure(r.correctPath.subsequence),
      figure(r.correctPath.set),
      ...(withSuccess ? [figure(r.success)] : []),
      figure(r.callsPerQuery, 2),
    ]),
  });
  const cats = e.taxonomy.categories;
  const runErrors = e.taxonomy.rows.some((r) => r.runErrors > 0);
  const taxonomy = renderTable({
    header: [
      [
        { text: 'method' },
        { text: 'surface' },
        { text: 'docs' },
        { text: 'failures' },
        ...cats.map((c) => ({ text: c.id })),
        ...(runErrors ? [{ text: 'run errors' }] : []),
      ],
    ],
    align: [
      'left',
      'left',
      'left',
      'right',
      ...cats.map(() => 'right' as const),
      ...(runErrors ? ['right' as const] : []),
    ],
    rows: e.taxonomy.rows.map((r) => [
      r.method,
      r.surface,
      withAids && r.aids !== 'none' ? `${r.docs} ${r.aids}` : r.docs,
      String(r.failures),
      ...cats.map((c) => shareCell(r.counts[c.id] ?? 0, r.failures)),
      ...(runErrors ? [String(r.runErrors)] : []),
    ]),
  });
  const u = e.usage;
  return [
    `Evaluation ${e.id}${e.name ? ` "${e.name}"` : ''} — ${e.status}, ${e.progress.done}/${e.progress.total} query runs, ` +
      `API ${String(e.suite.api)}, query set ${String(e.suite.queryset)}, model ${model}, ${isoTime(e.finishedAt ?? e.createdAt)}\n`,
    "\nCorrect Path Rate (%): subsequence = the DRAFT paper's (gold path an ordered subsequence of the calls), set = DRAFT's released code (every gold operation called)\n",
    table,
    '\nError taxonomy (failed query runs, share of the failures)\n',
    taxonomy,
    ...(e.model.simulated
      ? ['\nSimulator behaviour: every figure was measured with the simulated policy, not a model.\n']
      : []),
    ...(e.status === 'running'
      ? ['\nStill running: figures are over the query runs finished so far.\n']
      : []),
    `\nUsage: ${u.modelCalls} model calls, ${u.inputTokens} input + ${u.outputTokens} output tokens, ` +
      `${(u.latencyMs / 1000).toFixed(1)} s model time\n`,
  ].join('');
}
