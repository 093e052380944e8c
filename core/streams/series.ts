/**
 * The success-over-time series of a stream (issue 26 §4), computed from the recorded task runs of every release —
 * each verdict recomputed from what was recorded (the Finish answer against the gold answer with ToolQA's answer
 * match; on an imported API the operations called against the gold path, Correct Path Rate's ordered
 * subsequence), never averaged from stored verdicts — beside what each release retired and what its maintenance
 * spent. `GET /v1/streams/{id}/series`, `tooldrift stream series`, the dashboard chart and `npm run demo:stream`
 * all read this one shape.
 */
import { correctPath } from '../apis/scoring.ts';
import { answerMatches } from '../world/answer-match.ts';
import type { TaskRecord } from './evaluate.ts';
import type { ReleaseMaintenance } from './maintain.ts';

export interface SeriesInput {
  /** The releases so far, in order, with the names each retired (release 0 retires none). */
  releases: readonly { n: number; retired: readonly string[] }[];
  configurations: readonly { id: string; label: string }[];
  records: readonly Pick<
    TaskRecord,
    'release' | 'configuration' | 'answer' | 'gold' | 'called' | 'goldPath'
  >[];
  maintenance: readonly ReleaseMaintenance[];
}

export interface SeriesLine {
  id: string;
  label: string;
  /** Success rate (0–1) per release, in `releases` order; null where the configuration did not run. */
  success: (number | null)[];
  /** Task runs per release. */
  runs: number[];
}

export interface MaintenanceSpendPoint {
  release: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  wallMs: number;
  /** Per step (draft, ste, pool). */
  steps: { step: string; modelCalls: number; tokens: number; wallMs: number; targets: number }[];
}

export interface StreamSeries {
  releases: number[];
  configurations: SeriesLine[];
  /** Releases that retired names, with them (markers on the chart). */
  retirements: { release: number; names: string[] }[];
  /** Maintenance spend per release (absent releases: not maintained). */
  maintenance: MaintenanceSpendPoint[];
}

/** A recorded run's verdict, recomputed: kernel answers by ToolQA's match, API paths by Correct Path Rate. */
export function recomputedCorrect(
  r: Pick<TaskRecord, 'answer' | 'gold' | 'called' | 'goldPath'>,
  memo?: Map<string, boolean>,
): boolean {
  if (r.goldPath !== undefined)
    return r.goldPath.length > 0 && correctPath(r.goldPath, r.called ?? []).subsequence;
  if (r.gold === undefined || r.answer === null || r.answer === undefined) return false;
  if (!memo) return answerMatches(r.gold, r.answer);
  // The same task answered the same way at many releases and by many configurations is matched once.
  const key = `${typeof r.gold === 'string' ? `s:${r.gold}` : `j:${JSON.stringify(r.gold)}`}\u0000${r.answer}`;
  let hit = memo.get(key);
  if (hit === undefined) {
    hit = answerMatches(r.gold, r.answer);
    memo.set(key, hit);
  }
  return hit;
}

export function buildSeries(input: SeriesInput): StreamSeries {
  const releases = input.releases.map((r) => r.n);
  const index = new Map(releases.map((n, i) => [n, i]));
  const counts = new Map<string, { ok: number[]; runs: number[] }>();
  for (const c of input.configurations)
    counts.set(c.id, { ok: releases.map(() => 0), runs: releases.map(() => 0) });
  const memo = new Map<string, boolean>();
  for (const r of input.records) {
    const line = counts.get(r.configuration);
    const i = index.get(r.release);
    if (!line || i === undefined) continue;
    line.runs[i] = (line.runs[i] as number) + 1;
    if (recomputedCorrect(r, memo)) line.ok[i] = (line.ok[i] as number) + 1;
  }
  return {
    releases,
    configurations: input.configurations.map((c) => {
      const { ok, runs } = counts.get(c.id) as { ok: number[]; runs: number[] };
      return {
        id: c.id,
        label: c.label,
        success: runs.map((n, i) => (n === 0 ? null : (ok[i] as number) / n)),
        runs,
      };
    }),
    retirements: input.releases
      .filter((r) => r.retired.length > 0)
      .map((r) => ({ release: r.n, names: [...r.retired] })),
    maintenance: input.maintenance
      .filter((m) => index.has(m.release))
      .map((m) => {
        const steps = m.steps.map((s) => ({
          step: s.step,
          modelCalls: s.modelCalls,
          tokens: s.inputTokens + s.outputTokens,
          wallMs: s.wallMs,
          targets: s.targets.length,
        }));
        return {
          release: m.release,
          modelCalls: m.steps.reduce((a, s) => a + s.modelCalls, 0),
          inputTokens: m.steps.reduce((a, s) => a + s.inputTokens, 0),
          outputTokens: m.steps.reduce((a, s) => a + s.outputTokens, 0),
          wallMs: m.steps.reduce((a, s) => a + s.wallMs, 0),
          steps,
        };
      }),
  };
}

const BARS = '▁▂▃▄▅▆▇█';

/** A plain-text sparkline of rates in [0, 1] (one character per release; `·` where there is no value). */
export function sparkline(values: readonly (number | null)[]): string {
  return values
    .map((v) => (v === null ? '·' : (BARS[Math.min(BARS.length - 1, Math.floor(v * BARS.length))] as string)))
    .join('');
}
