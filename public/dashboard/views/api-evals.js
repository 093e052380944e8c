/**
 * One evaluation over an imported API's query set (`kind: "api"`, issue 23 §4): progress, DRAFT Table 1's figures
 * per method × surface × documentation — Correct Path Rate in both definitions, success where the set has gold
 * answers, calls per query —, a heatmap of the paper's Correct Path Rate by surface and documentation, the Table
 * 7-style taxonomy, and the query runs with their recorded calls. Figures measured with the simulator say so.
 */
import { heatmap } from '../charts.js';
import { append, field, h, kv, pct, select, shortId, statusTag, table, when } from '../ui.js';
import { evaluationPage, resultsBrowser } from './eval-results.js';

/** A percentage the API gives as 0–100 (one decimal), or – before any run. */
const percent = (x) => (x === null || x === undefined ? '–' : `${x.toFixed(1)}%`);
const rowLabel = (r) =>
  `${r.method} · ${r.surface} · ${r.docs}${r.aids && r.aids !== 'none' ? ` · ${r.aids}` : ''}`;

function simulatorNote(ev) {
  return ev.model.simulated
    ? h(
        'p',
        { class: 'tag flag', 'data-testid': 'simulator-note' },
        'Simulator: every figure was measured with the simulated policy, not a model — it describes the simulator.',
      )
    : null;
}

function cprTable(ev) {
  const withSuccess = ev.table.some((r) => r.success !== null);
  const withAids = ev.table.some((r) => r.aids !== 'none');
  return table(
    'Correct Path Rate per method · surface · documentation (finished query runs)',
    [
      { label: 'Method', cell: (r) => r.method },
      { label: 'Surface', cell: (r) => r.surface },
      { label: 'Docs', cell: (r) => r.docs },
      ...(withAids ? [{ label: 'Aids', cell: (r) => h('code', {}, r.aids) }] : []),
      {
        label: 'Done',
        num: true,
        cell: (r) =>
          h(
            'span',
            {},
            h('progress', { max: r.total, value: r.done, 'aria-label': 'Query runs done' }),
            ` ${r.done}/${r.total}`,
          ),
      },
      {
        label: h(
          'span',
          { title: 'DRAFT paper: the gold path is an ordered subsequence of the calls' },
          'CP% (subsequence)',
        ),
        num: true,
        cell: (r) => h('strong', {}, percent(r.correctPath.subsequence)),
      },
      {
        label: h('span', { title: "DRAFT's released code: every gold operation was called" }, 'CP% (set)'),
        num: true,
        cell: (r) => percent(r.correctPath.set),
      },
      ...(withSuccess ? [{ label: 'Success', num: true, cell: (r) => percent(r.success) }] : []),
      {
        label: 'Calls / query',
        num: true,
        cell: (r) => (r.callsPerQuery === null ? '–' : r.callsPerQuery.toFixed(2)),
      },
    ],
    ev.table,
    { testid: 'api-results-table' },
  );
}

/** A surface as a chart labels it: the API as imported, or its drifted version's own suffix. */
function surfaceLabel(ev, surface) {
  const api = ev.suite.api;
  return surface === api
    ? 'as imported'
    : surface.startsWith(`${api}-`)
      ? surface.slice(api.length + 1)
      : surface;
}

/** The paper's Correct Path Rate as a heatmap: a row per method, a column per documentation under each surface. */
function charts(ev) {
  const surfaces = [...new Set(ev.table.map((r) => r.surface))];
  const docs = [...new Set(ev.table.map((r) => (r.aids === 'none' ? r.docs : `${r.docs} ${r.aids}`)))];
  const methods = [...new Set(ev.table.map((r) => r.method))];
  const cell = (m, s, d) =>
    ev.table.find(
      (r) => r.method === m && r.surface === s && (r.aids === 'none' ? r.docs : `${r.docs} ${r.aids}`) === d,
    );
  return h(
    'div',
    { class: 'charts' },
    heatmap({
      title: 'Correct Path Rate (subsequence) by surface and documentation',
      rows: methods.map((m) => ({
        label: m,
        values: surfaces.flatMap((s) =>
          docs.map((d) => {
            const v = cell(m, s, d)?.correctPath.subsequence;
            return v === null || v === undefined ? null : v / 100;
          }),
        ),
      })),
      columns: surfaces.flatMap(() => docs),
      groups: surfaces.map((s) => ({ label: surfaceLabel(ev, s), span: docs.length })),
      testid: 'cpr-chart',
    }),
  );
}

function taxonomyTable(ev) {
  return table(
    'Failed query runs by category (each failure has exactly one): share of the failures',
    [
      { label: 'Method · surface · docs', cell: (r) => rowLabel(r) },
      { label: 'Failures', num: true, cell: (r) => r.failures },
      ...ev.taxonomy.categories.map((c) => ({
        label: c.label,
        num: true,
        cell: (r) => {
          const n = r.counts[c.id] ?? 0;
          return h(
            'span',
            { title: `${n} of ${r.failures} failures` },
            r.failures === 0 ? '–' : pct(n / r.failures),
            h('div', { class: 'muted' }, String(n)),
          );
        },
      })),
      { label: 'Run errors', num: true, cell: (r) => r.runErrors },
    ],
    ev.taxonomy.rows,
    { testid: 'api-taxonomy-table' },
  );
}

const ANY = { value: '', label: 'any' };

