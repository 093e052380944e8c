/**
 * `tooldrift draft run|status|docs`: DRAFT documentation runs on a tooldrift instance. `run` starts one
 * (POST /v1/draft/runs) and shows a progress bar of finished tools while polling, then the per-tool report (stop
 * reason, Δ per iteration, model calls); `status` prints that report for a run; `docs` prints a documentation set
 * rendered as the prompt tool list, JSON Schema, OpenAPI or JSON, or its diff against another set.
 */
import { type CliIO, CONNECTION_HELP, command, printJson, printResult } from '../context.ts';
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

export const DRAFT_HELP = `Usage: tooldrift draft run --surface ID [options]
       tooldrift draft status RUN_ID
       tooldrift draft docs DOCSET_ID [--format prompt|json-schema|openapi|json] [--against ID|parent|source]

DRAFT rewrites tool documentation from exploring a server surface: an explorer tries each tool, the real
answers are analysed, a rewriter writes the next version, until Δ = (BLEU + cos) / 2 > τ or I iterations.

run:
  --surface ID             the server surface to explore (required): a kernel surface, or an imported API —
                           its id (the API as imported) or a drifted version's id — whose every served
                           operation is explored against the API's mock
  --docs ID                start from this surface's documentation (default pc; for an API surface, the API
                           as imported)
  --from DOCSET_ID         continue a documentation set instead
  --tools LIST|all         tool keys to re-document (default: every explorable tool; say all when that costs
                           1,000 model calls or more)
  --iterations N           I (default 5)
  --setup-calls N          preparatory calls an explorer may make before the tool's call (default 3)
  --tau X                  τ (default 0.75)
  --phi X                  φ (default 0.9)
  --no-diversity           ablation: accept every explored query
  --no-adaptive-termination  ablation: always I iterations
  --failed-rewrite stop|retry  a rewrite that changed nothing after a failed call: stop as rewrite-failed
                           (default, where the paper's rule stops) or explore again
  --encoder auto|use|lexical   encoder of φ and Δ (default auto: the provider embedding, else USE lite)
  --seed S                 seed of every model call
  --no-wait                print the run id and return at once
${MODEL_HELP}

${CONNECTION_HELP}

Exit codes: 0 succeeded, 1 the server refused or the run failed or was cancelled, 2 invalid flags.`;

export interface DraftRunView {
  id: string;
  status: string;
  surface: string;
  docsetId: string | null;
  progress: { tools: number; done: number; modelCalls: number };
  tools: {
    key: string;
    status: string;
    iteration: number;
    modelCalls: number;
    deltas: { iteration: number; delta: number | null }[];
    stop: string | null;
  }[];
}

/** The body of POST /v1/draft/runs the flags describe; unset flags are left to the API's defaults. */
export function draftRunBody(values: FlagValues): Record<string, unknown> {
  const surface = stringFlag(values, 'surface');
  if (surface === undefined) throw new CliError(['--surface is required.', DRAFT_HELP], EXIT_USAGE);
  const body: Record<string, unknown> = { surface };
  setFlags(body, values, { docsSurface: 'docs', fromDocset: 'from' });
  setFlags(body, values, { tools: 'tools' }, toolsValue);
  const options: Record<string, unknown> = {};
  setFlags(
    options,
    values,
    { iterations: 'iterations', tau: 'tau', phi: 'phi', setupCalls: 'setup-calls' },
    flagValue,
  );
  if (values['no-diversity']) options.diversity = false;
  if (values['no-adaptive-termination']) options.adaptiveTermination = false;
  setFlags(options, values, { seed: 'seed', failedRewrite: 'failed-rewrite', encoder: 'encoder' });
  if (Object.keys(options).length > 0) body.options = options;
  const model = modelFromFlags(values);
  if (model !== undefined) body.model = model;
  return body;
}

function deltaText(deltas: DraftRunView['tools'][number]['deltas']): string {
  return deltas.length === 0
    ? '—'
    : deltas.map((d) => (d.delta === null ? '?' : d.delta.toFixed(3))).join(' → ');
}

export function draftRunReport(run: DraftRunView): string {
  const width = Math.max(4, ...run.tools.map((t) => t.key.length));
  const lines = [
    `DRAFT run ${run.id} — ${run.status}: ${run.progress.done}/${run.progress.tools} tools on ${run.surface}, ` +
      `${run.progress.modelCalls} model calls`,
    `${'tool'.padEnd(width)}  status     stop            calls  Δ per iteration`,
  ];
  for (const t of run.tools) {
    lines.push(
      `${t.key.padEnd(width)}  ${t.status.padEnd(9)}  ${(t.stop ?? '—').padEnd(14)}  ${String(t.modelCalls).padStart(5)}  ${deltaText(t.deltas)}`,
    );
  }
  const unconfirmed = run.tools.filter((t) => t.stop !== null && UNCONFIRMED.has(t.stop));
  if (unconfirmed.length > 0) {
    lines.push(
      `Not confirmed by the server (not converged): ${unconfirmed.map((t) => `${t.key} (${t.stop})`).join(', ')}`,
    );
  }
  if (run.docsetId) lines.push(`Documentation: tooldrift draft docs ${run.docsetId}`);
  return `${lines.join('\n')}\n`;
}

/** Stop reasons of a loop that did not settle on documentation the server confirmed. */
const UNCONFIRMED = new Set(['rewrite-failed', 'no-success']);

