/**
 * `tooldrift eval`: starts an evaluation (POST /v1/evals), shows its progress while polling GET /v1/evals/{id},
 * then prints the results table and the error taxonomy (or the raw JSON with --json).
 */
import {
  API_EVAL_HELP,
  apiEvalReport,
  apiSuiteFromFlags,
  isApiEvalDetail,
  validateApiSuite,
} from '../api-eval.ts';
import type { EvalCreated, EvalDetail } from '../api-types.ts';
import { type CliIO, CONNECTION_HELP, command, printResult, urlFlag } from '../context.ts';
import { type ApiClient, EXIT_FAILURE } from '../http.ts';
import { pollWithProgress } from '../progress.ts';
import {
  MODEL_HELP,
  readJsonFile,
  SUITE_HELP,
  SUITE_OPTIONS,
  suiteFromFlags,
  validateSuite,
} from '../suite.ts';
import { evalReport } from '../table.ts';

export const EVAL_HELP = `Usage: tooldrift eval [suite flags] [--no-wait] [--json] [--url URL] [--key KEY]
       tooldrift eval --api ID --queryset ID [--methods …] [--surfaces …] [--docs …] [--sample N] …

Runs an evaluation suite (methods × surfaces × sampled tasks of each dataset and difficulty) on a tooldrift
instance, shows a progress bar on stderr, then prints the success-rate table and the error taxonomy. With --api,
the suite runs over an imported API's query set and prints the Correct Path Rate table.

${SUITE_HELP}

${API_EVAL_HELP}

${MODEL_HELP}

Run:
  --no-wait      print the evaluation id and return at once

${CONNECTION_HELP}

Exit codes: 0 finished, 1 the server refused or the evaluation was cancelled, 2 invalid flags.
Examples: tooldrift eval --surfaces pc,s-in,s-ood --sample 1
          tooldrift eval --api tmdb-1a2b3c4d --queryset QS --surfaces tmdb-1a2b3c4d,V2 --docs imported,surface --sample 5`;

/** The report of an evaluation of either kind. */
export function anyEvalReport(d: EvalDetail): string {
  return isApiEvalDetail(d) ? apiEvalReport(d) : evalReport(d);
}

/** Polls an evaluation until it is no longer running, drawing progress on stderr. */
export function waitForEval(
  io: CliIO,
  client: ApiClient,
  id: string,
  unit = 'task runs',
): Promise<EvalDetail> {
  const get = () => client.get<EvalDetail>(`/v1/evals/${encodeURIComponent(id)}`);
  return pollWithProgress(io, {
    label: `eval ${id}`,
    unit,
    first: get(),
    running: (d) => d.status === 'running',
    counts: (d) => ({ done: d.progress.done, total: d.progress.total }),
    status: (d) => d.status,
    refetch: get,
  });
}

export const evalCommand = command({
  name: 'eval',
  help: EVAL_HELP,
  options: {
    ...SUITE_OPTIONS,
    api: { type: 'string' },
    queryset: { type: 'string' },
    docs: { type: 'string' },
    method: { type: 'string' },
    surface: { type: 'string' },
    'no-wait': { type: 'boolean' },
  },
  async run(values, _positionals, connect, io) {
    const file = typeof values.suite === 'string' ? readJsonFile(values.suite, '--suite') : null;
    const overApi =
      values.api !== undefined ||
      values.queryset !== undefined ||
      values.docs !== undefined ||
      (typeof file === 'object' && file !== null && 'api' in file);
    const suite = overApi
      ? apiSuiteFromFlags(values)
      : suiteFromFlags({
          ...values,
          methods: values.methods ?? values.method,
          surfaces: values.surfaces ?? values.surface,
        });
    if (overApi) validateApiSuite(suite);
    else validateSuite(suite);
    const client = connect();
    const created = await client.post<EvalCreated>('/v1/evals', suite);
    if (values['no-wait']) {
      printResult(
        io,
        values,
        created,
        (c) =>
          `Started evaluation ${c.id} (${c.progress.total} ${overApi ? 'query' : 'task'} runs).\n` +
          `Follow it with: tooldrift evals show ${c.id}${urlFlag(values)}\n`,
      );
      return 0;
    }
    const detail = await waitForEval(io, client, created.id, overApi ? 'query runs' : 'task runs');
    printResult(io, values, detail, anyEvalReport);
    return detail.status === 'done' ? 0 : EXIT_FAILURE;
  },
});
