/**
 * The session browser: recent sessions from the call journal (GET /v1/sessions) and one session's task,
 * progress and transcript (GET /v1/sessions/{id}).
 */
import { api, query } from '../api.js';
import { append, attempt, clear, field, h, kv, table } from '../ui.js';

export function renderList() {
  return async (main, signal) => {
    const filters = h(
      'form',
      { class: 'card fields', 'aria-label': 'Filter sessions' },
      field('Surface', h('input', { type: 'text', name: 'surface', size: 12 })),
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
      const page = await api(`/v1/sessions${query({ ...f, limit: 25, cursor })}`, { signal });
      rows.push(...page.items);
      cursor = page.nextCursor;
      append(
        clear(box),
        table(
          'Sessions with at least one call, most recently active first',
          [
            { label: 'Session', cell: (s) => h('a', { href: `#/sessions/${s.id}` }, s.id.slice(0, 8)) },
            { label: 'Surfaces', cell: (s) => s.surfaces.join(', ') },
            { label: 'Calls', num: true, cell: (s) => s.calls },
            {
              label: 'Outcomes',
              cell: (s) =>
                Object.entries(s.outcomes)
                  .map(([k, n]) => `${k} ${n}`)
                  .join(' · '),
            },
            { label: 'Finished', cell: (s) => (s.finished ? 'yes' : 'no') },
            { label: 'First call', cell: (s) => s.firstAt.replace('T', ' ').slice(0, 19) },
            { label: 'Last call', cell: (s) => s.lastAt.replace('T', ' ').slice(0, 19) },
          ],
          rows,
          { testid: 'sessions-table', empty: 'No session has been called yet.' },
        ),
      );
      more.hidden = !cursor;
    };
    filters.addEventListener('submit', (e) => {
      e.preventDefault();
      attempt(() => load(true));
    });
    more.addEventListener('click', () => attempt(() => load(false)));
    append(main, h('h2', {}, 'Sessions'), filters, box, more);
    await load(true);
  };
}

/** How a step arrived (TranscriptEntry.via). */
const CHANNELS = { react: 'ReAct text', action: 'action JSON', rest: 'REST', mcp: 'MCP' };

/** `12:03:04 · +1.2 s · REST`: when the step was taken, the time since the previous step, and its channel. */
export function stepMeta(entry, previous) {
  const at = entry.at ? new Date(entry.at) : null;
  const parts = [];
  if (at && !Number.isNaN(at.getTime())) {
    parts.push(at.toISOString().slice(11, 19));
    const before = previous?.at ? new Date(previous.at) : null;
    if (before && !Number.isNaN(before.getTime())) parts.push(`+${((at - before) / 1000).toFixed(1)} s`);
  }
  parts.push(CHANNELS[entry.via] ?? entry.via ?? 'unknown channel');
  return parts.join(' · ');
}

/**
 * A step's input as the agent wrote it: ReAct text with its real line breaks (not a JSON string with `\n`), an
 * action with its input as `Action:` / `Action Input:` lines (the input pretty-printed, or as sent when it was text).
 */
export function inputText(input) {
  if (typeof input === 'string') return input;
  if (input && typeof input === 'object' && 'action' in input) {
    const args = input.actionInput;
    return `Action: ${input.action}\nAction Input: ${typeof args === 'string' ? args : JSON.stringify(args, null, 2)}`;
  }
  return JSON.stringify(input, null, 2);
}

export function renderSession(id) {
  return async (main, signal) => {
    const s = await api(`/v1/sessions/${encodeURIComponent(id)}`, { signal });
    append(
      main,
      h('p', {}, h('a', { href: '#/sessions' }, '← Sessions')),
      h('h2', {}, `Session ${id.slice(0, 8)}`),
      kv([
        ['Id', h('code', {}, s.id)],
        ['Task', `${s.task.id}: ${s.task.question}`],
        ['Surface', `${s.surface} (docs ${s.promptSurface})${s.schedule ? ' · scheduled drift' : ''}`],
        ['Steps', `${s.steps} / ${s.stepBudget}`],
        ['Done', s.done ? `yes (${s.ending ?? ''}, reward ${s.reward})` : 'no'],
        ['Expires', s.expiresAt],
      ]),
      h('h3', {}, 'Transcript'),
      (s.transcript ?? []).map((e, i, all) =>
        h(
          'div',
          { class: 'react-step', 'data-testid': 'transcript-step' },
          h(
            'strong',
            {},
            `Step ${(e.index ?? i) + 1}${e.action ? ` · ${e.action}` : ''}${e.outcome?.kind ? ` · ${e.outcome.kind}` : ''}`,
          ),
          h('span', { class: 'step-meta' }, ` · ${stepMeta(e, all[i - 1])}`),
          e.deprecation
            ? h(
                'span',
                { class: 'tag deprecated', 'data-testid': 'deprecation' },
                ` deprecated${e.deprecation.successor ? ` → ${e.deprecation.successor}` : ''}`,
              )
            : null,
          e.text
            ? h('pre', {}, e.text)
            : e.input !== undefined
              ? h('pre', { 'data-testid': 'step-input' }, inputText(e.input))
              : null,
          h('pre', {}, `Observation: ${e.observation}`),
        ),
      ),
    );
  };
}
