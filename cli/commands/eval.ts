/**
 * `tooldrift eval`: starts an evaluation (POST /v1/evals), shows its progress while polling GET /v1/evals/{id},
 * then prints the results table and the error taxonomy (or the raw JSON with --json).
 */
import type { EvalCreated, EvalDetail } from '../api-types.ts';
import { type CliIO, CONNECTION_HELP, command, printResult, urlFlag } from '../context.ts';
import { type ApiClient, EXIT_FAILURE } from '../http.ts';
import { pollWithProgress } from '../progress.ts';
import { MODEL_HELP, SUITE_HELP, SUITE_OPTIONS, suiteFromFlags, validateSuite } from '../suite.ts';
import { evalReport } from '../table.ts';

export const EVAL_HELP = `Usage: tooldrift eval [suite flags] [--no-wait] [--json] [--url URL] [--key KEY]

Runs an evaluation suite (methods × surfaces × sampled tasks of each dataset and difficulty) on a tooldrift
instance, shows a progress bar on stderr, then prints the success-rate table and the error taxonomy.

${SUITE_HELP}

${MODEL_HELP}

Run:
  --no-wait      print the evaluation id and return at once

${CONNECTION_HELP}

Exit codes: 0 finished, 1 the server refused or the evaluation was cancelled, 2 invalid flags.
Example: tooldrift eval --surfaces pc,s-in,s-ood --sample 1`;

/** Polls an evaluation until it is no longer running, drawing progress on stderr. */
export function waitForEval(io: CliIO, client: ApiClient, id: string): Promise<EvalDetail> {
  const get = () => client.get<EvalDetail>(`/v1/evals/${encodeURIComponent(id)}`);
  return pollWithProgress(io, {
    label: `eval ${id}`,
    unit: 'task runs',
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
  options: { ...SUITE_OPTIONS, 'no-wait': { type: 'boolean' } },
  async run(values, _positionals, connect, io) {
    const suite = suiteFromFlags(values);
    validateSuite(suite);
    const client = connect();
    const created = await client.post<EvalCreated>('/v1/evals', suite);
    if (values['no-wait']) {
      printResult(
        io,
        values,
        created,
        (c) =>
          `Started evaluation ${c.id} (${c.progress.total} task runs).\n` +
          `Follow it with: tooldrift evals show ${c.id}${urlFlag(values)}\n`,
      );
      return 0;
    }
    const detail = await waitForEval(io, client, created.id);
    printResult(io, values, detail, evalReport);
    return detail.status === 'done' ? 0 : EXIT_FAILURE;
  },
});
