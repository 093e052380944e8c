/**
 * `tooldrift ste run|status|exemplars`: STE (simulated trial and error) runs on a tooldrift instance.
 * - `run` starts a run (POST /v1/ste/runs) and shows a progress bar over the trials of all its tools while
 *   polling GET /v1/ste/runs/{id}, then prints the per-tool table (trials, solved, kept/dropped by the filter,
 *   exemplars);
 * - `status ID` prints that table for a run;
 * - `exemplars [RUN_ID]` lists kept exemplars (filters: the run, --surface, --tool; --limit, --cursor for the next page).
 * Requests are validated by the API; its problems are printed as they come.
 */
import type { Page, SteExemplar, SteRun } from '../api-types.ts';
import { type CliIO, CONNECTION_HELP, command, printResult } from '../context.ts';
import { type ApiClient, EXIT_USAGE } from '../http.ts';
import { CliError } from '../problem.ts';
import { followRun } from '../progress.ts';
import {
  type FlagValues,
  flagValue,
  MODEL_HELP,
  MODEL_OPTIONS,
  modelFromFlags,
  setFlags,
  stringFlag,
  toolsValue,
} from '../suite.ts';
import { renderTable } from '../table.ts';

export const STE_HELP = `Usage: tooldrift ste run [flags] | ste status ID | ste exemplars [RUN_ID] [filters] [--json] [--url URL] [--key KEY]

STE (simulated trial and error): the model imagines queries for each tool of a surface, tries them, reflects,
and keeps the good trials as exemplars (demonstrations, or SFT data: tooldrift export is /v1/exports/ste-sft.jsonl).

ste run:
  --surface ID           surface to explore (default pc): a kernel surface, or an imported API — its id or a
                         drifted version's — whose operations the trials call on the API's mock (the API's
                         evaluation queries, e.g. STE's tool_test.json, never become exemplars)
  --docs ID              surface whose documentation the prompts show (default: --surface)
  --since ID             explore only the tools changed since this surface (continual learning)
  --tools LIST|all       explore only these tools, or all of them (say all when that costs 1,000 calls or more)
  --episodes N           episodes per tool (default 15)
  --trials N             trials per episode (default 4)
  --max-calls N          tool calls per trial (default 4)
  --no-paraphrase        keep exemplars without paraphrases
  --long-term-memory M   episode (default: when an episode opens), trial (every trial, the paper's text), off
  --no-execution-feedback  ablation (Table 2): the model is not shown what its calls returned
  --no-short-term-memory   ablation: every trial its own episode, the trial count kept
  --no-self-reflection     ablation: no reflection; long-term memory without Solved marks
  --seed S               seed (default '0')
  --no-wait              print the run id and return at once

${MODEL_HELP}

ste exemplars [RUN_ID]:
  RUN_ID or --run ID  --surface ID  --tool NAME   filters (an unknown run or surface is an error, not an empty list)
  --limit N     --cursor C              page size and the nextCursor of the previous page

${CONNECTION_HELP}

Exit codes: 0 succeeded, 1 the server refused or the run failed or was cancelled, 2 invalid flags.`;

/** The body of POST /v1/ste/runs the flags describe; unset flags are left to the API's defaults. */
export function steRunBody(values: FlagValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  setFlags(body, values, { surface: 'surface', docs: 'docs', since: 'since', seed: 'seed' });
  setFlags(body, values, { tools: 'tools' }, toolsValue);
  setFlags(body, values, { episodes: 'episodes', trials: 'trials', maxCalls: 'max-calls' }, flagValue);
  if (values['no-paraphrase']) body.paraphrase = false;
  setFlags(body, values, { longTermMemory: 'long-term-memory' });
  if (values['no-execution-feedback']) body.executionFeedback = false;
  if (values['no-short-term-memory']) body.shortTermMemory = false;
  if (values['no-self-reflection']) body.selfReflection = false;
  const model = modelFromFlags(values);
  if (model !== undefined) body.model = model;
  return body;
}

