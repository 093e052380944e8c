/**
 * Imported APIs (issue 22): the key's APIs and an import form (GET/POST /v1/apis); one API with its operations
 * and warnings, its drifted versions beside the API as imported (GET /v1/apis/{id}/surfaces,
 * /v1/surfaces/{id}/diff?against={api}), a drift form (POST /v1/apis/{id}/surfaces), and a "try a call" panel
 * that plays one call in a session on the chosen surface (POST /v1/sessions, …/tools/{name}).
 */
import { api, query } from '../api.js';
import { append, attempt, checkboxes, checked, clear, field, formCard, h, kv, select, table } from '../ui.js';

export const DRIFT_KINDS = [
  'rename-operation',
  'rename-path',
  'rename-params',
  'merge-params',
  'split-params',
  'move-params',
  'retype-params',
  'reshape-response',
  'version-prefix',
  'pagination',
  'deprecate-operation',
];

function importForm() {
  const file = h('input', { type: 'file', name: 'file', accept: '.json,.yaml,.yml', required: true });
  const form = formCard(
    { id: 'import-heading', title: 'Import an API', 'data-testid': 'import-form' },
    h(
      'p',
      { class: 'muted' },
      'An OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML), or a function catalog (OpenAI-style tools, STE’s API_descriptions.json, a ToolBench tool file).',
    ),
    h(
      'div',
      { class: 'fields' },
      field('Document', file),
      field('Mode', select('mode', ['seeded', 'examples'], 'seeded')),
      field('Seed', h('input', { type: 'text', name: 'seed', value: '0', size: 8 })),
      h('button', { type: 'submit' }, 'Import'),
    ),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    attempt(async () => {
      const f = file.files?.[0];
      if (!f) return;
      const data = Object.fromEntries(new FormData(form));
      const created = await api('/v1/apis', {
        method: 'POST',
        body: { document: await f.text(), filename: f.name, mode: data.mode, seed: data.seed || '0' },
      });
      location.hash = `#/apis/${encodeURIComponent(created.id)}`;
    });
  });
  return form;
}

export function renderList() {
  return async (main, signal) => {
    const page = await api(`/v1/apis${query({ limit: 100 })}`, { signal });
    append(
      main,
      h('h2', {}, 'Your APIs'),
      table(
        'Imported APIs, newest first',
        [
          { label: 'API', cell: (a) => h('a', { href: `#/apis/${encodeURIComponent(a.id)}` }, a.id) },
          { label: 'Title', cell: (a) => a.title },
          { label: 'Source', cell: (a) => a.source },
          { label: 'Mode', cell: (a) => a.mode },
          { label: 'Operations', num: true, cell: (a) => a.counts.operations },
          { label: 'Writes', num: true, cell: (a) => a.counts.writes },
          { label: 'Warnings', num: true, cell: (a) => a.warningCount },
          { label: 'Imported', cell: (a) => a.createdAt.replace('T', ' ').slice(0, 16) },
        ],
        page.items,
        { testid: 'apis-table', empty: 'No API yet: import one below.' },
      ),
      importForm(),
    );
  };
}

function route(t) {
  return t?.method ? `${t.method.toUpperCase()} ${t.path}` : '—';
}

function carrierText(c) {
  if (!c) return '—';
  if (c.kind === 'param') return `${c.key} (${c.in}${c.convert ? `, ${c.convert.kind}` : ''})`;
  if (c.kind === 'merged') return `${c.key} (merged with ${c.with.filter((b) => b !== c.key).join(', ')})`;
  if (c.kind === 'part') return `${c.keys.join(' + ')} (split)`;
  return `${c.keys.join(', ')} (${c.style} paging)`;
}

function changesOf(d) {
  if (!d) return h('span', { class: 'muted' }, 'unchanged');
  const items = [];
  if (d.renamed)
    items.push(
      h('li', {}, 'renamed ', h('code', {}, d.from?.name ?? '—'), ' → ', h('code', {}, d.to?.name ?? '—')),
    );
  if (d.moved)
    items.push(h('li', {}, 'moved ', h('code', {}, route(d.from)), ' → ', h('code', {}, route(d.to))));
  for (const p of d.params) {
    items.push(
      h('li', {}, `${p.base}: `, h('code', {}, carrierText(p.from)), ' → ', h('code', {}, carrierText(p.to))),
    );
  }
  if (d.pagination)
    items.push(
      h('li', {}, `paging ${d.pagination.from?.style ?? 'none'} → ${d.pagination.to?.style ?? 'none'}`),
    );
  if (d.lifecycle) items.push(h('li', {}, `lifecycle ${d.lifecycle.from.status} → ${d.lifecycle.to.status}`));
  for (const o of d.alsoServedBy)
    items.push(h('li', {}, 'still served by ', h('code', {}, o.name), ` (${o.lifecycle.status})`));
  return items.length ? h('ul', {}, items) : h('span', { class: 'muted' }, 'unchanged');
}

