/**
 * Evaluations (.team/evals-contract.md): a start form (POST /v1/evals), the runs list, and one evaluation —
 * progress (polled while it runs), the results table (method · surface × dataset/difficulty, averages), charts
 * (success by dataset × difficulty, averages by surface, error taxonomy), the comparison with the previous run
 * of its schedule (flagged drops), usage, and the task results with their trajectories. An evaluation over an
 * imported API's query set is drawn by api-evals.js.
 */
import { api, apiAll } from '../api.js';
import { barChart, heatmap, stackedBars } from '../charts.js';
import {
  append,
  attempt,
  field,
  formCard,
  h,
  kv,
  pct,
  select,
  shortId,
  statusTag,
  table,
  when,
} from '../ui.js';
import { renderApiEval, renderApiResult } from './api-evals.js';
import { evaluationPage, resultsBrowser } from './eval-results.js';
import { readSuite, suiteFields } from './suite-form.js';

export function summaryColumns(linkBase = '#/evals/') {
  return [
    { label: 'Evaluation', cell: (e) => h('a', { href: `${linkBase}${e.id}` }, e.name || shortId(e.id)) },
    { label: 'Status', cell: (e) => statusTag(e.status) },
    {
      label: 'Progress',
      cell: (e) =>
        h(
          'span',
          {},
          h('progress', { max: e.progress.total, value: e.progress.done, 'aria-label': 'Task runs done' }),
          ` ${e.progress.done} / ${e.progress.total}`,
        ),
    },
    { label: 'Success', num: true, cell: (e) => pct(e.successRate) },
    { label: 'Flagged', cell: (e) => (e.flagged ? h('span', { class: 'tag flag' }, 'drop') : '') },
    {
      label: 'Schedule',
      cell: (e) =>
        e.scheduleId ? h('a', { href: `#/schedules/${e.scheduleId}` }, shortId(e.scheduleId)) : '',
    },
    { label: 'Created', cell: (e) => when(e.createdAt) },
  ];
}

export function renderList() {
  return async (main, signal) => {
    const [surfaces, list, methods] = await Promise.all([
      apiAll('/v1/surfaces', { signal }),
      api('/v1/evals?limit=20', { signal }),
      apiAll('/v1/methods', { signal }),
    ]);
    const form = formCard(
      { id: 'start-eval', title: 'Start an evaluation' },
      h(
        'div',
        { class: 'fields' },
        field('Name', h('input', { type: 'text', name: 'name', maxlength: 100, size: 30 })),
      ),
      suiteFields(
        surfaces.items.map((s) => s.id),
        methods,
      ),
      h('button', { type: 'submit' }, 'Start evaluation'),
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const created = await attempt(() =>
        api('/v1/evals', { method: 'POST', body: readSuite(form, methods) }),
      );
      if (created) location.hash = `#/evals/${created.id}`;
    });
    append(
      main,
      h('h2', {}, 'Evaluations'),
      form,
      h('h3', {}, 'Runs'),
      table('Evaluations, newest first', summaryColumns(), list.items, {
        testid: 'evals-table',
        empty: 'No evaluation yet.',
      }),
    );
  };
}

function resultsTable(ev) {
  const label = (c) => `${c.dataset} ${c.difficulty}`;
  return table(
    'Success rate per method · surface and dataset / difficulty (finished task runs)',
    [
      { label: 'Method', cell: (r) => r.method },
      { label: 'Surface', cell: (r) => r.surface },
      ...ev.columns.map((c, i) => ({
        label: label(c),
        num: true,
        cell: (r) => {
          const cell = r.cells[i];
          return h(
            'span',
            { title: `${cell.correct} correct of ${cell.done} done (${cell.total} total)` },
            pct(cell.successRate),
            h('div', { class: 'muted' }, `${cell.done}/${cell.total}`),
          );
        },
      })),
      { label: 'Easy', num: true, cell: (r) => pct(r.averageEasy) },
      { label: 'Hard', num: true, cell: (r) => pct(r.averageHard) },
      { label: 'Average', num: true, cell: (r) => h('strong', {}, pct(r.average)) },
    ],
    ev.table,
    { testid: 'results-table' },
  );
}

