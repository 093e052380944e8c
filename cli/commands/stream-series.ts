/**
 * `tooldrift stream plan ID …` and `tooldrift stream series ID` (issue 26 §2, §4): set a stream's maintenance and
 * evaluation plan (PUT /v1/streams/{id}/plan), and print its success-over-time series (GET /v1/streams/{id}/series)
 * as a table — one row per configuration, one column per release — with a plain-text sparkline per configuration,
 * the names each release retired and each release's maintenance spend.
 */
import { sparkline } from '../../core/streams/series.ts';
import { EXIT_USAGE } from '../http.ts';
import { CliError } from '../problem.ts';
import { renderTable } from '../table.ts';

export interface SeriesView {
  stream: string;
  releases: number[];
  configurations: { id: string; label: string; success: (number | null)[]; runs: number[] }[];
  retirements: { release: number; names: string[] }[];
  maintenance: {
    release: number;
    modelCalls: number;
    inputTokens: number;
    outputTokens: number;
    wallMs: number;
  }[];
}

const pct = (x: number | null) => (x === null ? '-' : (100 * x).toFixed(0));

/** The series as a table with a sparkline per configuration, then retirements and maintenance spend per release. */
export function seriesReport(s: SeriesView): string {
  if (s.configurations.every((c) => c.runs.every((n) => n === 0)))
    return `Stream ${s.stream}: no evaluated release yet (releases ${s.releases.join(', ')}); set a plan with tooldrift stream plan ${s.stream}.\n`;
  const retired = new Map(s.retirements.map((r) => [r.release, r.names.length]));
  const spent = new Map(s.maintenance.map((m) => [m.release, m]));
  const cols = s.releases.map((n) => `r${n}`);
  const table = renderTable({
    header: [['configuration', ...cols, 'trend'].map((text) => ({ text }))],
    align: ['left', ...cols.map(() => 'right' as const), 'left'],
    rows: [
      ...s.configurations.map((c) => [c.id, ...c.success.map(pct), sparkline(c.success)]),
      ['retired names', ...s.releases.map((n) => String(retired.get(n) ?? 0)), ''],
      ['maint. calls', ...s.releases.map((n) => (spent.has(n) ? String(spent.get(n)?.modelCalls) : '-')), ''],
      [
        'maint. seconds',
        ...s.releases.map((n) => {
          const m = spent.get(n);
          return m ? (m.wallMs / 1000).toFixed(1) : '-';
        }),
        '',
      ],
    ],
  });
  const legend = s.configurations.map((c) => `  ${c.id}: ${c.label}`).join('\n');
  return `Stream ${s.stream}: success (%) per release, recomputed from the recorded runs\n\n${table}\n${legend}\n`;
}

type Values = Record<string, string | boolean | undefined>;

/** The plan body from the command's options (every field optional: the server's defaults fill the rest). */
export function planBody(values: Values): Record<string, unknown> {
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const whole = (k: string) => {
    const v = str(k);
    if (v === undefined) return undefined;
    if (!/^[0-9]+$/.test(v))
      throw new CliError([`--${k}: expected a whole number, got ${JSON.stringify(v)}.`], EXIT_USAGE);
    return Number(v);
  };
  const maintenance: Record<string, unknown> = {};
  if (whole('ste-episodes') !== undefined) maintenance.steEpisodes = whole('ste-episodes');
  if (whole('ste-trials') !== undefined) maintenance.steTrials = whole('ste-trials');
  const evaluation: Record<string, unknown> = {};
  if (str('configurations') !== undefined)
    evaluation.configurations = (str('configurations') as string)
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  if (whole('sample-size') !== undefined) evaluation.sampleSize = whole('sample-size');
  if (str('queryset') !== undefined) evaluation.queryset = str('queryset');
  return { maintenance, evaluation };
}
