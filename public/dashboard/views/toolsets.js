/**
 * Toolsets (issue 14): the list with a form to create one from the synthetic catalog or a surface, and one
 * toolset with a search box, a ranker choice (bm25, char, dense, hybrid) and the ranked tools with their scores.
 */
import { api } from '../api.js';
import { append, attempt, field, h, kv, select, shortId, table, when } from '../ui.js';

const RANKERS = ['bm25', 'char', 'dense', 'hybrid'];

export function renderList() {
  return async (main, signal) => {
    const [list, surfaces] = await Promise.all([
      api('/v1/toolsets', { signal }),
      api('/v1/surfaces', { signal }),
    ]);
    const form = h(
      'form',
      { class: 'card', 'aria-labelledby': 'new-toolset' },
      h('h3', { id: 'new-toolset' }, 'New toolset'),
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
        list.toolsets,
        { empty: 'No toolsets yet.', testid: 'toolsets' },
      ),
      form,
    );
  };
}

export function renderToolset(id) {
  return async (main, signal) => {
    const toolset = await api(`/v1/toolsets/${encodeURIComponent(id)}`, { signal });
    const results = h('div', { 'aria-live': 'polite' });
    const form = h(
      'form',
      { class: 'card', role: 'search', 'aria-labelledby': 'search-heading' },
      h('h3', { id: 'search-heading' }, 'Search'),
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
      table(
        `First ${toolset.tools.length} tools`,
        [
          { label: 'Tool', cell: (t) => h('code', {}, t.name) },
          { label: 'Description', cell: (t) => t.description },
        ],
        toolset.tools,
      ),
    );
  };
}
