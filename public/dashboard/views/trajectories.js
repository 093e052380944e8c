/**
 * The trajectory browser (GET /v1/trajectories, /v1/trajectories/{id}): filters (exploration, task, dataset,
 * surface, success), pages by cursor, and one trajectory with its question, ReAct steps and tool updates.
 */
import { api, query } from '../api.js';
import { reactParts } from '../tree.js';
import {
  append,
  attempt,
  clear,
  collapsible,
  DATASETS,
  field,
  firstLine,
  h,
  kv,
  select,
  shortId,
  table,
  toggleAll,
} from '../ui.js';

export function renderList(params = new URLSearchParams()) {
  return async (main, signal) => {
    const p = (k) => params.get(k) ?? '';
    const filters = h(
      'form',
      { class: 'card fields', 'aria-label': 'Filter trajectories' },
      field(
        'Exploration',
        h('input', { type: 'text', name: 'exploration', value: p('exploration'), size: 36 }),
      ),
      field('Task', h('input', { type: 'text', name: 'task', value: p('task') })),
      field('Dataset', select('dataset', ['', ...DATASETS], p('dataset'))),
      field('Surface', h('input', { type: 'text', name: 'surface', value: p('surface'), size: 10 })),
      field(
        'Outcome',
        select(
          'success',
          [
            { value: '', label: 'any' },
            { value: 'true', label: 'correct' },
            { value: 'false', label: 'wrong' },
          ],
          p('success'),
        ),
      ),
      h('button', { type: 'submit' }, 'Filter'),
    );
    const box = h('div');
    const more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Next page');
    const rows = [];
    let cursor = null;
    const load = async (reset) => {
      if (reset) {
        rows.length = 0;
        cursor = null;
      }
      const f = Object.fromEntries(new FormData(filters));
      const page = await api(`/v1/trajectories${query({ ...f, limit: 25, cursor })}`, { signal });
      rows.push(...page.items);
      cursor = page.nextCursor;
      append(
        clear(box),
        table(
          null,
          [
            {
              label: 'Trajectory',
              cell: (t) =>
                h(
                  'a',
                  { href: `#/trajectories/${encodeURIComponent(t.id)}` },
                  t.id.slice(t.id.indexOf('.') + 1),
                ),
            },
            { label: 'Task', cell: (t) => t.taskId },
            { label: 'Dataset', cell: (t) => t.dataset },
            { label: 'Surface', cell: (t) => `${t.surface} (docs ${t.promptSurface})` },
            {
              label: 'Outcome',
              cell: (t) =>
                t.success
                  ? h('span', { class: 'tag ok' }, 'correct')
                  : h('span', { class: 'tag fail' }, 'wrong'),
            },
            { label: 'Steps', num: true, cell: (t) => t.steps },
            { label: 'SFT', cell: (t) => (t.selected ? 'selected' : '') },
            {
              label: 'Exploration',
              cell: (t) => h('a', { href: `#/explorations/${t.explorationId}` }, shortId(t.explorationId)),
            },
            { label: 'Created', cell: (t) => t.createdAt.replace('T', ' ').slice(0, 19) },
          ],
          rows,
          { testid: 'trajectories-table', empty: 'No trajectory matches.' },
        ),
      );
      more.hidden = !cursor;
    };
    filters.addEventListener('submit', (e) => {
      e.preventDefault();
      attempt(() => load(true));
    });
    more.addEventListener('click', () => attempt(() => load(false)));
    append(main, h('h2', {}, 'Trajectories'), filters, box, more);
    await load(true);
  };
}

export function renderTrajectory(id) {
  return async (main, signal) => {
    const t = await api(`/v1/trajectories/${encodeURIComponent(id)}`, { signal });
    // One line per step (its action, outcome and the start of its observation), opened on demand; the last
    // step (the Finish) is open.
    const steps = h(
      'div',
      { 'data-testid': 'trajectory-steps' },
      t.stepList.map((s, i) => {
        const action = reactParts(s.text).find(([label]) => label === 'Action')?.[1];
        return collapsible(
          h(
            'span',
            {},
            h('strong', {}, `Step ${i + 1}`),
            ` · ${action ?? '(no action)'}${s.outcome ? ` · ${s.outcome}` : ''} — `,
            h('span', { class: 'muted' }, firstLine(s.observation)),
          ),
          h(
            'div',
            { class: 'react-step' },
            h('div', { class: 'muted' }, `node ${s.node}`),
            reactParts(s.text).map(([label, text]) =>
              h('div', {}, h('em', {}, `${label}: `), h('pre', {}, text)),
            ),
            h('div', {}, h('em', {}, 'Observation: '), h('pre', {}, s.observation)),
          ),
          { open: i === t.stepList.length - 1, testid: 'trajectory-step' },
        );
      }),
    );
    append(
      main,
      h('p', {}, h('a', { href: '#/trajectories' }, '← Trajectories')),
      h('h2', {}, `Trajectory ${id.slice(id.indexOf('.') + 1)}`),
      kv([
        ['Question', t.question ?? '–'],
        ['Task', `${t.taskId} (${t.dataset})`],
        ['Outcome', t.success ? 'correct Finish (+1)' : 'wrong Finish (−1)'],
        ['Surface', `${t.surface} (docs ${t.promptSurface})`],
        [
          'Tree',
          h(
            'a',
            { href: `#/trees/${encodeURIComponent(t.treeId)}` },
            `${t.treeId} (leaf node ${t.leafNode})`,
          ),
        ],
        ['Model', `${t.model} · seed ${t.seed}`],
        ['SFT', t.selected ? 'selected for training' : 'not selected'],
      ]),
      h('h3', {}, 'Steps'),
      steps,
      h('p', {}, toggleAll(steps, 'Expand all steps')),
      t.toolUpdates.length ? [h('h3', {}, 'Tool updates'), h('pre', {}, t.toolUpdates.join('\n'))] : null,
      h('details', {}, h('summary', {}, 'Full ReAct text'), h('pre', {}, t.text)),
    );
  };
}
