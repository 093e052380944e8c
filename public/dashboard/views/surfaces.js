/**
 * Surfaces side by side with their drift against pc (GET /v1/surfaces, /v1/surfaces/{id},
 * /v1/surfaces/{id}/diff?against=pc): per kernel tool, pc's name and parameters next to the surface's, what
 * changed (rename, parameter keys, flags, ignored parameters, prefixes) and the tool's lifecycle (status,
 * deprecation and sunset dates, successor), plus the names the surface retired.
 */
import { api, apiAll, query } from '../api.js';
import { append, h, select, table } from '../ui.js';

function paramText(p) {
  switch (p.kind) {
    case 'numbered':
      return `${p.prefix}1, ${p.prefix}2, …`;
    case 'flag':
      return `${p.name} (flag)`;
    case 'ignored':
      return `${p.name} (ignored)`;
    case 'prefixed':
      return `${p.name} (prefix “${p.prefix}”)`;
    default:
      return p.name;
  }
}

function paramsOf(tool) {
  return tool ? tool.params.map(paramText).join(', ') : '—';
}

function sentAs(v) {
  if (!v) return '—';
  if (v.kind === 'key') return v.key;
  if (v.kind === 'numbered') return `${v.prefix}1…`;
  return v.key ?? v.name ?? v.prefix ?? v.kind;
}

function changes(d) {
  if (!d) return [];
  const out = [];
  if (d.renamed) out.push(h('li', {}, 'renamed ', h('code', {}, d.from), ' → ', h('code', {}, d.to)));
  for (const p of d.params ?? []) {
    out.push(
      h(
        'li',
        {},
        `parameter ${p.kernelParam}: `,
        h('code', {}, sentAs(p.from)),
        ' → ',
        h('code', {}, sentAs(p.to)),
      ),
    );
  }
  for (const f of d.flags?.added ?? []) out.push(h('li', {}, 'flag added ', h('code', {}, f.name)));
  for (const f of d.flags?.removed ?? []) out.push(h('li', {}, 'flag removed ', h('code', {}, f.name)));
  for (const n of d.ignored?.added ?? []) out.push(h('li', {}, 'ignored parameter added ', h('code', {}, n)));
  for (const n of d.ignored?.removed ?? [])
    out.push(h('li', {}, 'ignored parameter removed ', h('code', {}, n)));
  for (const p of d.prefixes ?? []) {
    out.push(
      h(
        'li',
        {},
        `prefix on ${p.kernelParam}: `,
        h('code', {}, p.from ?? 'none'),
        ' → ',
        h('code', {}, p.to ?? 'none'),
      ),
    );
  }
  if (d.keyMismatch)
    out.push(h('li', {}, `wrong keys answered as ${d.keyMismatch.from} → ${d.keyMismatch.to}`));
  return out;
}

function lifecycle(tool) {
  const l = tool?.lifecycle;
  if (!l) return '—';
  return h(
    'span',
    {},
    h(
      'span',
      { class: `tag ${l.status === 'active' ? 'ok' : l.status === 'sunset' ? 'fail' : 'flag'}` },
      l.status,
    ),
    l.deprecatedAt ? ` deprecated ${l.deprecatedAt}` : '',
    l.sunsetAt ? ` · sunset ${l.sunsetAt}` : '',
    l.successor ? ` · use ${l.successor}` : '',
  );
}

