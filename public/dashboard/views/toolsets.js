/**
 * Toolsets (issue 14): the list with a form to create one from the synthetic catalog or a surface, and one
 * toolset with a search box, a ranker choice (bm25, char, dense, hybrid, cotools) and the ranked tools with their
 * scores; its Chain-of-Tools training (a form that starts one, the versions, and a run's report: loss per epoch of
 * both heads, dev top-1/top-5 beside bm25 and char, judge accuracy; followed live while it runs) and the Tool
 * Judge. `#/toolsets/{id}/training/{version}` shows one version.
 */
import { api, apiAll } from '../api.js';
import { barChart, epochChart } from '../charts.js';
import {
  append,
  attempt,
  field,
  formCard,
  h,
  kv,
  select,
  shortId,
  sleep,
  statusTag,
  table,
  when,
} from '../ui.js';

const RANKERS = ['bm25', 'char', 'dense', 'hybrid', 'cotools'];
const RUNNING = new Set(['queued', 'running']);
const pct100 = (x) => (x === null || x === undefined ? '–' : `${x.toFixed(1)}%`);

export function renderList() {
  return async (main, signal) => {
    const [list, surfaces] = await Promise.all([
      apiAll('/v1/toolsets', { signal }),
      apiAll('/v1/surfaces', { signal }),
    ]);
    const form = formCard(
      { id: 'new-toolset', title: 'New toolset' },
      h(
        'div',
        { class: 'fields' },
        field(
          'Toolset name',
          h('input', { type: 'text', name: 'toolsetName', required: true, maxlength: 100 }),
        ),
        field(
          'Source',
          select('source', [
            { value: 'synthetic', label: 'synthetic catalog' },
            ...surfaces.items.map((s) => ({ value: `surface:${s.id}`, label: `surface ${s.id}` })),
          ]),
        ),
        field(
          'Tools (synthetic)',
          h('input', { type: 'number', name: 'tools', min: 1, max: 100000, value: 10000 }),
        ),
      ),
      h('button', { type: 'submit' }, 'Create toolset'),
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const f = new FormData(form);
      const source = String(f.get('source'));
      const name = f.get('toolsetName');
      const body = source.startsWith('surface:')
        ? { source: 'surface', name, surface: source.slice('surface:'.length) }
        : { source: 'synthetic', name, tools: Number(f.get('tools')) };
      const created = await attempt(() => api('/v1/toolsets', { method: 'POST', body }));
      if (created) location.hash = `#/toolsets/${created.id}`;
    });
    append(
      main,
      h('h2', {}, 'Toolsets'),
      table(
        'Pools of tools to retrieve from (Chain-of-Tools)',
        [
          { label: 'Toolset', cell: (t) => h('a', { href: `#/toolsets/${t.id}` }, t.name) },
          { label: 'Source', cell: (t) => t.source },
          { label: 'Tools', num: true, cell: (t) => String(t.toolCount) },
          { label: 'Created', cell: (t) => when(t.createdAt) },
        ],
        list.items,
        { empty: 'No toolsets yet.', testid: 'toolsets' },
      ),
      form,
    );
  };
}

function trainForm(toolset) {
  const synthetic = toolset.source === 'synthetic';
  const form = formCard(
    { id: 'train-heading', title: 'Train cotools' },
    h(
      'p',
      { class: 'muted' },
      synthetic
        ? 'Trains on the synthetic catalog’s train split; the dev split is scored in the report.'
        : 'Training lines: JSON Lines {"query", "tools": [gold names]}; "tools": [] marks a text that needs no tool (a Tool Judge negative).',
    ),
    h(
      'div',
      { class: 'fields' },
      field('Seed', h('input', { type: 'text', name: 'seed', value: 'cotools', maxlength: 100 })),
      // The retriever's preset (core/retrieval/cotools/schedule.ts); epochs and D left blank are the preset's.
      field('Preset', select('preset', ['default', 'paper'], 'default')),
      field(
        'Epochs',
        h('input', { type: 'number', name: 'epochs', min: 1, max: 50, placeholder: 'preset’s' }),
      ),
      field(
        'Intermediate size D',
        h('input', { type: 'number', name: 'intermediate', min: 4, max: 4096, placeholder: 'preset’s' }),
      ),
      field('Judge epochs', h('input', { type: 'number', name: 'judgeEpochs', min: 0, max: 50, value: 3 })),
    ),
    synthetic
      ? null
      : h(
          'div',
          { class: 'fields' },
          field('Training lines', h('textarea', { name: 'train', rows: 4, cols: 60, required: true })),
          field('Dev lines', h('textarea', { name: 'dev', rows: 2, cols: 60 })),
        ),
    h('button', { type: 'submit' }, 'Train'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const judgeEpochs = Number(f.get('judgeEpochs'));
    const body = {
      seed: String(f.get('seed')),
      retriever: { preset: String(f.get('preset')) },
      judge: judgeEpochs > 0 ? { epochs: judgeEpochs } : false,
    };
    for (const key of ['epochs', 'intermediate']) {
      const value = String(f.get(key) ?? '').trim();
      if (value !== '') body.retriever[key] = Number(value);
    }
    if (!synthetic) {
      body.train = String(f.get('train'));
      if (String(f.get('dev') ?? '').trim()) body.dev = String(f.get('dev'));
    }
    const run = await attempt(() =>
      api(`/v1/toolsets/${encodeURIComponent(toolset.id)}/train`, { method: 'POST', body }),
    );
    if (run) location.hash = `#/toolsets/${encodeURIComponent(toolset.id)}/training/${run.version}`;
  });
  return form;
}

