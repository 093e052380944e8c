/**
 * One evaluation's page, drawn again each second while it runs: `head(ev)` (its title and facts), a Cancel button
 * while it runs, `sections(ev)` (its tables and charts), then its runs (`runs(ev, signal)`, a resultsBrowser
 * created once), shown again when the evaluation stops.
 */
export async function evaluationPage(body, first, { head, sections, runs }, signal) {
  let ev = first;
  let browser = null;
  const draw = () => {
    append(
      clear(body),
      ...head(ev),
      ev.status === 'running'
        ? h(
            'button',
            {
              type: 'button',
              class: 'secondary',
              onclick: async () => {
                const c = await attempt(() => api(`/v1/evals/${ev.id}`, { method: 'DELETE' }));
                if (c) ev = { ...ev, ...c };
                draw();
              },
            },
            'Cancel evaluation',
          )
        : null,
      ...sections(ev),
    );
    browser ??= runs(ev, signal);
    append(body, browser.el);
  };
  draw();
  await browser.load(true);
  while (ev.status === 'running') {
    await sleep(1000, signal);
    ev = await api(`/v1/evals/${ev.id}`, { signal });
    draw();
    if (ev.status !== 'running') await browser.load(true);
  }
}

/**
 * The page of one evaluation and its runs, a page at a time (GET /v1/evals/{id}/results with the filter form's
 * values), for both kinds of evaluation: ToolQA-D task runs (evals.js) and query runs over an imported API
 * (api-evals.js).
 */
import { api, query } from '../api.js';
import { append, attempt, clear, h, sleep, table } from '../ui.js';

/**
 * A filter form, the table of the runs it selects and a button for the next page. `filters` is the form's fields
 * (its submit button is added), `columns` the table's; `load(true)` shows the first page again.
 */
export function resultsBrowser(
  ev,
  { filters, label, submit, columns, testid, empty, more: moreLabel },
  signal,
) {
  const box = h('div');
  const form = h(
    'form',
    { class: 'fields', 'aria-label': label },
    ...filters,
    h('button', { type: 'submit' }, submit),
  );
  const rows = [];
  let cursor = null;
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, moreLabel);
  const draw = () => {
    append(clear(box), table(null, columns, rows, { testid, empty }));
    more.hidden = !cursor;
  };
  const load = async (reset) => {
    if (reset) {
      rows.length = 0;
      cursor = null;
    }
    const f = Object.fromEntries(new FormData(form));
    const page = await api(`/v1/evals/${ev.id}/results${query({ ...f, limit: 50, cursor })}`, { signal });
    rows.push(...page.items);
    cursor = page.nextCursor;
    draw();
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    attempt(() => load(true));
  });
  more.addEventListener('click', () => attempt(() => load(false)));
  return { el: h('div', {}, form, box, more), load };
}
