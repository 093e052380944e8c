/**
 * `tooldrift stream create | list | status ID | advance ID | plan ID | series ID`: drift streams (issue 26) — a
 * seeded sequence of releases of the kernel's tools or an imported API (POST/GET /v1/streams,
 * GET /v1/streams/{id}, POST /v1/streams/{id}/advance), their maintenance and evaluation plan and the
 * success-over-time series (stream-series.ts). A subcommand is one entry of `ACTIONS`.
 */
import { CONNECTION_HELP, command, printResult } from '../context.ts';
import type { ApiClient } from '../http.ts';
import { EXIT_USAGE } from '../http.ts';
import { CliError } from '../problem.ts';
import { isoTime, renderTable } from '../table.ts';
import { planBody, type SeriesView, seriesReport } from './stream-series.ts';

export interface StreamDropped {
  name: string;
  route?: string;
  target: string;
  successor: string | null;
}

export interface StreamReleaseView {
  n: number;
  surface: string;
  releasedAt: string;
  sunsetAt: string | null;
  dueAt: string | null;
  trigger: 'create' | 'cron' | 'manual';
  diff: {
    changed: { target: string; from: string | null; to: string | null }[];
    added: string[];
    retired: StreamDropped[];
    response: boolean;
    applied: Record<string, number>;
  } | null;
  deprecated: (StreamDropped & { sunsetAt: string })[];
  gone: StreamDropped[];
}

export interface StreamView {
  id: string;
  name: string;
  backend: string;
  seed: string;
  intensity: Record<string, number>;
  cadence: { cron?: string; everySeconds?: number };
  window: { releases?: number; seconds?: number };
  currentRelease: number;
  inForce: number;
  nextDueAt: string | null;
  createdAt: string;
}

export interface StreamDetail extends StreamView {
  releases: StreamReleaseView[];
}

export const STREAM_HELP = `Usage:
  tooldrift stream create --name NAME --intensity KIND=N[,KIND=N…] (--cron EXPR | --every DURATION)
                          [--backend kernel|api:ID] [--seed S] [--window-releases K | --window-seconds S]
  tooldrift stream list [--cursor C]     your streams, newest first
  tooldrift stream status ID             the stream's releases: what changed, what is deprecated or gone
  tooldrift stream advance ID            make the next release now (owner or admin)
  tooldrift stream plan ID [--configurations LIST] [--sample-size N] [--queryset Q]
                           [--ste-episodes N] [--ste-trials N]
                                         maintain each release (DRAFT, STE, the retrieval pool) and evaluate it
  tooldrift stream series ID [--from N] [--to N]
                                         success per configuration over releases (table and sparklines),
                                         retired names and maintenance spend per release

Create:
  --name NAME            stream name
  --backend B            kernel (default: the kernel's tools, from pc) or api:ID (an imported API you own)
  --seed S               seed of the drift (default 0); the same seed gives the same releases
  --intensity SPEC       changes per release by drift kind, e.g. rename-tool=2,rename-params=1 (kernel) or
                         rename-operation=2,rename-path=1 (API)
  --cron EXPR            release on a five-field UTC cron expression (e.g. '0 9 * * 1')
  --every DURATION       or every DURATION: seconds, or a number with s, m, h, d or w (e.g. 1w)
  --window-releases K    a dropped name works (deprecated) for K due times before it answers 410 (default 2)
  --window-seconds S     or for S seconds; 0 retires at once

${CONNECTION_HELP}`;

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** `rename-tool=2,rename-params=1` → `{ "rename-tool": 2, "rename-params": 1 }`. */
export function parseIntensity(spec: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const m = /^([a-z][a-z-]*)=([0-9]+)$/.exec(part);
    if (!m) throw new CliError([`--intensity: expected KIND=N, got ${JSON.stringify(part)}.`], EXIT_USAGE);
    out[m[1] as string] = Number(m[2]);
  }
  if (Object.keys(out).length === 0) throw new CliError(['--intensity names no drift kind.'], EXIT_USAGE);
  return out;
}