/** One run: progress while it runs; its report and charts once it has finished. */
function trainingPanel(run) {
  const p = run.progress;
  const rows = [
    ['Version', String(run.version)],
    ['Status', statusTag(run.status)],
    ['Started', when(run.createdAt)],
  ];
  if (p && RUNNING.has(run.status))
    rows.push(
      ['Phase', p.phase],
      ['Epoch', `${p.epoch}/${p.epochs}`],
      ['Optimiser steps', `${p.steps.done}/${p.steps.total}`],
    );
  if (run.error) rows.push(['Error', run.error]);
  const r = run.report;
  if (!r) return h('div', { 'data-testid': 'training' }, kv(rows));
  rows.push(
    ['Frozen encoder', `${r.encoder} (${r.dimensions}-d)`],
    ['Pool · training pairs', `${r.pool} · ${r.pairs}`],
    ['Dev top-1 · top-5 (cotools)', r.dev ? `${pct100(r.dev.top1)} · ${pct100(r.dev.top5)}` : '–'],
    [
      'Judge accuracy (held out)',
      r.judge ? `${pct100(r.judge.accuracy)} of ${r.judge.heldOut}` : (r.judgeSkipped ?? '–'),
    ],
    ['Weights', `${r.weights.bytes} bytes · sha256 ${r.weights.sha256.slice(0, 12)}…`],
    [
      'Work · wall time',
      `${(r.timings.workMs / 1000).toFixed(1)} s · ${(r.timings.wallMs / 1000).toFixed(1)} s (${r.timings.chunks} chunks)`,
    ],
    ['Finished', when(run.finishedAt)],
  );
  const losses = [
    { label: 'retriever loss', points: r.retriever.epochs.map((e) => ({ x: e.epoch, y: e.loss })) },
  ];
  if (r.judge?.epochs.length)
    losses.push({ label: 'judge loss', points: r.judge.epochs.map((e) => ({ x: e.epoch, y: e.loss })) });
  const ranked = r.dev ? [{ label: 'cotools', scores: r.dev }] : [];
  for (const [label, scores] of Object.entries(r.baseline ?? {})) ranked.push({ label, scores });
  return h(
    'div',
    { 'data-testid': 'training' },
    kv(rows),
    epochChart({ title: `Loss per epoch (version ${run.version})`, series: losses, testid: 'loss-chart' }),
    ranked.length
      ? barChart({
          title: `Dev top-1 / top-5: cotools beside the untrained rankers of the same run (version ${run.version})`,
          categories: ['top-1', 'top-5'],
          series: ranked.map((x) => ({ label: x.label, values: [x.scores.top1 / 100, x.scores.top5 / 100] })),
          testid: 'dev-chart',
        })
      : h('p', { class: 'muted' }, 'No dev queries: no dev top-1/top-5.'),
  );
}

