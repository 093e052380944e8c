/**
 * The progress display on stderr while the CLI polls a long-running evaluation or exploration.
 * On a terminal the bar is redrawn in place (carriage return + erase line); otherwise (CI logs, pipes) a plain
 * line is written at most every `intervalMs` and once at the end — no escape codes. `followRun` is the whole
 * life of a run a command started: --no-wait, the polling, the report and the exit code.
 */

import { type CliIO, printResult, sleeper } from './context.ts';
import { EXIT_FAILURE } from './http.ts';

export interface ProgressOptions {
  /** What runs, e.g. `eval ev_123`. */
  label: string;
  /** Unit of the counts, e.g. `task runs`. */
  unit: string;
  tty: boolean;
  write: (text: string) => void;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  /** Non-TTY: minimum time between two lines. */
  intervalMs?: number;
  /** TTY: bar width in characters. */
  width?: number;
}

export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

function percent(done: number, total: number): string {
  return total > 0 ? `${Math.floor((done / total) * 100)}%` : '0%';
}

/** `[#########-----------] 12/40 task runs 30% 0:12` */
export function renderBar(done: number, total: number, width: number): string {
  const filled = total > 0 ? Math.min(width, Math.floor((done / total) * width)) : 0;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}

export class Progress {
  private readonly started: number;
  private readonly now: () => number;
  private lastLine = -Infinity;
  private drawn = false;
  private finished = false;

  constructor(private readonly options: ProgressOptions) {
    this.now = options.now ?? Date.now;
    this.started = this.now();
  }

  /** The status line without any terminal control. */
  line(done: number, total: number, note?: string): string {
    const { label, unit, tty, width = 30 } = this.options;
    const elapsed = formatElapsed(this.now() - this.started);
    const counts = `${done}/${total} ${unit} ${percent(done, total)}`;
    const suffix = note ? ` ${note}` : '';
    return tty
      ? `${label} ${renderBar(done, total, width)} ${counts} ${elapsed}${suffix}`
      : `${label}: ${counts}, ${elapsed} elapsed${suffix}`;
  }

  update(done: number, total: number, note?: string): void {
    if (this.finished) return;
    if (this.options.tty) {
      this.options.write(`\r\x1b[2K${this.line(done, total, note)}`);
      this.drawn = true;
      return;
    }
    const t = this.now();
    if (t - this.lastLine < (this.options.intervalMs ?? 5_000)) return;
    this.lastLine = t;
    this.options.write(`${this.line(done, total, note)}\n`);
  }

  /** The final state: always written, and ends the TTY line. */
  finish(done: number, total: number, note?: string): void {
    if (this.finished) return;
    this.finished = true;
    const text = this.line(done, total, note);
    this.options.write(this.options.tty ? `\r\x1b[2K${text}\n` : `${text}\n`);
  }

  /** Ends a half-drawn TTY line (before an error message). */
  abort(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.options.tty && this.drawn) this.options.write('\n');
  }
}

/** What `pollWithProgress` needs to know about a long-running resource's view. */
export interface PollOptions<V> {
  label: string;
  unit: string;
  /** The view already fetched (e.g. the POST's answer), or the request fetching it (its wait counts as elapsed). */
  first: V | Promise<V>;
  running(view: V): boolean;
  /** Finished units, all units, and a note for the running line. */
  counts(view: V): { done: number; total: number; note?: string };
  status(view: V): string;
  refetch(view: V): Promise<V>;
}

/** Polls a resource until it stops running, drawing its progress on stderr; returns the final view. */
export async function pollWithProgress<V>(io: CliIO, o: PollOptions<V>): Promise<V> {
  const progress = new Progress({
    label: o.label,
    unit: o.unit,
    tty: io.stderrIsTTY,
    write: io.stderr,
    ...(io.now ? { now: io.now } : {}),
    ...(io.progressIntervalMs !== undefined ? { intervalMs: io.progressIntervalMs } : {}),
  });
  const sleep = sleeper(io);
  try {
    let view = await o.first;
    while (o.running(view)) {
      const c = o.counts(view);
      progress.update(c.done, c.total, c.note);
      await sleep(io.pollMs ?? 1_000);
      view = await o.refetch(view);
    }
    const c = o.counts(view);
    progress.finish(c.done, c.total, o.status(view));
    return view;
  } finally {
    progress.abort();
  }
}

/** What `followRun` prints besides the progress: the line for --no-wait and the final report. */
export interface FollowOptions<V> extends PollOptions<V> {
  started(view: V): string;
  report(view: V): string;
}

/**
 * A run just started (`first` is the POST's answer): with --no-wait its `started` line and exit 0; else polled
 * until it stops running, then its report, exit 0 only when its status is `succeeded`. --json prints the views.
 */
export async function followRun<V>(
  io: CliIO,
  values: { json?: boolean | string | undefined; 'no-wait'?: boolean | string | undefined },
  o: FollowOptions<V>,
): Promise<number> {
  if (values['no-wait']) {
    printResult(io, values, await o.first, o.started);
    return 0;
  }
  const view = await pollWithProgress(io, o);
  printResult(io, values, view, o.report);
  return o.status(view) === 'succeeded' ? 0 : EXIT_FAILURE;
}
