/**
 * Schedules (.team/evals-contract.md): the list with enable/disable and delete, a create form (name, cron,
 * drop threshold, suite), and one schedule with the trend of its runs (success rate by due time, flagged runs
 * marked) and the runs themselves.
 */
import { api, apiAll } from '../api.js';
import { lineChart } from '../charts.js';
import { append, attempt, field, formCard, h, kv, pct, shortId, table, when } from '../ui.js';
import { summaryColumns } from './evals.js';
import { readSuite, suiteFields } from './suite-form.js';

/** Times arrive as epoch milliseconds or ISO strings. */
const toMs = (t) => (typeof t === 'number' ? t : Date.parse(t));

export function renderList() {
  return async (main, signal) => {
    const [surfaces, list, methods] = await Promise.all([
      apiAll('/v1/surfaces', { signal }),
      apiAll('/v1/schedules', { signal }),
      apiAll('/v1/methods', { signal }),
    ]);
    const form = formCard(
      { id: 'new-schedule', title: 'New schedule' },
      h(
        'div',
        { class: 'fields' },
        field(
          'Schedule name',
          h('input', { type: 'text', name: 'scheduleName', required: true, maxlength: 100 }),
        ),
        field(
          'Cron (5 fields, UTC)',
          h('input', { type: 'text', name: 'cron', required: true, value: '0 3 * * *' }),
        ),
        field(
          'Drop threshold (0–1)',
          h('input', { type: 'number', name: 'threshold', min: 0, max: 1, step: 0.01, value: 0.1 }),
        ),
      ),
      suiteFields(
        surfaces.items.map((s) => s.id),
        methods,
        { sampleSize: 2 },
      ),
      h('button', { type: 'submit' }, 'Create schedule'),
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const f = new FormData(form);
      const body = {
        name: f.get('scheduleName'),
        cron: f.get('cron'),
        threshold: Number(f.get('threshold')),
        suite: readSuite(form, methods),
      };
      const created = await attempt(() => api('/v1/schedules', { method: 'POST', body }));
      if (created) location.hash = `#/schedules/${created.id}`;
    });
    const toggle = (s) =>
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: async () => {
            const ok = await attempt(() =>
              api(`/v1/schedules/${s.id}`, { method: 'PATCH', body: { enabled: !s.enabled } }),
            );
            if (ok) window.dispatchEvent(new HashChangeEvent('hashchange'));
          },
        },
        s.enabled ? 'Disable' : 'Enable',
      );
    const remove = (s) =>
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: async () => {
            if (!confirm(`Delete schedule ${s.name}?`)) return;
            const ok = await attempt(async () => {
              await api(`/v1/schedules/${s.id}`, { method: 'DELETE' });
              return true;
            });
            if (ok) window.dispatchEvent(new HashChangeEvent('hashchange'));
          },
        },
        'Delete',
      );
    append(
      main,
      h('h2', {}, 'Schedules'),
      table(
        'Scheduled evaluations',
        [
          { label: 'Schedule', cell: (s) => h('a', { href: `#/schedules/${s.id}` }, s.name) },
          { label: 'Cron (UTC)', cell: (s) => h('code', {}, s.cron) },
          { label: 'Enabled', cell: (s) => (s.enabled ? 'yes' : 'no') },
          { label: 'Next due', cell: (s) => when(s.nextDueAt) },
          { label: 'Threshold', num: true, cell: (s) => pct(s.threshold) },
          {
            label: 'Last run',
            cell: (s) =>
              s.lastRun
                ? h(
                    'span',
                    {},
                    h('a', { href: `#/evals/${s.lastRun.id}` }, pct(s.lastRun.successRate)),
                    s.lastRun.flagged ? [' ', h('span', { class: 'tag flag' }, 'drop')] : '',
                  )
                : '–',
          },
          { label: 'Actions', cell: (s) => [toggle(s), ' ', remove(s)] },
        ],
        list.items,
        { testid: 'schedules-table', empty: 'No schedule yet.' },
      ),
      form,
    );
  };
}

export function renderSchedule(id) {
  return async (main, signal) => {
    const s = await api(`/v1/schedules/${id}`, { signal });
    const finished = s.runs.filter((r) => r.status === 'done');
    append(
      main,
      h('p', {}, h('a', { href: '#/schedules' }, '← Schedules')),
      h('h2', {}, `Schedule ${s.name}`),
      kv([
        ['Id', h('code', {}, s.id)],
        ['Cron (UTC)', h('code', {}, s.cron)],
        ['Enabled', s.enabled ? 'yes' : 'no'],
        ['Next due', when(s.nextDueAt)],
        ['Drop threshold', pct(s.threshold)],
        [
          'Suite',
          h(
            'code',
            {},
            `methods ${(s.suite.methods ?? ['greedy']).join(', ')} · surfaces ${(s.suite.surfaces ?? ['pc', 's-in', 's-ood']).join(', ')}`,
          ),
        ],
      ]),
      h('h3', {}, 'Trend'),
      finished.length === 0
        ? h('p', { class: 'muted' }, 'No finished run yet.')
        : lineChart({
            title: 'Success rate of scheduled runs (hollow points: flagged drops)',
            series: [
              {
                label: s.name,
                points: finished.map((r) => ({
                  x: toMs(r.dueTime ?? r.createdAt),
                  y: r.successRate,
                  flagged: r.flagged,
                })),
              },
            ],
            testid: 'trend-chart',
          }),
      h('h3', {}, 'Runs'),
      table(`Runs of ${shortId(s.id)}, newest first`, summaryColumns(), s.runs, { empty: 'No run yet.' }),
    );
  };
}
