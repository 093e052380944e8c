/**
 * STE runs (issue 15): the list of runs with a start form (surface, documentation, tools changed since another
 * surface, episodes, trials, seed), and one run: per tool its trials, Solved marks, exemplars kept and dropped by
 * the filter (live over the run's event stream), the long-term memory (every explored query with its Solved
 * mark, none when the run explored without self-reflection: one collapsed block per tool, read a page at a time —
 * the whole memory inline made a 21,000 px page), the run's Table 2 ablations, and the kept exemplars. Numbers
 * measured with the simulator describe the simulator.
 */
import { api, apiAll, query, streamEvents } from '../api.js';
import {
  append,
  attempt,
  collapsible,
  field,
  formCard,
  h,
  kv,
  select,
  shortId,
  statusTag,
  table,
  when,
} from '../ui.js';

const MEMORY_PAGE = 100;

/**
 * One tool's long-term memory, collapsed: its summary counts the tool's explored queries and Solved marks; opening
 * it reads the first page (GET …/memory?tool=), and a button reads the next.
 */
function memoryBlock(runId, tool, signal) {
  const rows = h('div');
  const more = h('p');
  let loaded = false;
  const load = async (cursor) => {
    const page = await api(
      `/v1/ste/runs/${runId}/memory${query({ tool: tool.tool, limit: MEMORY_PAGE, cursor })}`,
      { signal },
    );
    rows.append(
      table(
        null,
        [
          { label: '#', cell: (m) => String(m.position), num: true },
          { label: 'Query', cell: (m) => m.query },
          // null: the run explored without self-reflection (Table 2), so nothing judged the trial.
          { label: 'Solved', cell: (m) => (m.solved === null ? '—' : m.solved ? 'Yes' : 'No') },
        ],
        page.items,
        { empty: 'Written when the tool finishes.' },
      ),
    );
    more.replaceChildren();
    if (page.nextCursor) {
      const b = h('button', { type: 'button', class: 'secondary' }, `Next ${MEMORY_PAGE}`);
      b.addEventListener('click', () => attempt(() => load(page.nextCursor)));
      more.append(b);
    }
  };
  const block = collapsible(
    h(
      'span',
      {},
      h('strong', {}, tool.tool),
      ` · ${tool.trialsDone} queries explored, ${tool.solved} solved`,
    ),
    h('div', {}, rows, more),
    { testid: 'ste-memory-tool' },
  );
  block.addEventListener('toggle', () => {
    if (block.open && !loaded) {
      loaded = true;
      attempt(() => load(undefined));
    }
  });
  return block;
}

const toolColumns = [
  { label: 'Tool', cell: (t) => t.tool },
  { label: 'Status', cell: (t) => statusTag(t.status) },
  { label: 'Phase', cell: (t) => t.phase },
  { label: 'Trials', cell: (t) => `${t.trialsDone}/${t.trialsTotal}`, num: true },
  { label: 'Solved', cell: (t) => String(t.solved), num: true },
  { label: 'Kept', cell: (t) => String(t.kept), num: true },
  { label: 'Dropped', cell: (t) => String(t.dropped), num: true },
  { label: 'Exemplars', cell: (t) => String(t.exemplars), num: true },
  { label: 'Model calls', cell: (t) => String(t.modelCalls), num: true },
];

export function renderList() {
  return async (main, signal) => {
    const [surfaces, runs] = await Promise.all([
      apiAll('/v1/surfaces', { signal }),
      api('/v1/ste/runs?limit=50', { signal }),
    ]);
    const ids = surfaces.items.map((s) => s.id);
    const form = formCard(
      { id: 'new-ste', title: 'New STE run' },
      h(
        'div',
        { class: 'fields' },
        field('Surface to explore', select('surface', ids, 's-ood')),
        field('Documentation', select('docs', ['(the explored surface)', ...ids], '(the explored surface)')),
        field('Only tools changed since', select('since', ['(all tools)', ...ids], '(all tools)')),
        field(
          'Episodes per tool',
          h('input', { type: 'number', name: 'episodes', min: 1, max: 15, value: 15 }),
        ),
        field('Trials per episode', h('input', { type: 'number', name: 'trials', min: 1, max: 8, value: 4 })),
        field('Seed', h('input', { type: 'text', name: 'seed', value: '0' })),
      ),
      h('button', { type: 'submit' }, 'Start STE run'),
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const f = new FormData(form);
      const body = {
        surface: f.get('surface'),
        episodes: Number(f.get('episodes')),
        trials: Number(f.get('trials')),
        seed: f.get('seed'),
      };
      if (!String(f.get('docs')).startsWith('(')) body.docs = f.get('docs');
      if (!String(f.get('since')).startsWith('(')) body.since = f.get('since');
      const created = await attempt(() => api('/v1/ste/runs', { method: 'POST', body }));
      if (created) location.hash = `#/ste/${created.id}`;
    });
    append(
      main,
      h('h2', {}, 'STE runs'),
      form,
      table(
        'Simulated trial and error: runs newest first',
        [
          { label: 'Run', cell: (r) => h('a', { href: `#/ste/${r.id}` }, shortId(r.id)) },
          { label: 'Status', cell: (r) => statusTag(r.status) },
          { label: 'Surface', cell: (r) => `${r.surface}${r.since ? ` (since ${r.since})` : ''}` },
          { label: 'Tools', cell: (r) => `${r.progress.toolsDone}/${r.progress.tools}`, num: true },
          { label: 'Exemplars', cell: (r) => String(r.progress.exemplars), num: true },
          { label: 'Started', cell: (r) => when(Date.parse(r.createdAt)) },
        ],
        runs.items,
        { testid: 'ste-runs' },
      ),
    );
  };
}