/** `3600`, `90s`, `15m`, `1h`, `2d`, `1w` → seconds. */
export function parseDuration(text: string): number {
  const m = /^([0-9]+)([smhdw]?)$/.exec(text.trim());
  if (!m)
    throw new CliError(
      [`--every: expected seconds or a number with s, m, h, d or w, got ${JSON.stringify(text)}.`],
      EXIT_USAGE,
    );
  return Number(m[1]) * (UNITS[m[2] || 's'] as number);
}

type Values = Record<string, string | boolean | undefined>;

export function streamBody(values: Values): Record<string, unknown> {
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  if (str('name') === undefined || str('intensity') === undefined)
    throw new CliError(['stream create needs --name and --intensity.'], EXIT_USAGE);
  if ((str('cron') === undefined) === (str('every') === undefined))
    throw new CliError(['stream create needs one of --cron and --every.'], EXIT_USAGE);
  if (str('window-releases') !== undefined && str('window-seconds') !== undefined)
    throw new CliError(['Give --window-releases or --window-seconds, not both.'], EXIT_USAGE);
  const whole = (k: string) => {
    const v = str(k) as string;
    if (!/^[0-9]+$/.test(v))
      throw new CliError([`--${k}: expected a whole number, got ${JSON.stringify(v)}.`], EXIT_USAGE);
    return Number(v);
  };
  return {
    name: str('name'),
    backend: str('backend') ?? 'kernel',
    seed: str('seed') ?? '0',
    intensity: parseIntensity(str('intensity') as string),
    cadence:
      str('cron') !== undefined
        ? { cron: str('cron') }
        : { everySeconds: parseDuration(str('every') as string) },
    ...(str('window-releases') !== undefined ? { window: { releases: whole('window-releases') } } : {}),
    ...(str('window-seconds') !== undefined ? { window: { seconds: whole('window-seconds') } } : {}),
  };
}

function cadenceText(s: StreamView): string {
  return s.cadence.cron !== undefined ? `cron ${s.cadence.cron}` : `every ${s.cadence.everySeconds}s`;
}

function windowText(s: StreamView): string {
  return s.window.releases !== undefined ? `${s.window.releases} releases` : `${s.window.seconds}s`;
}

export function streamsTable(items: StreamView[], nextCursor: string | null): string {
  if (items.length === 0) return 'No streams yet.\n';
  const more = nextCursor ? `More: tooldrift stream list --cursor ${nextCursor}\n` : '';
  return `${renderTable({
    header: [
      ['id', 'name', 'backend', 'release', 'in force', 'cadence', 'next due'].map((text) => ({ text })),
    ],
    align: ['left', 'left', 'left', 'right', 'right', 'left', 'left'],
    rows: items.map((s) => [
      s.id,
      s.name,
      s.backend,
      String(s.currentRelease),
      String(s.inForce),
      cadenceText(s),
      isoTime(s.nextDueAt),
    ]),
  })}${more}`;
}

const names = (list: StreamDropped[]) =>
  list.length === 0 ? '-' : list.map((d) => `${d.name}→${d.successor ?? '∅'}`).join(', ');

/** The stream's header and one row per release. */
export function streamReport(s: StreamDetail): string {
  const head =
    `Stream ${s.id} "${s.name}" — ${s.backend}, seed ${s.seed}, ` +
    `${Object.entries(s.intensity)
      .map(([k, n]) => `${k}×${n}`)
      .join(', ')} per release\n` +
    `${cadenceText(s)}, window ${windowText(s)}; release ${s.currentRelease} made, ${s.inForce} in force; next due ${isoTime(s.nextDueAt)}\n\n`;
  const table = renderTable({
    header: [
      ['n', 'released', 'by', 'changed', 'deprecated (→ successor)', 'gone (410 → successor)'].map(
        (text) => ({ text }),
      ),
    ],
    align: ['right', 'left', 'left', 'right', 'left', 'left'],
    rows: s.releases.map((r) => [
      String(r.n),
      isoTime(r.releasedAt),
      r.trigger,
      r.diff ? String(r.diff.changed.length + (r.diff.response ? 1 : 0)) : '-',
      names(r.deprecated),
      names(r.gone),
    ]),
  });
  return `${head}${table}`;
}

