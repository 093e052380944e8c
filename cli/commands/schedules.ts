/** `tooldrift schedules create|list`: evaluation suites run by the Worker's cron (POST/GET /v1/schedules). */
import type { Page, Schedule } from '../api-types.ts';
import { CONNECTION_HELP, command, printResult } from '../context.ts';
import { EXIT_USAGE } from '../http.ts';
import { CliError } from '../problem.ts';
import {
  type FlagValues,
  flagValue,
  SUITE_OPTIONS,
  suiteFromFlags,
  suiteHelpWithout,
  validateScheduleSuite,
} from '../suite.ts';
import { isoTime, percentCell, renderTable } from '../table.ts';

export const SCHEDULES_HELP = `Usage:
  tooldrift schedules create --name NAME --cron 'M H DoM Mon DoW' [--threshold X] [--disabled] [suite flags]
  tooldrift schedules list [--cursor C]   newest first, a page at a time

Create:
  --name NAME        schedule name
  --cron EXPR        5-field cron expression, UTC (e.g. '0 3 * * *')
  --threshold X      flag a run whose success rate drops by more than X (0..1, default 0.1)
  --disabled         create it disabled

${suiteHelpWithout('--name')}

${CONNECTION_HELP}`;

export function schedulesTable(schedules: Schedule[], nextCursor: string | null = null): string {
  if (schedules.length === 0) return 'No schedules yet.\n';
  const more = nextCursor ? `More: tooldrift schedules list --cursor ${nextCursor}\n` : '';
  return `${renderTable({
    header: [
      ['id', 'name', 'cron', 'enabled', 'threshold', 'next due', 'last run', 'last success %'].map(
        (text) => ({
          text,
        }),
      ),
    ],
    align: ['left', 'left', 'left', 'left', 'right', 'left', 'left', 'right'],
    rows: schedules.map((s) => [
      s.id,
      s.name,
      s.cron,
      s.enabled ? 'yes' : 'no',
      s.threshold.toFixed(2),
      isoTime(s.nextDueAt),
      s.lastRun ? `${s.lastRun.id} (${s.lastRun.status}${s.lastRun.flagged ? ', flagged' : ''})` : '-',
      s.lastRun ? percentCell(s.lastRun.successRate) : '-',
    ]),
  })}${more}`;
}

/** The body of POST /v1/schedules; the suite is validated as the API validates it. */
export function scheduleBody(values: FlagValues): Record<string, unknown> {
  const { name, cron, threshold, disabled, ...rest } = values;
  // The suite's own `name` flag is the schedule's name here; runs are labelled by the schedule.
  const suite = suiteFromFlags({ ...rest, name: undefined });
  validateScheduleSuite(suite);
  const body: Record<string, unknown> = { name, cron, suite };
  if (typeof threshold === 'string') body.threshold = flagValue(threshold);
  if (disabled) body.enabled = false;
  return body;
}

export const schedulesCommand = command({
  name: 'schedules',
  help: SCHEDULES_HELP,
  options: {
    ...SUITE_OPTIONS,
    cron: { type: 'string' },
    threshold: { type: 'string' },
    disabled: { type: 'boolean' },
    cursor: { type: 'string' },
  },
  positionals: 'subcommand',
  async run(values, positionals, connect, io) {
    const [action, ...rest] = positionals;
    if (rest.length > 0 || (action !== 'create' && action !== 'list'))
      throw new CliError(['Usage: tooldrift schedules create ... | tooldrift schedules list'], EXIT_USAGE);
    if (action === 'list') {
      const page = await connect().get<Page<Schedule>>('/v1/schedules', { cursor: values.cursor });
      printResult(io, values, page, (p) => schedulesTable(p.items, p.nextCursor));
      return 0;
    }
    if (values.name === undefined || values.cron === undefined)
      throw new CliError(['schedules create needs --name and --cron.'], EXIT_USAGE);
    const body = scheduleBody(values);
    const schedule = await connect().post<Schedule>('/v1/schedules', body);
    printResult(
      io,
      values,
      schedule,
      (s) =>
        `Created schedule ${s.id} "${s.name}" (${s.cron}, ${s.enabled ? 'enabled' : 'disabled'}); ` +
        `next run ${isoTime(s.nextDueAt)}.\n`,
    );
    return 0;
  },
});