function judgeForm(id) {
  const out = h('p', { 'aria-live': 'polite', 'data-testid': 'judge-verdict' });
  const form = formCard(
    { id: 'judge-heading', title: 'Tool Judge' },
    h(
      'div',
      { class: 'fields' },
      field(
        'Step text',
        h('input', { type: 'text', name: 'text', required: true, maxlength: 4000, size: 48 }),
      ),
    ),
    h('button', { type: 'submit' }, 'Judge'),
    out,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = String(new FormData(form).get('text'));
    const v = await attempt(() =>
      api(`/v1/toolsets/${encodeURIComponent(id)}/judge`, { method: 'POST', body: { text } }),
    );
    if (v)
      out.textContent = `${v.needsTool ? 'Needs a tool' : 'No tool needed'} (p = ${v.probability.toFixed(3)}, version ${v.version})`;
  });
  return form;
}

export function renderToolset(id, version) {
  return async (main, signal) => {
    const toolset = await api(`/v1/toolsets/${encodeURIComponent(id)}`, { signal });
    const results = h('div', { 'aria-live': 'polite' });
    const form = formCard(
      { id: 'search-heading', title: 'Search', role: 'search' },
      h(
        'div',
        { class: 'fields' },
        field(
          'Query',
          h('input', { type: 'search', name: 'query', required: true, maxlength: 2000, size: 48 }),
        ),
        field('Ranker', select('ranker', RANKERS, 'bm25')),
        field('k', h('input', { type: 'number', name: 'k', min: 1, max: 50, value: 5 })),
      ),
      h('button', { type: 'submit' }, 'Search'),
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const f = new FormData(form);
      const body = { query: String(f.get('query')), ranker: String(f.get('ranker')), k: Number(f.get('k')) };
      if (body.ranker === 'cotools' && version) body.version = Number(version);
      const out = await attempt(() =>
        api(`/v1/toolsets/${encodeURIComponent(id)}/search`, { method: 'POST', body }),
      );
      if (!out) return;
      results.replaceChildren(
        table(
          `${out.ranker}: top ${out.results.length}`,
          [
            { label: '#', num: true, cell: (r) => String(r.rank) },
            { label: 'Tool', cell: (r) => h('code', {}, r.tool.name) },
            { label: 'Description', cell: (r) => r.tool.description },
            { label: 'Score', num: true, cell: (r) => r.score.toFixed(4) },
          ],
          out.results,
          { empty: 'No tool matches.', testid: 'search-results' },
        ),
      );
    });
    append(
      main,
      h('h2', {}, `Toolset ${toolset.name}`),
      kv([
        ['Id', shortId(toolset.id)],
        ['Source', toolset.source],
        ['Tools', String(toolset.toolCount)],
        ['Created', when(toolset.createdAt)],
      ]),
      form,
      results,
    );
    const training = h('section', { 'aria-labelledby': 'training-heading' });
    append(
      main,
      training,
      table(
        `First ${toolset.tools.length} tools`,
        [
          { label: 'Tool', cell: (t) => h('code', {}, t.name) },
          { label: 'Description', cell: (t) => t.description },
        ],
        toolset.tools,
      ),
    );
    // The training section: the newest run (or the version in the route), followed until it finishes; the
    // versions are the runs (GET …/training, a page of them, newest first).
    const base = `/v1/toolsets/${encodeURIComponent(id)}/training`;
    const trained = toolset.training !== null;
    const versions = trained ? (await apiAll(base, { signal, limit: 50, maxPages: 2 })).items : [];
    const load = async () =>
      trained
        ? version
          ? api(`${base}/${encodeURIComponent(version)}`, { signal })
          : (await api(`${base}?limit=1`, { signal })).items[0]
        : null;
    let run = await load();
    for (;;) {
      training.replaceChildren(
        h('h3', { id: 'training-heading' }, 'Chain-of-Tools training'),
        run
          ? trainingPanel(run)
          : h('p', { class: 'muted' }, 'Not trained yet: cotools search and the judge answer 409.'),
        versions.length
          ? table(
              'Versions',
              [
                {
                  label: 'Version',
                  cell: (v) =>
                    h(
                      'a',
                      { href: `#/toolsets/${encodeURIComponent(id)}/training/${v.version}` },
                      String(v.version),
                    ),
                },
                { label: 'Status', cell: (v) => statusTag(v.status) },
                { label: 'Started', cell: (v) => when(v.createdAt) },
              ],
              versions,
              { testid: 'training-versions' },
            )
          : null,
        trainForm(toolset),
        judgeForm(id),
      );
      if (!run || !RUNNING.has(run.status)) break;
      await sleep(1000, signal);
      run = await load();
    }
  };
}