function releaseLine(streamId: string, r: StreamReleaseView): string {
  const retired = r.diff?.retired ?? [];
  return (
    `Release ${r.n} of stream ${streamId} (${r.surface}) at ${isoTime(r.releasedAt)}: ` +
    `${r.diff?.changed.length ?? 0} tools changed; ${retired.length === 0 ? 'no name dropped' : `dropped ${names(retired)}`}` +
    `${r.sunsetAt ? `, working until ${isoTime(r.sunsetAt)}` : ''}.\n`
  );
}

type Action = (
  values: Values,
  args: string[],
  connect: () => ApiClient,
) => Promise<{ result: unknown; text: string }>;

const needId = (args: string[], action: string): string => {
  if (args.length !== 1) throw new CliError([`Usage: tooldrift stream ${action} ID`], EXIT_USAGE);
  return encodeURIComponent(args[0] as string);
};

/** The subcommands. */
export const STREAM_ACTIONS: Record<string, Action> = {
  async create(values, args, connect) {
    if (args.length > 0) throw new CliError(['stream create takes no positional arguments.'], EXIT_USAGE);
    const s = await connect().post<StreamDetail>('/v1/streams', streamBody(values));
    return {
      result: s,
      text: `Created stream ${s.id} "${s.name}" (${s.backend}, ${cadenceText(s)}); next release due ${isoTime(s.nextDueAt)}.\n`,
    };
  },
  async list(values, args, connect) {
    if (args.length > 0) throw new CliError(['stream list takes no positional arguments.'], EXIT_USAGE);
    const page = await connect().get<{ items: StreamView[]; nextCursor: string | null }>('/v1/streams', {
      cursor: typeof values.cursor === 'string' ? values.cursor : undefined,
    });
    return { result: page, text: streamsTable(page.items, page.nextCursor) };
  },
  async status(_values, args, connect) {
    const s = await connect().get<StreamDetail>(`/v1/streams/${needId(args, 'status')}`);
    return { result: s, text: streamReport(s) };
  },
  async advance(_values, args, connect) {
    const id = needId(args, 'advance');
    const r = await connect().post<StreamReleaseView>(`/v1/streams/${id}/advance`, {});
    return { result: r, text: releaseLine(decodeURIComponent(id), r) };
  },
  async plan(values, args, connect) {
    const id = needId(args, 'plan');
    const p = await connect().put<{ stream: string; enqueued?: string | null }>(
      `/v1/streams/${id}/plan`,
      planBody(values),
    );
    return {
      result: p,
      text: `Stream ${p.stream} is maintained and evaluated on every release${p.enqueued ? ` (started: ${p.enqueued})` : ''}.\n`,
    };
  },
  async series(values, args, connect) {
    const id = needId(args, 'series');
    const s = await connect().get<SeriesView>(`/v1/streams/${id}/series`, {
      from: typeof values.from === 'string' ? values.from : undefined,
      to: typeof values.to === 'string' ? values.to : undefined,
    });
    return { result: s, text: seriesReport(s) };
  },
};

export const streamCommand = command({
  name: 'stream',
  help: STREAM_HELP,
  options: {
    name: { type: 'string' },
    backend: { type: 'string' },
    seed: { type: 'string' },
    intensity: { type: 'string' },
    cron: { type: 'string' },
    every: { type: 'string' },
    'window-releases': { type: 'string' },
    'window-seconds': { type: 'string' },
    cursor: { type: 'string' },
    configurations: { type: 'string' },
    'sample-size': { type: 'string' },
    queryset: { type: 'string' },
    'ste-episodes': { type: 'string' },
    'ste-trials': { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
  },
  positionals: 'subcommand',
  async run(values, positionals, connect, io) {
    const [action, ...rest] = positionals;
    const run = STREAM_ACTIONS[action as string];
    if (!run)
      throw new CliError(
        [`Unknown subcommand ${JSON.stringify(action)}: ${Object.keys(STREAM_ACTIONS).join(' | ')}.`],
        EXIT_USAGE,
      );
    const { result, text } = await run(values as Values, rest, connect);
    printResult(io, values, result, () => text);
    return 0;
  },
});