export function render(selected) {
  return async (main, signal) => {
    const list = await apiAll('/v1/surfaces', { signal });
    const others = list.items.filter((s) => s.id !== 'pc');
    const id = selected ?? others.find((s) => s.id === 's-ood')?.id ?? others[0]?.id ?? 'pc';
    append(
      main,
      h('h2', {}, 'Surfaces'),
      table(
        'Every surface and how far it drifted from pc',
        [
          { label: 'Surface', cell: (s) => h('a', { href: `#/surfaces/${encodeURIComponent(s.id)}` }, s.id) },
          { label: 'Title', cell: (s) => s.title },
          { label: 'Kind', cell: (s) => s.kind },
          { label: 'Derived from', cell: (s) => s.derivedFrom ?? '—' },
          { label: 'Tools', num: true, cell: (s) => s.tools.length },
          { label: 'Retired names', num: true, cell: (s) => s.retired.length },
        ],
        list.items,
        { testid: 'surfaces-table' },
      ),
    );
    const picker = select(
      'surface',
      others.map((s) => s.id),
      id,
    );
    picker.id = 'surface-pick';
    picker.addEventListener('change', () => {
      location.hash = `#/surfaces/${encodeURIComponent(picker.value)}`;
    });
    append(
      main,
      h('div', { class: 'fields' }, h('label', { for: 'surface-pick' }, 'Compare with pc:'), picker),
    );
    const [pc, other, diff] = await Promise.all([
      api('/v1/surfaces/pc', { signal }),
      api(`/v1/surfaces/${encodeURIComponent(id)}`, { signal }),
      api(`/v1/surfaces/${encodeURIComponent(id)}/diff${query({ against: 'pc' })}`, { signal }),
    ]);
    const byKernel = (s) => new Map(s.surface.tools.map((t) => [t.kernel, t]));
    const pcTools = byKernel(pc);
    const otherTools = byKernel(other);
    const drift = new Map(diff.tools.map((d) => [d.kernel, d]));
    const kernels = [...new Set([...pcTools.keys(), ...otherTools.keys()])];
    append(
      main,
      h('h3', {}, `pc ↔ ${id}`),
      h('p', { class: 'muted' }, other.surface.description),
      h(
        'p',
        { 'data-testid': 'drift-summary' },
        `${diff.renamedTools.length} renamed tools, ${diff.tools.length} tools with changes, ${diff.lifecycle.retired.length} retired names`,
        diff.response ? ', response format changed' : '',
        diff.drift ? ` (generated by seeded drift: ${diff.drift.kinds.join(', ')})` : '',
        '.',
      ),
      table(
        `Tools of pc and ${id}, matched by kernel tool`,
        [
          { label: 'Kernel tool', cell: (k) => h('code', {}, k) },
          {
            label: 'pc',
            cell: (k) => [
              h('code', {}, pcTools.get(k)?.name ?? '—'),
              h('div', { class: 'muted' }, paramsOf(pcTools.get(k))),
            ],
          },
          {
            label: id,
            cell: (k) => [
              h('code', {}, otherTools.get(k)?.name ?? '—'),
              h('div', { class: 'muted' }, paramsOf(otherTools.get(k))),
            ],
          },
          {
            label: 'Changes',
            cell: (k) => {
              const items = changes(drift.get(k));
              return items.length ? h('ul', {}, items) : h('span', { class: 'muted' }, 'unchanged');
            },
          },
          { label: 'Lifecycle', cell: (k) => lifecycle(otherTools.get(k)) },
        ],
        kernels,
        { testid: 'drift-table' },
      ),
      h('h3', {}, 'Retired names'),
      table(
        `Names ${id} no longer serves (calling one answers with its deprecation message)`,
        [
          { label: 'Old name', cell: (r) => h('code', {}, r.name) },
          { label: 'Kernel tool', cell: (r) => r.kernel },
          { label: 'Successor', cell: (r) => h('code', {}, r.successor) },
        ],
        diff.lifecycle.retired,
        { empty: 'None.' },
      ),
    );
    if (diff.lifecycle.tools.length > 0) {
      append(
        main,
        h('h3', {}, 'Lifecycle changes'),
        table(
          null,
          [
            { label: 'Tool', cell: (t) => h('code', {}, t.name) },
            { label: 'pc', cell: (t) => JSON.stringify(t.from) },
            { label: id, cell: (t) => JSON.stringify(t.to) },
          ],
          diff.lifecycle.tools,
        ),
      );
    }
  };
}