function driftForm(id) {
  const form = formCard(
    { id: 'drift-heading', title: 'Drift this API', 'data-testid': 'drift-form' },
    h(
      'div',
      { class: 'checks' },
      checkboxes('kinds', DRIFT_KINDS, ['rename-path', 'rename-params', 'version-prefix']),
    ),
    h(
      'div',
      { class: 'fields' },
      field('Seed', h('input', { type: 'text', name: 'seed', value: '7', size: 8 })),
      h('button', { type: 'submit' }, 'Drift'),
    ),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    attempt(async () => {
      const seed = new FormData(form).get('seed') || '0';
      const surface = await api(`/v1/apis/${encodeURIComponent(id)}/surfaces`, {
        method: 'POST',
        body: { seed, kinds: checked(form, 'kinds') },
      });
      location.hash = `#/apis/${encodeURIComponent(id)}/${encodeURIComponent(surface.id)}`;
    });
  });
  return form;
}

/** The example arguments of a tool: each exposed parameter's example, else a value of its type. */
function exampleArgs(tool) {
  const out = {};
  for (const p of tool.params) {
    const s = p.schema ?? {};
    if (!p.required) continue;
    if (s.examples?.length) out[p.name] = s.examples[0];
    else if (s.enum?.length) out[p.name] = s.enum[0];
    else if (s.type === 'integer' || s.type === 'number') out[p.name] = 1;
    else if (s.type === 'boolean') out[p.name] = true;
    else out[p.name] = 'example';
  }
  return out;
}

function tryPanel(apiId, surfaces) {
  let session = null;
  let sessionSurface = null;
  const surfacePick = select(
    'surface',
    surfaces.map((s) => s.id),
    surfaces[surfaces.length - 1]?.id,
  );
  const toolPick = h('select', { name: 'tool' });
  const args = h('textarea', { name: 'args', rows: 4, cols: 60, spellcheck: false });
  const out = h('pre', { class: 'observation', 'data-testid': 'try-result' });
  const fillTools = () => {
    const s = surfaces.find((x) => x.id === surfacePick.value);
    clear(toolPick);
    for (const t of s.tools) toolPick.append(h('option', { value: t.name }, `${t.name} — ${route(t)}`));
    fillArgs();
  };
  const fillArgs = () => {
    const s = surfaces.find((x) => x.id === surfacePick.value);
    const t = s.tools.find((x) => x.name === toolPick.value);
    args.value = JSON.stringify(t ? exampleArgs(t) : {}, null, 0);
  };
  surfacePick.addEventListener('change', fillTools);
  toolPick.addEventListener('change', fillArgs);
  const form = formCard(
    { id: 'try-heading', title: 'Try a call', 'data-testid': 'try-form' },
    h('div', { class: 'fields' }, field('Surface', surfacePick), field('Tool', toolPick)),
    field('Arguments (JSON)', args),
    h('button', { type: 'submit' }, 'Call'),
    out,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    attempt(async () => {
      if (!session || sessionSurface !== surfacePick.value) {
        session = await api('/v1/sessions', {
          method: 'POST',
          body: { api: apiId, surface: surfacePick.value, stepBudget: 200 },
        });
        sessionSurface = surfacePick.value;
      }
      let body;
      try {
        body = JSON.parse(args.value || '{}');
      } catch (err) {
        out.textContent = `The arguments are not JSON: ${err.message}`;
        return;
      }
      try {
        const r = await api(`/v1/sessions/${session.id}/tools/${encodeURIComponent(toolPick.value)}`, {
          method: 'POST',
          body,
        });
        out.textContent = `HTTP ${r.response?.status ?? 200}${r.deprecation ? ` · deprecated (${r.deprecation.status}${r.deprecation.successor ? `, use ${r.deprecation.successor}` : ''})` : ''}\n${JSON.stringify(r.response?.body ?? r.observation, null, 2)}`;
      } catch (err) {
        const p = err.problem ?? {};
        out.textContent = `HTTP ${err.status} ${p.title ?? ''}\n${p.detail ?? err.message}${p.errors ? `\n${p.errors.map((x) => `  ${x.field}: ${x.message}`).join('\n')}` : ''}`;
      }
    });
  });
  fillTools();
  return form;
}

