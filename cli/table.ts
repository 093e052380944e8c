/**
 * Plain-text tables for the terminal: the results table of an evaluation (success % per method × surface row,
 * one easy/hard column pair per dataset and the averages, like the seed's Tables 2–5), its error taxonomy
 * (seed Table 7) and simple listings. Columns are separated by two spaces; numbers are right-aligned.
 */
import { ABLATION_METHODS, type EvalMethod, UPPER_BOUND_METHODS } from '../core/evals/suite.ts';
import type { EvalDetail } from './api-types.ts';

export interface HeaderCell {
  text: string;
  /** Number of columns the cell spans (default 1). */
  span?: number;
}

export interface TableSpec {
  /** Header rows, top to bottom; each row's spans add up to the column count. */
  header: HeaderCell[][];
  /** Alignment per column. */
  align: ('left' | 'right')[];
  rows: string[][];
}

const GAP = '  ';

function center(text: string, width: number): string {
  const pad = width - text.length;
  const left = Math.floor(pad / 2);
  return `${' '.repeat(left)}${text}${' '.repeat(pad - left)}`;
}

export function renderTable(spec: TableSpec): string {
  const n = spec.align.length;
  const widths = new Array<number>(n).fill(0);
  for (const row of spec.rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  // Single-column header cells first, then widen the last column of any span its text does not fit in.
  for (const headerRow of spec.header) {
    let i = 0;
    for (const cell of headerRow) {
      const span = cell.span ?? 1;
      if (span === 1) widths[i] = Math.max(widths[i] ?? 0, cell.text.length);
      i += span;
    }
  }
  for (const headerRow of spec.header) {
    let i = 0;
    for (const cell of headerRow) {
      const span = cell.span ?? 1;
      if (span > 1) {
        const have = widths.slice(i, i + span).reduce((a, b) => a + b, 0) + GAP.length * (span - 1);
        if (cell.text.length > have)
          widths[i + span - 1] = (widths[i + span - 1] ?? 0) + cell.text.length - have;
      }
      i += span;
    }
  }
  const lines: string[] = [];
  for (const headerRow of spec.header) {
    let i = 0;
    const parts: string[] = [];
    for (const cell of headerRow) {
      const span = cell.span ?? 1;
      const width = widths.slice(i, i + span).reduce((a, b) => a + b, 0) + GAP.length * (span - 1);
      parts.push(
        span > 1
          ? center(cell.text, width)
          : spec.align[i] === 'right'
            ? cell.text.padStart(width)
            : cell.text.padEnd(width),
      );
      i += span;
    }
    lines.push(parts.join(GAP).trimEnd());
  }
  lines.push(widths.map((w) => '-'.repeat(w)).join(GAP));
  for (const row of spec.rows) {
    lines.push(
      row
        .map((cell, i) =>
          spec.align[i] === 'right' ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0),
        )
        .join(GAP)
        .trimEnd(),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A success rate in 0..1 as a percentage with one decimal; `-` when nothing finished. */
export function percentCell(rate: number | null): string {
  return rate === null ? '-' : (rate * 100).toFixed(1);
}

/** A time (ISO 8601 or ms) as ISO 8601 to the second; `-` when there is none. */
export function isoTime(time: string | number | null): string {
  if (time === null) return '-';
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? String(time) : date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Success % per method × surface and per dataset × difficulty, with easy, hard and overall averages — the paper's
 * averages (plain means of the per-dataset rates) — and, when the server reports it, the average over questions
 * (`pooled`) as a last column.
 */
export function resultsTable(evaluation: Pick<EvalDetail, 'columns' | 'table'>): string {
  // A dataset × difficulty with no task at all (gsm8k has no hard questions) would be an empty column.
  const planned = evaluation.columns.filter(
    (c) =>
      evaluation.table.length === 0 ||
      evaluation.table.some((row) =>
        row.cells.some((x) => x.dataset === c.dataset && x.difficulty === c.difficulty && x.total > 0),
      ),
  );
  evaluation = { ...evaluation, columns: planned };
  const pooled = evaluation.table.some((r) => r.pooled !== undefined);
  const datasets: { dataset: string; difficulties: string[] }[] = [];
  for (const c of evaluation.columns) {
    const last = datasets[datasets.length - 1];
    if (last && last.dataset === c.dataset) last.difficulties.push(c.difficulty);
    else datasets.push({ dataset: c.dataset, difficulties: [c.difficulty] });
  }
  const header: HeaderCell[][] = [
    [
      { text: 'method' },
      { text: 'surface' },
      ...datasets.map((d) => ({ text: d.dataset, span: d.difficulties.length })),
      { text: 'average', span: 3 },
      ...(pooled ? [{ text: 'pooled' }] : []),
    ],
    [
      { text: '' },
      { text: '' },
      ...evaluation.columns.map((c) => ({ text: c.difficulty })),
      { text: 'easy' },
      { text: 'hard' },
      { text: 'all' },
      ...(pooled ? [{ text: 'all' }] : []),
    ],
  ];
  const rows = evaluation.table.map((row) => [
    row.method,
    row.surface,
    ...evaluation.columns.map((c) => {
      const cell = row.cells.find((x) => x.dataset === c.dataset && x.difficulty === c.difficulty);
      return percentCell(cell?.successRate ?? null);
    }),
    percentCell(row.averageEasy),
    percentCell(row.averageHard),
    percentCell(row.average),
    ...(pooled ? [percentCell(row.pooled ?? null)] : []),
  ]);
  const align: ('left' | 'right')[] = ['left', 'left', ...evaluation.columns.map(() => 'right' as const)];
  align.push('right', 'right', 'right');
  if (pooled) align.push('right');
  return renderTable({ header, align, rows });
}

/** A label's share of the failures as Table 7 prints it (`36.0%`); `-` for a row without failures. */
export function shareCell(count: number, failures: number): string {
  return failures === 0 ? '-' : `${((count / failures) * 100).toFixed(1)}%`;
}

/**
 * The group header row of the taxonomy: each of Table 7's three error types spanning its labels (spec §10), when
 * the server reports the groups and each group's labels are adjacent; null otherwise.
 */
function groupHeader(
  categories: EvalDetail['taxonomy']['categories'],
  groups: NonNullable<EvalDetail['taxonomy']['groups']>,
): HeaderCell[] | null {
  if (groups.length === 0) return null;
  const spans: { group: string; span: number }[] = [];
  for (const c of categories) {
    if (c.group === undefined) return null;
    const last = spans.at(-1);
    if (last?.group === c.group) last.span++;
    else if (spans.some((x) => x.group === c.group)) return null;
    else spans.push({ group: c.group, span: 1 });
  }
  return spans.map((x) => ({ text: groups.find((g) => g.id === x.group)?.label ?? x.group, span: x.span }));
}

/**
 * Failed task runs per method × surface and their error label (each failure has exactly one), shaped like ToolEvo's
 * Table 7: each label's share of the failures as a percentage, under the error type it belongs to (when the server
 * reports the types). Task runs that ended in an infrastructure error are outside the taxonomy: a `run errors`
 * column appears when there are any; so are searches stopped by a suite's model-call cap (`budget exhausted`).
 */
export function taxonomyTable(evaluation: Pick<EvalDetail, 'taxonomy'>): string {
  const { categories, rows } = evaluation.taxonomy;
  const runErrors = rows.some((r) => (r.runErrors ?? 0) > 0);
  const budget = rows.some((r) => (r.budgetExhausted ?? 0) > 0);
  const extra = [...(runErrors ? ['run errors'] : []), ...(budget ? ['budget exhausted'] : [])];
  const types = groupHeader(categories, evaluation.taxonomy.groups ?? []);
  const labels: HeaderCell[] = [
    { text: 'method' },
    { text: 'surface' },
    { text: 'failures' },
    ...categories.map((c) => ({ text: c.id })),
    ...extra.map((text) => ({ text })),
  ];
  return renderTable({
    header: types
      ? [[{ text: '' }, { text: '' }, { text: '' }, ...types, ...extra.map(() => ({ text: '' }))], labels]
      : [labels],
    align: [
      'left',
      'left',
      'right',
      ...categories.map(() => 'right' as const),
      ...extra.map(() => 'right' as const),
    ],
    rows: rows.map((r) => [
      r.method,
      r.surface,
      String(r.failures),
      ...categories.map((c) => shareCell(r.counts[c.id] ?? 0, r.failures)),
      ...(runErrors ? [String(r.runErrors ?? 0)] : []),
      ...(budget ? [String(r.budgetExhausted ?? 0)] : []),
    ]),
  });
}

/**
 * What the numbers are: `mcts-oracle` rows are upper bounds (the answer is picked with the gold verdicts), every
 * number measured with the simulator describes the simulator, and ablation rows measured with it describe how the
 * simulator reacts (it reads what its prompt shows), not the method.
 */
export function reportNotes(e: Pick<EvalDetail, 'table' | 'model'>): string[] {
  const methods = new Set(e.table.map((r) => r.method));
  const notes: string[] = [];
  if ([...methods].some((m) => UPPER_BOUND_METHODS.includes(m as EvalMethod)))
    notes.push(
      'mcts-oracle: upper bound — the answer is the first Finish judged correct against gold when the search found one.',
    );
  if (methods.has('mcts'))
    notes.push('mcts: answer chosen without gold (the most visited Finish, ties by Q).');
  if (e.model.simulated) {
    notes.push('Simulator behaviour: every rate was measured with the simulated policy, not a model.');
    if ([...methods].some((m) => ABLATION_METHODS.includes(m as EvalMethod)))
      notes.push(
        'Ablation rows describe how the simulator reacts (it reads the error messages and UpdateTool lines its prompt shows), not evidence for the method.',
      );
  }
  return notes.length === 0 ? [] : ['\n', ...notes.map((n) => `${n}\n`)];
}

/** The whole report of one evaluation: a heading, the results table, the taxonomy and any regression flag. */
export function evalReport(e: EvalDetail): string {
  const when = e.finishedAt ?? e.createdAt;
  const model = `${e.model.provider}/${e.model.name}${e.model.simulated ? ' (simulated)' : ''}`;
  const parts = [
    `Evaluation ${e.id}${e.name ? ` "${e.name}"` : ''} — ${e.status}, ${e.progress.done}/${e.progress.total} task runs, ` +
      `model ${model}, ${isoTime(when)}\n`,
    '\nSuccess rate (%)\n',
    resultsTable(e),
    '\nError taxonomy (failed task runs)\n',
    taxonomyTable(e),
  ];
  parts.push(...reportNotes(e));
  if (e.status === 'running') parts.push('\nStill running: rates are over the task runs finished so far.\n');
  if (e.comparison) {
    const c = e.comparison;
    parts.push(
      `\nCompared with ${c.previousEvalId} (threshold ${(c.threshold * 100).toFixed(1)} points): ` +
        `${c.flagged ? `FLAGGED, ${c.drops.length} drop${c.drops.length === 1 ? '' : 's'}` : 'no drop'}\n`,
    );
    for (const d of c.drops) {
      const where = d.dataset ? `${d.dataset}/${d.difficulty}` : 'average';
      parts.push(
        `  ${d.method} ${d.surface} ${where}: ${percentCell(d.previous)} → ${percentCell(d.current)} ` +
          `(${(d.delta * 100).toFixed(1)})\n`,
      );
    }
  }
  const u = e.usage;
  parts.push(
    `\nUsage: ${u.modelCalls} model calls, ${u.inputTokens} input + ${u.outputTokens} output tokens, ` +
      `${(u.latencyMs / 1000).toFixed(1)} s model time\n`,
  );
  return parts.join('');
}