export function steRunReport(r: SteRun): string {
  const table = renderTable({
    header: [
      [
        { text: 'tool' },
        { text: 'status' },
        { text: 'trials' },
        { text: 'solved' },
        { text: 'kept' },
        { text: 'dropped' },
        { text: 'exemplars' },
        { text: 'calls' },
      ],
    ],
    align: ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right'],
    rows: r.tools.map((t) => [
      t.tool,
      t.status,
      `${t.trialsDone}/${t.trialsTotal}`,
      String(t.solved),
      String(t.kept),
      String(t.dropped),
      String(t.exemplars),
      String(t.modelCalls),
    ]),
  });
  const since = r.since ? ` (tools changed since ${r.since})` : '';
  const n = r.config.heldOutQueries;
  const held = n ? `${n} evaluation queries of the API held out (never exemplars)\n` : '';
  return (
    `STE run ${r.id} — ${r.status}: surface ${r.surface}@${r.surfaceVersion}${since}, docs ${r.docs}\n` +
    `${r.progress.toolsDone}/${r.progress.tools} tools done, ${r.progress.trialsDone}/${r.progress.trialsTotal} trials, ` +
    `${r.progress.exemplars} exemplars, ${r.progress.modelCalls} model calls\n${held}${table}`
  );
}

async function runCommand(client: ApiClient, values: FlagValues, io: CliIO): Promise<number> {
  const run = await client.post<SteRun>('/v1/ste/runs', steRunBody(values));
  return followRun(io, values, {
    label: `ste ${run.id}`,
    unit: 'trials',
    first: run,
    running: (r) => r.status === 'queued' || r.status === 'running',
    counts: (r) => ({
      done: r.progress.trialsDone,
      total: r.progress.trialsTotal,
      note: `${r.progress.exemplars} exemplars`,
    }),
    status: (r) => r.status,
    refetch: (r) => client.get<SteRun>(`/v1/ste/runs/${encodeURIComponent(r.id)}`),
    started: (r) => `Started STE run ${r.id} (${r.progress.tools} tools).\n`,
    report: steRunReport,
  });
}

type ExemplarPage = Page<SteExemplar>;

function exemplarsText(page: ExemplarPage): string {
  return (
    page.items.map((e) => `${e.tool}\t${e.query}\n\t${e.action} ${e.actionInput}\n`).join('') +
    `${page.items.length} exemplars${page.nextCursor ? `; next page: --cursor ${page.nextCursor}` : ''}\n`
  );
}

async function exemplarsCommand(
  client: ApiClient,
  values: FlagValues,
  run: string | undefined,
  io: CliIO,
): Promise<number> {
  if (run !== undefined && stringFlag(values, 'run') !== undefined && stringFlag(values, 'run') !== run)
    throw new CliError([`Two runs given: ${run} and --run ${stringFlag(values, 'run')}.`], EXIT_USAGE);
  const query = new URLSearchParams();
  if (run !== undefined) query.set('run', run);
  for (const key of ['surface', 'tool', 'run', 'limit', 'cursor'] as const) {
    const v = stringFlag(values, key);
    if (v !== undefined) query.set(key, v);
  }
  const qs = query.toString();
  const page = await client.get<ExemplarPage>(`/v1/ste/exemplars${qs ? `?${qs}` : ''}`);
  printResult(io, values, page, exemplarsText);
  return 0;
}

export const steCommand = command({
  name: 'ste',
  help: STE_HELP,
  options: {
    ...MODEL_OPTIONS,
    surface: { type: 'string' },
    docs: { type: 'string' },
    since: { type: 'string' },
    tools: { type: 'string' },
    episodes: { type: 'string' },
    trials: { type: 'string' },
    'max-calls': { type: 'string' },
    'no-paraphrase': { type: 'boolean' },
    'long-term-memory': { type: 'string' },
    'no-execution-feedback': { type: 'boolean' },
    'no-short-term-memory': { type: 'boolean' },
    'no-self-reflection': { type: 'boolean' },
    seed: { type: 'string' },
    'no-wait': { type: 'boolean' },
    tool: { type: 'string' },
    run: { type: 'string' },
    limit: { type: 'string' },
    cursor: { type: 'string' },
  },
  positionals: 'subcommand',
  async run(values, positionals, connect, io) {
    const [sub, id, ...extra] = positionals;
    if (sub === 'run' && id === undefined) return runCommand(connect(), values, io);
    if (sub === 'exemplars' && extra.length === 0) return exemplarsCommand(connect(), values, id, io);
    if (sub === 'status' && id !== undefined && extra.length === 0) {
      const run = await connect().get<SteRun>(`/v1/ste/runs/${encodeURIComponent(id)}`);
      printResult(io, values, run, steRunReport);
      return 0;
    }
    throw new CliError(
      [`Unknown or incomplete subcommand: ste ${positionals.join(' ')}`, 'Run `tooldrift ste --help`.'],
      EXIT_USAGE,
    );
  },
});
