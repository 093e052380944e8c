/** `tooldrift evals list|show`: past evaluations (GET /v1/evals) and one evaluation's tables. */
import type { EvalDetail, EvalSummary, Page } from '../api-types.ts';
import { CONNECTION_HELP, command, printResult } from '../context.ts';
import { EXIT_USAGE } from '../http.ts';
import { CliError } from '../problem.ts';
import { flagValue } from '../suite.ts';
import { isoTime, percentCell, renderTable } from '../table.ts';
import { anyEvalReport } from './eval.ts';

export const EVALS_HELP = `Usage:
  tooldrift evals list [--limit N] [--schedule ID] [--cursor C]
                                                     evaluations, newest first, a page at a time
  tooldrift evals show ID                            one evaluation's results table and error taxonomy

${CONNECTION_HELP}`;

export function evalsListTable(evals: EvalSummary[], nextCursor: string | null = null): string {
  if (evals.length === 0) return 'No evaluations yet.\n';
  const more = nextCursor ? `More: tooldrift evals list --cursor ${nextCursor}\n` : '';
  return `${renderTable({
    header: [
      ['id', 'name', 'status', 'progress', 'success %', 'flagged', 'created', 'schedule'].map((text) => ({
        text,
      })),
    ],
    align: ['left', 'left', 'left', 'right', 'right', 'left', 'left', 'left'],
    rows: evals.map((e) => [
      e.id,
      e.name ?? '',
      e.status,
      `${e.progress.done}/${e.progress.total}`,
      percentCell(e.successRate),
      e.flagged ? 'yes' : '',
      isoTime(e.createdAt),
      e.scheduleId ?? '',
    ]),
  })}${more}`;
}

export const evalsCommand = command({
  name: 'evals',
  help: EVALS_HELP,
  options: {
    limit: { type: 'string' },
    schedule: { type: 'string' },
    cursor: { type: 'string' },
  },
  positionals: 'subcommand',
  async run(values, positionals, connect, io) {
    const [action, id, ...rest] = positionals;
    if (action === 'list' && id === undefined) {
      const page = await connect().get<Page<EvalSummary>>('/v1/evals', {
        limit: values.limit === undefined ? undefined : flagValue(values.limit),
        scheduleId: values.schedule,
        cursor: values.cursor,
      });
      printResult(io, values, page, (p) => evalsListTable(p.items, p.nextCursor));
      return 0;
    }
    if (action === 'show' && id !== undefined && rest.length === 0) {
      const detail = await connect().get<EvalDetail>(`/v1/evals/${encodeURIComponent(id)}`);
      printResult(io, values, detail, anyEvalReport);
      return 0;
    }
    throw new CliError(['Usage: tooldrift evals list | tooldrift evals show ID'], EXIT_USAGE);
  },
});
