/**
 * DRAFT documentation runs (GET /v1/draft/runs, /v1/draft/runs/{id}, /v1/docsets/{id}): the runs with their
 * progress; one run's tools with the Δ of every iteration and the reason each stopped; and the documentation
 * revisions side by side — every version of a tool next to the one before it, with Δ = (BLEU + cos) / 2.
 * Documentation written with the simulator is labelled as such. A tool that stopped on a failed rewrite or
 * without any call the server accepted is marked as such, never as a success, and the set's flagged tools
 * (`flagged` of GET /v1/docsets/{id}) are listed with what the renderings do with them (core/draft/render.ts).
 */
import { api, query } from '../api.js';
import { append, h, kv, shortId, sleep, statusTag, table, when } from '../ui.js';

const RUNNING = new Set(['queued', 'running', 'finalizing']);

function num(x, digits = 3) {
  return typeof x === 'number' ? x.toFixed(digits) : '—';
}

/** Stop reasons (core/draft/docset.ts StopReason): the tag each takes and what each means. */
const STOP_TAGS = { converged: 'ok', 'rewrite-failed': 'fail', 'no-success': 'fail' };
const STOP_TITLES = {
  converged: 'Δ > τ after a rewrite that worked',
  'max-iterations': 'I rewrites without Δ > τ',
  'rewrite-failed':
    'ended on a rewrite that returned the documentation unchanged although the call failed — not convergence',
  'no-success':
    'no exploration’s call was accepted by the server: nothing in this documentation is confirmed',
  'not-explored': 'a tool DRAFT does not explore',
};
const FLAG_TITLES = {
  ...STOP_TITLES,
  'not-served': 'the explored server does not serve this name: left out of every rendering',
};

/**
 * How a tool ended, as the API says it and nothing more: a failed tool shows its error (never a stop reason it
 * may carry); a stop reason the dashboard does not know is shown as it is, flagged.
 */
export function stopCell(t) {
  if (t.status === 'failed' || t.error)
    return h('span', { class: 'tag flag', title: t.error ?? '' }, `failed${t.error ? `: ${t.error}` : ''}`);
  if (t.stop === null || t.stop === undefined) return '—';
  return t.stop in STOP_TITLES
    ? h('span', { class: `tag ${STOP_TAGS[t.stop] ?? ''}`, title: STOP_TITLES[t.stop] }, t.stop)
    : h('span', { class: 'tag flag', title: 'not a normal stop' }, t.stop);
}

function flagTags(flags) {
  return (flags ?? []).map((f) => [' ', h('span', { class: 'tag fail', title: FLAG_TITLES[f] }, f)]);
}

function docLine(doc) {
  return `${doc.name}[${doc.params.map((p) => p.name).join(', ')}], ${doc.description}`;
}

export function renderList() {
  return async (main, signal) => {
    const { items: runs } = await api(`/v1/draft/runs${query({ limit: 50 })}`, { signal });
    append(
      main,
      h('h2', {}, 'DRAFT runs'),
      h('p', { class: 'muted' }, 'Documentation rewritten from exploring a drifted surface, tool by tool.'),
      table(
        'DRAFT runs, newest first',
        [
          {
            label: 'Run',
            cell: (r) => h('a', { href: `#/draft/${encodeURIComponent(r.id)}` }, shortId(r.id)),
          },
          { label: 'Status', cell: (r) => statusTag(r.status) },
          { label: 'Surface', cell: (r) => r.surface },
          { label: 'Tools', num: true, cell: (r) => `${r.progress.done}/${r.progress.tools}` },
          { label: 'Model calls', num: true, cell: (r) => r.progress.modelCalls },
          { label: 'Started', cell: (r) => when(Date.parse(r.createdAt)) },
        ],
        runs,
        {
          empty: 'No DRAFT run yet: start one with `tooldrift draft run --surface s-in`.',
          testid: 'draft-runs',
        },
      ),
    );
  };
}