/** A documentation set's `flagged` list (GET /v1/docsets/{id}). */
interface FlaggedTool {
  key: string;
  name: string;
  stop: string;
  flags: string[];
  current: boolean;
}

const FLAG_TEXT: Record<string, string> = {
  'not-served': 'the server does not serve this name',
  'rewrite-failed': 'the last rewrite changed nothing after a failed call',
  'no-success': 'no exploration succeeded',
};

/** `# ` comment lines saying which tools are left out (not served) and which are unconfirmed. */
export function flaggedText(flagged: readonly FlaggedTool[]): string {
  return flagged
    .map((f) => {
      const why = f.flags.map((x) => FLAG_TEXT[x] ?? x).join('; ');
      return f.current
        ? `# unconfirmed: ${f.name} (${f.key}) — ${why}`
        : `# left out, not current documentation: ${f.name} (${f.key}) — ${why}`;
    })
    .map((l) => `${l}\n`)
    .join('');
}

const RUNNING = new Set(['queued', 'running', 'finalizing']);

async function runCommand(client: ApiClient, values: FlagValues, io: CliIO): Promise<number> {
  const view = await client.post<DraftRunView>('/v1/draft/runs', draftRunBody(values));
  return followRun(io, values, {
    label: `draft ${view.id}`,
    unit: 'tools',
    first: view,
    running: (v) => RUNNING.has(v.status),
    counts: (v) => ({
      done: v.progress.done,
      total: v.progress.tools,
      note: `${v.progress.modelCalls} model calls`,
    }),
    status: (v) => v.status,
    refetch: (v) => client.get<DraftRunView>(`/v1/draft/runs/${encodeURIComponent(v.id)}`),
    started: (v) => `Started DRAFT run ${v.id} (${v.progress.tools} tools).\n`,
    report: draftRunReport,
  });
}

interface DocsetDiff {
  against: string;
  tools: { key: string; before: string | null; after: string | null; changed: boolean }[];
}

function docsetDiffText(diff: DocsetDiff): string {
  const changed = diff.tools.filter((t) => t.changed);
  return (
    `${changed.length} of ${diff.tools.length} tools changed since ${diff.against}\n` +
    changed.map((t) => `\n${t.key}\n- ${t.before ?? '(absent)'}\n+ ${t.after ?? '(absent)'}\n`).join('')
  );
}

const FORMATS = new Set(['prompt', 'json-schema', 'openapi', 'json']);

async function docsCommand(client: ApiClient, id: string, values: FlagValues, io: CliIO): Promise<number> {
  const against = stringFlag(values, 'against');
  if (against !== undefined) {
    const diff = await client.get<DocsetDiff>(
      `/v1/docsets/${encodeURIComponent(id)}/diff?against=${encodeURIComponent(against)}`,
    );
    printResult(io, values, diff, docsetDiffText);
    return 0;
  }
  const format = stringFlag(values, 'format') ?? 'prompt';
  if (!FORMATS.has(format)) {
    throw new CliError(
      [`--format must be one of ${[...FORMATS].join(', ')}, got ${JSON.stringify(format)}.`],
      EXIT_USAGE,
    );
  }
  const doc = await client.get<Record<string, unknown>>(
    `/v1/docsets/${encodeURIComponent(id)}?format=${format}`,
  );
  if (format === 'prompt' && !values.json) {
    io.stdout(
      `${doc.simulated ? '# written with the simulator (tooldrift-sim-v1)\n' : ''}${String(doc.text)}\n${flaggedText((doc.flagged as FlaggedTool[] | undefined) ?? [])}`,
    );
  } else printJson(io, doc);
  return 0;
}

export const draftCommand = command({
  name: 'draft',
  help: DRAFT_HELP,
  options: {
    ...MODEL_OPTIONS,
    surface: { type: 'string' },
    docs: { type: 'string' },
    from: { type: 'string' },
    tools: { type: 'string' },
    iterations: { type: 'string' },
    'setup-calls': { type: 'string' },
    tau: { type: 'string' },
    phi: { type: 'string' },
    'no-diversity': { type: 'boolean' },
    'no-adaptive-termination': { type: 'boolean' },
    'failed-rewrite': { type: 'string' },
    encoder: { type: 'string' },
    seed: { type: 'string' },
    'no-wait': { type: 'boolean' },
    format: { type: 'string' },
    against: { type: 'string' },
  },
  positionals: 'subcommand',
  async run(values, positionals, connect, io) {
    const [sub, id, ...extra] = positionals;
    if (extra.length > 0) throw new CliError([`Unexpected arguments: ${extra.join(' ')}.`], EXIT_USAGE);
    switch (sub) {
      case 'run':
        if (id !== undefined) throw new CliError([`draft run takes no positional argument.`], EXIT_USAGE);
        return runCommand(connect(), values, io);
      case 'status': {
        if (id === undefined) throw new CliError(['Usage: tooldrift draft status RUN_ID'], EXIT_USAGE);
        const view = await connect().get<DraftRunView>(`/v1/draft/runs/${encodeURIComponent(id)}`);
        printResult(io, values, view, draftRunReport);
        return 0;
      }
      case 'docs':
        if (id === undefined) throw new CliError(['Usage: tooldrift draft docs DOCSET_ID'], EXIT_USAGE);
        return docsCommand(connect(), id, values, io);
      default:
        throw new CliError(
          [`Unknown draft command ${JSON.stringify(sub)}: run, status or docs.`],
          EXIT_USAGE,
        );
    }
  },
});