function charts(ev) {
  const rows = ev.table.map((r) => ({
    label: `${r.method} · ${r.surface}`,
    values: r.cells.map((c) => c.successRate),
  }));
  // Columns come dataset by dataset (easy, hard): one group label per dataset over its columns.
  const groups = [];
  for (const c of ev.columns) {
    const last = groups.at(-1);
    if (last?.label === c.dataset) last.span++;
    else groups.push({ label: c.dataset, span: 1 });
  }
  const surfaces = [...new Set(ev.table.map((r) => r.surface))];
  const methods = [...new Set(ev.table.map((r) => r.method))];
  const bySurface = methods.map((m) => ({
    label: m,
    values: surfaces.map((s) => ev.table.find((r) => r.method === m && r.surface === s)?.average ?? null),
  }));
  const taxonomyRows = ev.taxonomy.rows.map((r) => ({
    label: `${r.method} · ${r.surface}`,
    counts: r.counts,
  }));
  return h(
    'div',
    { class: 'charts' },
    heatmap({
      title: 'Success by dataset × difficulty (finished task runs)',
      rows,
      columns: ev.columns.map((c) => c.difficulty),
      groups,
      testid: 'success-chart',
    }),
    barChart({
      title: 'Average success by surface',
      categories: surfaces,
      series: bySurface,
      testid: 'surface-chart',
    }),
    stackedBars({
      title: 'Failures by error category',
      rows: taxonomyRows,
      keys: ev.taxonomy.categories.map((c) => ({ id: c.id, label: c.label })),
      testid: 'taxonomy-chart',
    }),
  );
}

/** Table 7's shape (spec §10): each label's share of the failures, the label headed by its error type. */
function taxonomyTable(ev) {
  const groupOf = (c) => ev.taxonomy.groups?.find((g) => g.id === c.group)?.label;
  return table(
    'Failed task runs by category (each failure has exactly one): share of the failures',
    [
      { label: 'Method', cell: (r) => r.method },
      { label: 'Surface', cell: (r) => r.surface },
      { label: 'Failures', num: true, cell: (r) => r.failures },
      ...ev.taxonomy.categories.map((c) => ({
        label: groupOf(c) ? h('span', {}, h('div', { class: 'muted' }, groupOf(c)), c.label) : c.label,
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
    ],
    ev.taxonomy.rows,
    { testid: 'taxonomy-table' },
  );
}

function comparison(ev) {
  const c = ev.comparison;
  if (!c) return h('p', { class: 'muted' }, 'No previous run to compare with.');
  return h(
    'div',
    { 'data-testid': 'comparison' },
    h(
      'p',
      {},
      c.flagged ? h('span', { class: 'tag flag' }, 'flagged') : h('span', { class: 'tag ok' }, 'no drop'),
      ' compared with ',
      h('a', { href: `#/evals/${c.previousEvalId}` }, shortId(c.previousEvalId)),
      ` (threshold ${pct(c.threshold)})`,
    ),
    c.suiteChanged?.length
      ? h(
          'p',
          { class: 'tag flag', 'data-testid': 'suite-changed' },
          `The suite changed between the two runs (${c.suiteChanged.join(', ')}): only what both runs share is compared.`,
        )
      : null,
    table(
      'Success rates that dropped by more than the threshold',
      [
        { label: 'Method', cell: (d) => d.method },
        { label: 'Surface', cell: (d) => d.surface },
        { label: 'Dataset', cell: (d) => d.dataset ?? 'average' },
        { label: 'Difficulty', cell: (d) => d.difficulty ?? '' },
        { label: 'Previous', num: true, cell: (d) => pct(d.previous) },
        { label: 'Current', num: true, cell: (d) => pct(d.current) },
        {
          label: 'Change',
          num: true,
          cell: (d) => h('span', { class: 'bad' }, `${(d.delta * 100).toFixed(1)} pts`),
        },
      ],
      c.drops,
      { empty: 'No drop.' },
    ),
  );
}

const ANY = { value: '', label: 'any' };

function taskResults(ev, signal) {
  return resultsBrowser(
    ev,
    {
      label: 'Filter task results',
      filters: [
        field('Method', select('method', [ANY, ...ev.suite.methods], '')),
        field('Surface', select('surface', [ANY, ...ev.suite.surfaces], '')),
        field('Dataset', select('dataset', [ANY, ...ev.suite.datasets], '')),
        field('Difficulty', select('difficulty', [ANY, ...ev.suite.difficulties], '')),
        field('Correct', select('correct', [ANY, 'true', 'false'], '')),
      ],
      submit: 'Show results',
      columns: [
        { label: 'Method', cell: (r) => r.method },
        { label: 'Surface', cell: (r) => r.surface },
        { label: 'Task', cell: (r) => h('a', { href: `#/evals/${ev.id}/results/${r.id}` }, r.taskId) },
        { label: 'Question', cell: (r) => r.question },
        { label: 'Answer', cell: (r) => r.answer ?? '–' },
        {
          label: 'Correct',
          cell: (r) =>
            r.correct ? h('span', { class: 'tag ok' }, 'yes') : h('span', { class: 'tag fail' }, 'no'),
        },
        { label: 'Error class', cell: (r) => r.errorClass ?? '' },
        { label: 'Steps', num: true, cell: (r) => r.steps },
      ],
      testid: 'eval-results',
      empty: 'No finished task run matches.',
      more: 'More results',
    },
    signal,
  );
}

export function renderEval(id) {
  return async (main, signal) => {
    const body = h('div');
    append(main, h('p', {}, h('a', { href: '#/evals' }, '← Evaluations')), body);
    const ev = await api(`/v1/evals/${id}`, { signal });
    // An evaluation over an imported API's query set has its own tables (Correct Path Rate).
    if (ev.kind === 'api') return renderApiEval(body, ev, signal);
    await evaluationPage(
      body,
      ev,
      {
        head: (ev) => [
          h('h2', {}, `Evaluation ${ev.name || shortId(ev.id)}`),
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
                  'aria-label': 'Task runs done',
                }),
                ` ${ev.progress.done} / ${ev.progress.total} task runs`,
              ),
            ],
            ['Success', pct(ev.successRate)],
            ['Model', `${ev.model.provider} ${ev.model.name}${ev.model.simulated ? ' (simulated)' : ''}`],
            [
              'Suite',
              h(
                'code',
                {},
                `methods ${ev.suite.methods.join(', ')} · surfaces ${ev.suite.surfaces.join(', ')} · docs ${ev.suite.promptSurface} · ${ev.suite.sampleSize} per dataset × difficulty · ${ev.suite.split} split · seed ${ev.suite.seed}`,
              ),
            ],
            [
              'Usage',
              `${ev.usage.modelCalls} model calls · ${ev.usage.inputTokens} in / ${ev.usage.outputTokens} out tokens · ${(ev.usage.latencyMs / 1000).toFixed(1)} s`,
            ],
            ['Created', `${when(ev.createdAt)}${ev.finishedAt ? ` · finished ${when(ev.finishedAt)}` : ''}`],
            ...(ev.scheduleId
              ? [
                  [
                    'Schedule',
                    h(
                      'a',
                      { href: `#/schedules/${ev.scheduleId}` },
                      `${shortId(ev.scheduleId)} (due ${when(ev.dueTime)})`,
                    ),
                  ],
                ]
              : []),
          ]),
        ],
        sections: (ev) => [
          h('h3', {}, 'Results'),
          resultsTable(ev),
          charts(ev),
          h('h3', {}, 'Error taxonomy'),
          taxonomyTable(ev),
          h('h3', {}, 'Comparison with the previous run'),
          comparison(ev),
          h('h3', {}, 'Task results'),
        ],
        runs: taskResults,
      },
      signal,
    );
  };
}