function toolsTable(run) {
  return table(
    'Tools: Δ per iteration and stop reason',
    [
      { label: 'Tool', cell: (t) => t.key },
      { label: 'Status', cell: (t) => statusTag(t.status) },
      { label: 'Stop', cell: stopCell },
      { label: 'Model calls', num: true, cell: (t) => t.modelCalls },
      {
        label: 'Δ per iteration',
        cell: (t) =>
          t.deltas.length === 0 ? '—' : t.deltas.map((d) => `${d.iteration}: ${num(d.delta)}`).join(' · '),
      },
    ],
    run.tools,
    { testid: 'draft-tools' },
  );
}

/** The set's tools whose documentation is not to be taken as current, and what the renderings do with each. */
function flaggedCard(set, surface) {
  const flagged = set.flagged ?? [];
  if (flagged.length === 0) return null;
  return h(
    'section',
    { class: 'card', 'aria-label': 'Flagged documentation' },
    h('h3', {}, `Not confirmed: ${flagged.length} of ${set.tools.length} tools`),
    table(
      'Tools whose documentation is not to be taken as current',
      [
        { label: 'Tool', cell: (t) => t.key },
        { label: 'Documented as', cell: (t) => h('code', {}, t.name) },
        { label: 'Stop', cell: stopCell },
        { label: 'Flags', cell: (t) => flagTags(t.flags) },
        {
          label: 'In the prompt',
          cell: (t) => (t.current ? 'yes, flagged' : `no — ${surface} does not serve this name`),
        },
      ],
      flagged,
      { testid: 'draft-flagged' },
    ),
  );
}

function revisions(set) {
  return set.tools
    .filter((t) => t.versions.length > 1)
    .map((t) =>
      h(
        'section',
        { class: 'card', 'aria-label': `Revisions of ${t.key}` },
        h(
          'h3',
          {},
          `${t.key} → ${t.doc.name}`,
          ' ',
          h('small', {}, 'stopped: ', stopCell(t)),
          flagTags(t.flags),
        ),
        table(
          `Revisions of ${t.key}`,
          [
            { label: 'Version', num: true, cell: (v) => v.index },
            { label: 'Iteration', num: true, cell: (v) => v.iteration },
            { label: 'Before', cell: (v) => h('code', {}, v.before) },
            { label: 'After', cell: (v) => h('code', {}, v.after) },
            { label: 'BLEU', num: true, cell: (v) => num(v.bleu) },
            { label: 'cos', num: true, cell: (v) => num(v.cos) },
            { label: 'Δ', num: true, cell: (v) => num(v.delta) },
          ],
          t.versions.slice(1).map((v, i) => ({
            index: i + 1,
            iteration: v.iteration,
            before: docLine(t.versions[i].doc),
            after: docLine(v.doc),
            bleu: v.bleu,
            cos: v.cos,
            delta: v.delta,
          })),
        ),
      ),
    );
}

export function renderRun(id) {
  return async (main, signal) => {
    const header = h('div');
    const body = h('div');
    append(main, h('h2', {}, `DRAFT run ${shortId(id)}`), header, body);
    let run = await api(`/v1/draft/runs/${encodeURIComponent(id)}`, { signal });
    for (;;) {
      header.replaceChildren(
        kv([
          ['Status', statusTag(run.status)],
          ['Server surface', run.surface],
          ['Started from', run.parentDocset ?? run.docsSurface],
          ['Tools done', `${run.progress.done}/${run.progress.tools}`],
          ['Model calls', run.progress.modelCalls],
        ]),
      );
      body.replaceChildren(toolsTable(run));
      if (!RUNNING.has(run.status)) break;
      await sleep(2000, signal);
      run = await api(`/v1/draft/runs/${encodeURIComponent(id)}`, { signal });
    }
    if (run.docsetId) {
      const set = await api(`/v1/docsets/${encodeURIComponent(run.docsetId)}`, { signal });
      append(
        body,
        h('h3', {}, 'Documentation revisions'),
        set.simulated
          ? h('p', { class: 'muted' }, 'Written with the simulator (tooldrift-sim-v1 (simulator)).')
          : null,
        flaggedCard(set, run.surface),
        revisions(set),
      );
    }
  };
}
