/** Small DOM helpers shared by the views: element building (text only, never HTML strings), tables, errors. */
import { ApiError } from './api.js';

/** `h('a', { href: '#/x', class: 'y' }, 'text', child)`: attributes, `on*` listeners, then children. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  return append(el, ...children);
}

/** Appends children (nested arrays flattened; null, undefined and false skipped; other values as text). */
export function append(el, ...children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function pct(x) {
  return x === null || x === undefined ? '–' : `${(x * 100).toFixed(1)}%`;
}

export function when(ms) {
  if (ms === null || ms === undefined) return '–';
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString().replace('T', ' ').slice(0, 19);
}

export function shortId(id) {
  return id.length > 14 ? `${id.slice(0, 8)}…` : id;
}

/**
 * A table with a caption and column headers. `columns`: [{ label, cell(row) → node|text, num?: boolean }].
 * `empty` is shown in one cell when there are no rows.
 */
export function table(caption, columns, rows, { empty = 'Nothing yet.', testid } = {}) {
  const thead = h(
    'thead',
    {},
    h(
      'tr',
      {},
      columns.map((c) => h('th', { scope: 'col', class: c.num ? 'num' : null }, c.label)),
    ),
  );
  const tbody = h('tbody');
  if (rows.length === 0) {
    tbody.append(h('tr', {}, h('td', { colspan: columns.length, class: 'muted' }, empty)));
  }
  for (const row of rows) {
    tbody.append(
      h(
        'tr',
        {},
        columns.map((c) => h('td', { class: c.num ? 'num' : null }, c.cell(row))),
      ),
    );
  }
  return h(
    'table',
    { 'data-testid': testid },
    caption ? h('caption', { class: 'muted' }, caption) : null,
    thead,
    tbody,
  );
}

/** A definition list of [term, value] pairs. */
export function kv(pairs) {
  return h(
    'dl',
    { class: 'kv' },
    pairs.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
  );
}

const errorsEl = () => document.getElementById('errors');

/** Shows an error (a problem's title, detail and failing fields) until dismissed or the view changes. */
export function showError(err) {
  if (err?.name === 'AbortError') return;
  const problem =
    err instanceof ApiError ? err.problem : { title: 'Error', detail: err?.message ?? String(err) };
  const fields = Array.isArray(problem.errors)
    ? h(
        'ul',
        {},
        problem.errors.map((e) => h('li', {}, `${e.field ?? e.pointer ?? ''}: ${e.message}`)),
      )
    : null;
  const box = h(
    'div',
    { class: 'problem', 'data-testid': 'problem' },
    h(
      'div',
      {},
      h('strong', {}, problem.title ?? 'Error', problem.status ? ` (${problem.status})` : ''),
      h('span', {}, problem.detail ?? ''),
      fields,
    ),
    h('button', { type: 'button', class: 'secondary', onclick: () => box.remove() }, 'Dismiss'),
  );
  errorsEl().append(box);
  if (err instanceof ApiError && err.status === 401)
    document.dispatchEvent(new CustomEvent('tooldrift:unauthorized'));
}

export function clearErrors() {
  clear(errorsEl());
}

/** Runs an async action, showing any error; returns its result or undefined. */
export async function attempt(fn) {
  try {
    return await fn();
  } catch (err) {
    showError(err);
    return undefined;
  }
}

/** Values of the checked boxes named `name` inside `form`. */
export function checked(form, name) {
  return [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => i.value);
}

export function checkboxes(name, options, selected = []) {
  return options.map((o) => {
    const value = typeof o === 'string' ? o : o.value;
    const label = typeof o === 'string' ? o : o.label;
    return h(
      'label',
      { class: 'check' },
      h('input', { type: 'checkbox', name, value, checked: selected.includes(value) }),
      label,
    );
  });
}

/**
 * A form shown as a card and named by its heading: `formCard({ id, title, ...attrs }, ...children)` is
 * `<form class="card" aria-labelledby=id ...attrs><h3 id=id>title</h3>children</form>`.
 */
export function formCard({ id, title, ...attrs }, ...children) {
  return h('form', { class: 'card', ...attrs, 'aria-labelledby': id }, h('h3', { id }, title), ...children);
}

export function field(label, input) {
  return h('label', {}, h('span', {}, label), input);
}

export function select(name, options, value) {
  return h(
    'select',
    { name },
    options.map((o) => {
      const v = typeof o === 'string' ? o : o.value;
      return h('option', { value: v, selected: v === value }, typeof o === 'string' ? o : o.label);
    }),
  );
}

export function statusTag(status) {
  const cls = { done: 'ok', succeeded: 'ok', failed: 'fail', cancelled: 'fail' }[status] ?? '';
  return h('span', { class: `tag ${cls}` }, status);
}

/** Sleeps `ms`, or rejects with an AbortError when `signal` aborts. */
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(new DOMException('aborted', 'AbortError'));
    });
  });
}

/**
 * A `<details>` block: `summary` always shown, `content` only when opened (long pages — a trajectory's steps, an
 * STE run's memory — open as a list of one-line summaries rather than thousands of pixels of text).
 */
export function collapsible(summary, content, { open = false, testid } = {}) {
  return h(
    'details',
    { class: 'collapsible', ...(open ? { open: '' } : {}), ...(testid ? { 'data-testid': testid } : {}) },
    h('summary', {}, summary),
    content,
  );
}

/** A button that opens (or closes) every `<details>` inside `scope`. */
export function toggleAll(scope, label = 'Expand all') {
  const b = h('button', { type: 'button', class: 'secondary' }, label);
  b.addEventListener('click', () => {
    const blocks = [...scope.querySelectorAll('details')];
    const open = blocks.some((d) => !d.open);
    for (const d of blocks) d.open = open;
    b.textContent = open ? 'Collapse all' : label;
  });
  return b;
}

/** The first line of `text`, cut to `max` characters (a summary line). */
export function firstLine(text, max = 90) {
  const line = String(text ?? '').split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export const DATASETS = ['flights', 'coffee', 'airbnb', 'yelp', 'agenda', 'scirex', 'dblp'];
export const DIFFICULTIES = ['easy', 'hard'];