export function renderResult(evalId, resultId) {
  return async (main, signal) => {
    const r = await api(`/v1/evals/${evalId}/results/${resultId}`, { signal });
    if ('docs' in r) return renderApiResult(main, evalId, r);
    append(
      main,
      h('p', {}, h('a', { href: `#/evals/${evalId}` }, '← Evaluation')),
      h('h2', {}, `Task run ${r.taskId}`),
      kv([
        ['Method · surface', `${r.method} · ${r.surface}`],
        ['Dataset', `${r.dataset} (${r.difficulty})`],
        ['Question', r.question],
        ['Answer', r.answer ?? '–'],
        ['Gold', r.gold],
        ['Correct', r.correct ? 'yes' : `no${r.errorClass ? ` (${r.errorClass})` : ''}`],
        [
          'Usage',
          `${r.steps} steps · ${r.modelCalls} model calls · ${r.inputTokens} in / ${r.outputTokens} out tokens · ${r.latencyMs} ms`,
        ],
      ]),
      h('h3', {}, 'Trajectory'),
      r.trajectory.steps.map((s, i) =>
        h(
          'div',
          { class: 'react-step' },
          h(
            'strong',
            {},
            `Step ${i + 1}`,
            s.outcome ? ` · ${typeof s.outcome === 'string' ? s.outcome : (s.outcome.kind ?? '')}` : '',
          ),
          h('pre', {}, s.text),
          h('pre', {}, `Observation: ${s.observation}`),
        ),
      ),
      r.trajectory.toolUpdates.length
        ? [h('h3', {}, 'Tool updates'), h('pre', {}, r.trajectory.toolUpdates.join('\n'))]
        : null,
    );
  };
}