export function renderApi(id, selected) {
  return async (main, signal) => {
    const detail = await api(`/v1/apis/${encodeURIComponent(id)}`, { signal });
    const list = await api(`/v1/apis/${encodeURIComponent(id)}/surfaces${query({ limit: 100 })}`, { signal });
    const driftedId = selected ?? list.items[0]?.id;
    append(
      main,
      h('h2', {}, `${detail.title} `, h('small', { class: 'muted' }, detail.id)),
      kv([
        ['Source', `${detail.source}, version ${detail.version}`],
        [
          'Mode',
          `${detail.mode}, seed ${detail.seed}, ${detail.worldSize.toLocaleString()} entities per resource`,
        ],
        [
          'Operations',
          `${detail.counts.operations} (${detail.counts.writes} writes, ${detail.counts.paginated} paged)`,
        ],
        [
          'Documents',
          h(
            'span',
            {},
            h(
              'a',
              { href: `/v1/apis/${encodeURIComponent(id)}/openapi.json`, target: '_blank' },
              'openapi.json',
            ),
          ),
        ],
      ]),
    );
    if (detail.warningCount > 0) {
      append(
        main,
        h(
          'details',
          {},
          h('summary', {}, `${detail.warningCount} import warning(s)`),
          h(
            'ul',
            {},
            detail.warnings
              .slice(0, 100)
              .map((w) => h('li', {}, h('code', {}, w.operation ?? w.pointer), ` ${w.message}`)),
          ),
        ),
      );
    }
    const base = (await api(`/v1/surfaces/${encodeURIComponent(id)}`, { signal })).surface;
    let drifted = null;
    let diff = null;
    if (driftedId) {
      [drifted, diff] = await Promise.all([
        api(`/v1/surfaces/${encodeURIComponent(driftedId)}`, { signal }).then((r) => r.surface),
        api(`/v1/surfaces/${encodeURIComponent(driftedId)}/diff${query({ against: id })}`, { signal }),
      ]);
    }
    const picker = select(
      'drifted',
      list.items.map((s) => s.id),
      driftedId,
    );
    picker.id = 'drift-pick';
    picker.addEventListener('change', () => {
      location.hash = `#/apis/${encodeURIComponent(id)}/${encodeURIComponent(picker.value)}`;
    });
    const byOp = (s) =>
      new Map((s?.tools ?? []).filter((t) => t.lifecycle?.status !== 'sunset').map((t) => [t.operation, t]));
    const baseTools = byOp(base);
    const driftTools = byOp(drifted);
    const changes = new Map((diff?.operations ?? []).map((d) => [d.operation, d]));
    append(
      main,
      h('h3', {}, drifted ? `As imported ↔ ${drifted.id}` : 'Operations'),
      list.items.length > 0
        ? h('div', { class: 'fields' }, h('label', { for: 'drift-pick' }, 'Drifted version:'), picker)
        : h('p', { class: 'muted' }, 'No drifted version yet: drift the API below.'),
      drifted
        ? h(
            'p',
            { class: 'muted', 'data-testid': 'drift-summary' },
            `${drifted.description} ${diff.operations.length} operations changed; ${diff.retired.added.length} names or routes retired.`,
          )
        : null,
      table(
        drifted ? `Each operation as imported and on ${drifted.id}` : 'The operations of the API',
        [
          { label: 'Operation', cell: (t) => h('code', {}, t.operation) },
          {
            label: 'As imported',
            cell: (t) => [
              h('code', {}, route(t)),
              h('div', { class: 'muted' }, t.params.map((p) => p.name).join(', ') || '—'),
            ],
          },
          ...(drifted
            ? [
                {
                  label: drifted.id,
                  cell: (t) => {
                    const d = driftTools.get(t.operation);
                    return [
                      h('code', {}, d?.name ?? '—'),
                      ' ',
                      h('code', {}, route(d)),
                      h('div', { class: 'muted' }, d?.params.map((p) => p.name).join(', ') || '—'),
                    ];
                  },
                },
                { label: 'Changes', cell: (t) => changesOf(changes.get(t.operation)) },
              ]
            : []),
        ],
        [...baseTools.values()],
        { testid: 'api-operations' },
      ),
      driftForm(id),
      tryPanel(id, [base, ...(drifted ? [drifted] : [])]),
    );
  };
}