function queryRuns(ev, signal) {
  const values = (k) => [...new Set(ev.table.map((r) => r[k]))];
  const path = (r) =>
    r.correctPath === null
      ? '–'
      : r.correctPath.subsequence
        ? h('span', { class: 'tag ok' }, 'yes')
        : h('span', { class: 'tag fail' }, r.correctPath.set ? 'set only' : 'no');
  return resultsBrowser(
    ev,
    {
      label: 'Filter query runs',
      filters: [
        field('Method', select('method', [ANY, ...values('method')], '')),
        field('Surface', select('surface', [ANY, ...values('surface')], '')),
        field('Docs', select('docs', [ANY, ...values('docs')], '')),
        field('Succeeded', select('correct', [ANY, 'true', 'false'], '')),
      ],
      submit: 'Show query runs',
      columns: [
        { label: 'Method', cell: (r) => r.method },
        { label: 'Surface', cell: (r) => r.surface },
        { label: 'Docs', cell: (r) => r.docs },
        {
          label: 'Item',
          num: true,
          cell: (r) => h('a', { href: `#/evals/${ev.id}/results/${r.id}` }, String(r.item)),
        },
        { label: 'Query', cell: (r) => r.query },
        { label: 'Correct path', cell: path },
        { label: 'Error class', cell: (r) => r.errorClass ?? '' },
        { label: 'Calls', num: true, cell: (r) => r.calls },
      ],
      testid: 'api-eval-results',
      empty: 'No finished query run matches.',
      more: 'More query runs',
    },
    signal,
  );
}

/** Draws an API evaluation into `body`, polling while it runs. */
export function renderApiEval(body, first, signal) {
  return evaluationPage(
    body,
    first,
    {
      head: (ev) => {
        const s = ev.suite;
        return [
          h('h2', {}, `Evaluation ${ev.name || shortId(ev.id)}`),
          simulatorNote(ev),
          kv([
            ['Id', h('code', {}, ev.id)],
            ['Status', h('span', { 'data-testid': 'eval-status' }, statusTag(ev.status))],
            [
              'Progress',
              h(
                'span',
                {},
                h('progress', {
                  max: ev.progress.total,
                  value: ev.progress.done,
                  'aria-label': 'Query runs done',
                }),
                ` ${ev.progress.done} / ${ev.progress.total} query runs`,
              ),
            ],
            ['API', h('a', { href: `#/apis/${s.api}` }, s.api)],
            ['Query set', h('code', {}, s.queryset)],
            ['Model', `${ev.model.provider} ${ev.model.name}${ev.model.simulated ? ' (simulated)' : ''}`],
            [
              'Suite',
              h(
                'code',
                {},
                `methods ${s.methods.join(', ')} · surfaces ${(s.surfaces ?? [s.api]).join(', ')} · ${s.sampleSize === 'all' ? 'all items' : `first ${s.sampleSize} items`} · ≤ ${s.maxSteps} steps · seed ${s.seed}`,
              ),
            ],
            [
              'Usage',
              `${ev.usage.modelCalls} model calls · ${ev.usage.inputTokens} in / ${ev.usage.outputTokens} out tokens · ${(ev.usage.latencyMs / 1000).toFixed(1)} s`,
            ],
            ['Created', `${when(ev.createdAt)}${ev.finishedAt ? ` · finished ${when(ev.finishedAt)}` : ''}`],
          ]),
        ];
      },
      sections: (ev) => [
        h('h3', {}, 'Correct Path Rate'),
        cprTable(ev),
        charts(ev),
        h('h3', {}, 'Error taxonomy'),
        taxonomyTable(ev),
        h('h3', {}, 'Query runs'),
      ],
      runs: queryRuns,
    },
    signal,
  );
}

/** One query run with its trajectory, the calls the session recorded and the gold path. */
export function renderApiResult(main, evalId, r) {
  append(
    main,
    h('p', {}, h('a', { href: `#/evals/${evalId}` }, '← Evaluation')),
    h('h2', {}, `Query run ${r.item} · ${r.method}`),
    kv([
      ['Surface · docs', `${r.surface} · ${r.docs}`],
      ['Query', r.query],
      ['Answer', r.answer ?? '–'],
      [
        'Correct path',
        r.correctPath === null
          ? 'no gold path'
          : `subsequence ${r.correctPath.subsequence ? 'yes' : 'no'} · set ${r.correctPath.set ? 'yes' : 'no'}`,
      ],
      ['Gold path', h('code', {}, r.trajectory.goldPath.join(' → ') || '–')],
      ['Error class', r.errorClass ?? '–'],
      [
        'Usage',
        `${r.calls} calls · ${r.steps} steps · ${r.modelCalls} model calls · ${r.inputTokens} in / ${r.outputTokens} out tokens`,
      ],
    ]),
    h('h3', {}, 'Calls that reached an operation'),
    table(
      null,
      [
        { label: '#', num: true, cell: (c) => String(r.trajectory.calls.indexOf(c) + 1) },
        { label: 'Operation', cell: (c) => h('code', {}, c.operation) },
        { label: 'Called as', cell: (c) => h('code', {}, c.exposed) },
        { label: 'Status', num: true, cell: (c) => String(c.status) },
      ],
      r.trajectory.calls,
      { testid: 'api-run-calls', empty: 'No call reached an operation.' },
    ),
    h('h3', {}, 'Trajectory'),
    r.trajectory.steps.map((st, i) =>
      h(
        'div',
        { class: 'react-step' },
        h('strong', {}, `Step ${i + 1}`, st.outcome ? ` · ${st.outcome}` : ''),
        h('pre', {}, st.text),
        h('pre', {}, `Observation: ${st.observation}`),
      ),
    ),
    r.trajectory.error ? h('p', { class: 'bad' }, r.trajectory.error) : null,
  );
}