/**
 * The run's departures from STE's defaults (Table 2's ablations, long-term memory at every trial), or `STE
 * defaults`; runs stored before these options existed have none.
 */
function explorationSettings(config = {}) {
  const parts = [];
  if (config.longTermMemory === 'trial') parts.push('long-term memory at every trial');
  if (config.longTermMemory === 'off') parts.push('− long-term memory');
  if (config.executionFeedback === false) parts.push('− execution feedback');
  if (config.shortTermMemory === false) parts.push('− short-term memory (one trial per episode)');
  if (config.selfReflection === false) parts.push('− self-reflection');
  return parts.length === 0 ? 'STE defaults' : parts.join(', ');
}

export function renderRun(id) {
  return async (main, signal) => {
    const run = await api(`/v1/ste/runs/${id}`, { signal });
    const tools = h('div', { 'data-testid': 'ste-tools' });
    const summary = h('div');
    const draw = (view) => {
      summary.replaceChildren(
        kv([
          ['Status', statusTag(view.status)],
          ['Surface', `${run.surface} @ ${run.surfaceVersion}`],
          ['Documentation', run.docs],
          ['Tools changed since', run.since ?? '—'],
          ['Exploration', explorationSettings(run.config)],
          ['Trials', `${view.progress.trialsDone}/${view.progress.trialsTotal}`],
          ['Exemplars', String(view.progress.exemplars)],
          ['Model calls', String(view.progress.modelCalls)],
        ]),
      );
      tools.replaceChildren(
        table('Per tool: trials, Solved marks, filter decisions', toolColumns, view.tools),
      );
    };
    draw(run);
    const memory = h('div');
    const exemplars = h('div');
    const loadDetails = async (view) => {
      const ex = await api(`/v1/ste/exemplars?run=${encodeURIComponent(id)}&limit=50`, { signal });
      memory.replaceChildren(
        h(
          'div',
          { 'data-testid': 'ste-memory' },
          h(
            'p',
            { class: 'muted' },
            'Every explored query with its Solved mark, per tool (open a tool to read it).',
          ),
          view.tools.map((t) => memoryBlock(id, t, signal)),
        ),
      );
      exemplars.replaceChildren(
        table(
          'Kept exemplars (first 50)',
          [
            { label: 'Tool', cell: (e) => e.tool },
            { label: 'Query', cell: (e) => e.query },
            { label: 'Action', cell: (e) => h('code', {}, `${e.action} ${e.actionInput}`) },
            { label: 'Paraphrase of', cell: (e) => (e.paraphraseOf ? shortId(e.paraphraseOf) : '—') },
          ],
          ex.items,
          { testid: 'ste-exemplars' },
        ),
      );
    };
    append(
      main,
      h('h2', {}, `STE run ${shortId(id)}`),
      summary,
      tools,
      h('h3', {}, 'Long-term memory'),
      memory,
      h('h3', {}, 'Exemplars'),
      exemplars,
    );
    await loadDetails(run);
    if (run.status === 'queued' || run.status === 'running') {
      await streamEvents(
        `/v1/ste/runs/${id}/events`,
        (name, data) => {
          if (name === 'progress' || name === 'done') draw({ ...run, ...data });
          if (name === 'done') loadDetails({ ...run, ...data });
        },
        signal,
      ).catch(() => {});
    }
  };
}
