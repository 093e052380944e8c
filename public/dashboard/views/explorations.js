/**
 * Explorations: the list and a start form (POST /v1/explorations), one exploration with live progress (its
 * event stream) and its trees, and the live tree view: the search tree as SVG (refreshed while the tree's event
 * stream reports progress) with the clicked node's ReAct text in a side panel.
 */
import { api, apiAll, streamEvents } from '../api.js';
import { defaultExpanded, reactParts, renderTree, valueColor } from '../tree.js';
import {
  append,
  attempt,
  clear,
  DATASETS,
  DIFFICULTIES,
  field,
  formCard,
  h,
  kv,
  pct,
  select,
  shortId,
  showError,
  statusTag,
  table,
} from '../ui.js';

function startForm(surfaceIds) {
  const form = formCard(
    { id: 'start-exploration', title: 'Start an exploration' },
    h(
      'div',
      { class: 'fields' },
      field('Dataset', select('dataset', DATASETS, 'flights')),
      field('Difficulty', select('difficulty', DIFFICULTIES, 'easy')),
      field('Split', select('split', ['test', 'dev', 'train'], 'dev')),
      field('Tasks', h('input', { type: 'number', name: 'limit', min: 1, max: 500, value: 1 })),
      field(
        'Trees per task',
        h('input', { type: 'number', name: 'treesPerTask', min: 1, max: 50, value: 2 }),
      ),
      field('Surface', select('surface', surfaceIds, 'pc')),
      field('Prompt surface', select('promptSurface', surfaceIds, 'pc')),
      field('Search', select('mode', ['mcts', 'greedy'], 'mcts')),
      field('Simulations', h('input', { type: 'number', name: 'simulations', min: 1, max: 500, value: 4 })),
      field('Candidates (k)', h('input', { type: 'number', name: 'k', min: 1, max: 16, value: 3 })),
      field('Max depth', h('input', { type: 'number', name: 'maxDepth', min: 1, max: 50, value: 10 })),
      field('Seed', h('input', { type: 'text', name: 'seed', value: '0', size: 8 })),
      h('button', { type: 'submit' }, 'Start exploration'),
    ),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const n = (k) => Number(f.get(k));
    const body = {
      tasks: {
        dataset: f.get('dataset'),
        difficulty: f.get('difficulty'),
        split: f.get('split'),
        limit: n('limit'),
      },
      treesPerTask: n('treesPerTask'),
      surface: f.get('surface'),
      promptSurface: f.get('promptSurface'),
      search: { mode: f.get('mode'), simulations: n('simulations'), k: n('k'), maxDepth: n('maxDepth') },
      seed: f.get('seed') || '0',
    };
    const created = await attempt(() => api('/v1/explorations', { method: 'POST', body }));
    if (created) location.hash = `#/explorations/${created.id}`;
  });
  return form;
}

export function renderList() {
  return async (main, signal) => {
    const [list, surfaces] = await Promise.all([
      api('/v1/explorations?limit=50', { signal }),
      apiAll('/v1/surfaces', { signal }),
    ]);
    append(
      main,
      h('h2', {}, 'Explorations'),
      startForm(surfaces.items.map((s) => s.id)),
      table(
        'Explorations, newest first',
        [
          { label: 'Exploration', cell: (e) => h('a', { href: `#/explorations/${e.id}` }, shortId(e.id)) },
          { label: 'Status', cell: (e) => statusTag(e.status) },
          { label: 'Trees done', num: true, cell: (e) => `${e.finished} / ${e.trees}` },
          { label: 'Solved', num: true, cell: (e) => e.solved },
          { label: 'Tasks', num: true, cell: (e) => e.tasks },
          { label: 'Surface', cell: (e) => `${e.surface ?? '?'} (docs ${e.promptSurface ?? '?'})` },
          { label: 'Search', cell: (e) => e.mode ?? '' },
          { label: 'Created', cell: (e) => e.createdAt.replace('T', ' ').slice(0, 19) },
        ],
        list.items,
        { testid: 'explorations-table', empty: 'No exploration yet.' },
      ),
    );
  };
}

export function renderExploration(id) {
  return async (main, signal) => {
    const summaryEl = h('div');
    const treesEl = h('div');
    append(
      main,
      h('p', {}, h('a', { href: '#/explorations' }, '← Explorations')),
      h('h2', {}, `Exploration ${shortId(id)}`),
      summaryEl,
      h('h3', {}, 'Trees'),
      treesEl,
    );
    const drawSummary = (x) => {
      const finished = x.counts.done + x.counts.failed + x.counts.cancelled;
      append(
        clear(summaryEl),
        kv([
          ['Id', h('code', {}, x.id)],
          ['Status', statusTag(x.status)],
          [
            'Progress',
            h(
              'span',
              {},
              h('progress', { max: x.trees ?? finished, value: finished, 'aria-label': 'Trees finished' }),
              ` ${finished} / ${x.trees ?? '?'} trees (${x.counts.running} running, ${x.counts.queued} queued)`,
            ),
          ],
          ['Solved', `${x.solved} (${pct(x.successRate)})`],
          [
            'Usage',
            `${x.usage.nodes} nodes · ${x.usage.modelCalls} model calls · ${x.usage.inputTokens + x.usage.outputTokens} tokens`,
          ],
          ...(x.config
            ? [
                [
                  'Config',
                  h('code', {}, JSON.stringify({ surface: x.config.surface, search: x.config.search })),
                ],
              ]
            : []),
        ]),
      );
    };
    const drawTrees = async () => {
      const trees = await api(`/v1/explorations/${encodeURIComponent(id)}/trees`, { signal });
      append(
        clear(treesEl),
        table(
          null,
          [
            {
              label: 'Tree',
              cell: (t) => {
                const name = t.id.slice(t.id.indexOf('.') + 1);
                // A queued tree has no search object yet: nothing to open.
                return t.status === 'queued'
                  ? name
                  : h('a', { href: `#/trees/${encodeURIComponent(t.id)}` }, name);
              },
            },
            { label: 'Task', cell: (t) => t.taskId },
            { label: 'Status', cell: (t) => statusTag(t.status) },
            { label: 'Solved', cell: (t) => (t.solved === null ? '–' : t.solved ? '✓' : '✗') },
            { label: 'Nodes', num: true, cell: (t) => t.nodes },
            { label: 'Iterations', num: true, cell: (t) => t.iterations },
            { label: 'Model calls', num: true, cell: (t) => t.modelCalls },
            {
              label: 'Trajectories',
              cell: (t) =>
                h(
                  'a',
                  {
                    href: `#/trajectories?exploration=${encodeURIComponent(id)}&task=${encodeURIComponent(t.taskId)}`,
                  },
                  'browse',
                ),
            },
          ],
          trees.items,
          { testid: 'trees-table' },
        ),
      );
    };
    const first = await api(`/v1/explorations/${encodeURIComponent(id)}`, { signal });
    drawSummary(first);
    await drawTrees();
    if (first.status === 'queued' || first.status === 'running') {
      // One tree-list refresh at a time; progress events arriving meanwhile are covered by the final refresh.
      let refreshing = null;
      await streamEvents(
        `/v1/explorations/${encodeURIComponent(id)}/events`,
        (_name, data) => {
          if (typeof data !== 'object') return;
          drawSummary({ ...first, ...data });
          refreshing ??= drawTrees()
            .catch(showError)
            .finally(() => {
              refreshing = null;
            });
        },
        signal,
      );
      await refreshing;
      await drawTrees();
    }
  };
}

function nodePanel(node) {
  if (!node) return h('p', { class: 'muted' }, 'Click a node to read its step.');
  return h(
    'div',
    { 'data-testid': 'node-panel' },
    h('h3', {}, `Node ${node.id}${node.id === 0 ? ' (root)' : ''}`),
    kv([
      ['Depth', node.depth],
      ['Visits N', node.visits],
      ['Value Q', h('span', { style: `color:${valueColor(node.q)}` }, node.q.toFixed(3))],
      ['Prior P', node.prior.toFixed(3)],
      ['Cached', node.cached ? 'yes (rollout state, never backed up)' : 'no'],
      [
        'Terminal',
        node.terminal
          ? `${node.ending ?? 'yes'}${node.reward !== null ? `, reward ${node.reward}` : ''}`
          : 'no',
      ],
    ]),
    node.text
      ? reactParts(node.text).map(([label, text]) =>
          h('div', { class: 'react-step' }, h('strong', {}, `${label}:`), h('pre', {}, text)),
        )
      : h('p', { class: 'muted' }, 'The root: the task itself.'),
    node.observation
      ? h('div', { class: 'react-step' }, h('strong', {}, 'Observation:'), h('pre', {}, node.observation))
      : null,
  );
}

/**
 * Scales the tree drawing (its viewBox keeps the geometry): `zoom` null fits the canvas width (never enlarging).
 * With `keep` the previous scroll position is restored (a live redraw); otherwise the root is scrolled into view,
 * centred horizontally, at the top.
 */
function applyZoom(tree, canvas, zoom, keep) {
  const [, , w, hgt] = tree.getAttribute('viewBox').split(' ').map(Number);
  const available = Math.max(200, canvas.clientWidth - 4);
  const scale = zoom ?? Math.min(1, available / w);
  tree.setAttribute('width', String(Math.round(w * scale)));
  tree.setAttribute('height', String(Math.round(hgt * scale)));
  tree.dataset.scale = String(scale);
  if (keep) {
    canvas.scrollLeft = keep.left;
    canvas.scrollTop = keep.top;
    return;
  }
  const root = tree.querySelector('[data-node="0"]');
  const rootX = Number(root?.getAttribute('cx') ?? Number(root?.getAttribute('x') ?? 0) + 10) * scale;
  canvas.scrollLeft = Math.max(0, rootX - canvas.clientWidth / 2);
  canvas.scrollTop = 0;
}

/** Dragging the canvas pans the drawing (it scrolls both ways at a fixed node size). */
function dragToPan(canvas) {
  let from = null;
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || e.target.closest?.('.tree-node')) return;
    from = { x: e.clientX, y: e.clientY, left: canvas.scrollLeft, top: canvas.scrollTop };
    canvas.classList.add('panning');
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!from) return;
    canvas.scrollLeft = from.left - (e.clientX - from.x);
    canvas.scrollTop = from.top - (e.clientY - from.y);
  });
  const stop = () => {
    from = null;
    canvas.classList.remove('panning');
  };
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointerleave', stop);
}

export function renderTreeView(treeId) {
  return async (main, signal) => {
    let view = await api(`/v1/trees/${encodeURIComponent(treeId)}`, { signal });
    let selected = null;
    /**
     * Scale of the tree drawing: 1 (a fixed node size; the canvas scrolls and pans) until the user zooms or fits
     * (null: fit the width). A whole tree of hundreds of nodes fitted into the width is unreadable.
     */
    let zoom = 1;
    /** The nodes whose children are drawn: the best path and the ways to correct Finishes, until the user opens more. */
    let expanded = defaultExpanded(view);
    /** The user changed what is open: a live redraw keeps it (only the default follows the search). */
    let expandedByUser = false;
    let firstDraw = true;
    const head = h('div');
    const canvas = h('div', { class: 'tree-scroll' });
    dragToPan(canvas);
    const zoomButton = (label, title, next) => {
      const b = h('button', { type: 'button', class: 'secondary', title, 'aria-label': title }, label);
      b.addEventListener('click', () => {
        const tree = canvas.querySelector('svg');
        zoom = next(Number(tree?.dataset.scale ?? 1));
        if (tree) applyZoom(tree, canvas, zoom, null);
      });
      return b;
    };
    /** A button that opens or closes subtrees; `rescroll`: show the root again afterwards. */
    const openButton = (label, title, open, rescroll = true) => {
      const b = h('button', { type: 'button', class: 'secondary', title, 'aria-label': title }, label);
      b.addEventListener('click', () => {
        expanded = open();
        expandedByUser = true;
        firstDraw = rescroll;
        draw();
      });
      return b;
    };
    const zoomBar = h(
      'div',
      { class: 'zoom', 'data-testid': 'tree-zoom' },
      zoomButton('Fit', 'Fit the tree to the width', () => null),
      zoomButton('−', 'Zoom out', (s) => Math.max(0.01, s / 1.25)),
      zoomButton('+', 'Zoom in', (s) => Math.min(4, s * 1.25)),
      zoomButton('100%', 'Actual size', () => 1),
      openButton('Best path', 'Collapse to the best path', () => defaultExpanded(view)),
      openButton('Expand all', 'Expand every subtree', () => new Set(view.nodes.map((n) => n.id))),
      h('span', { class: 'muted', 'data-testid': 'tree-shown' }),
    );
    const panel = h('aside', { class: 'card', 'aria-live': 'polite' });
    const draw = () => {
      const p = view.progress;
      append(
        clear(head),
        kv([
          ['Task', `${view.task.id}: ${view.task.question}`],
          [
            'Status',
            h(
              'span',
              {},
              statusTag(p.status),
              ` ${p.simulations} / ${p.simulationsTotal} simulations · ${p.nodes} nodes · ${p.modelCalls} model calls`,
            ),
          ],
          [
            'Outcome',
            view.summary?.success
              ? view.summary.bestAnswer === null || view.summary.bestAnswer === undefined
                ? 'solved'
                : `solved — best answer: ${view.summary.bestAnswer}`
              : p.done
                ? 'not solved'
                : 'searching…',
          ],
        ]),
      );
      const scroll = { left: canvas.scrollLeft, top: canvas.scrollTop };
      if (!expandedByUser) expanded = defaultExpanded(view);
      const tree = renderTree(view, {
        selectedId: selected?.id,
        expanded,
        onSelect: (n) => {
          selected = n;
          // Selecting a collapsed node opens it one level.
          if (n.children.length > 0 && !expanded.has(n.id)) {
            expanded = new Set(expanded).add(n.id);
            expandedByUser = true;
          }
          draw();
        },
      });
      const shown = tree.querySelectorAll('.tree-node').length;
      zoomBar.querySelector('[data-testid=tree-shown]').textContent =
        shown < view.nodes.length
          ? `${shown} of ${view.nodes.length} nodes shown — click a node with +N to open it`
          : `all ${view.nodes.length} nodes shown`;
      append(clear(canvas), tree);
      applyZoom(tree, canvas, zoom, firstDraw ? null : scroll);
      firstDraw = false;
      const node = selected ? view.nodes.find((n) => n.id === selected.id) : null;
      const collapse =
        node && node.children.length > 0 && expanded.has(node.id)
          ? openButton(
              'Collapse this subtree',
              'Collapse the subtree under this node',
              () => {
                const next = new Set(expanded);
                next.delete(node.id);
                return next;
              },
              false,
            )
          : null;
      append(clear(panel), nodePanel(node), collapse);
    };
    append(
      main,
      h(
        'p',
        {},
        h('a', { href: `#/explorations/${encodeURIComponent(view.explorationId)}` }, '← Exploration'),
      ),
      h('h2', {}, `Tree ${treeId.slice(treeId.indexOf('.') + 1)}`),
      head,
      h(
        'div',
        { class: 'legend' },
        [
          ['Q = −1', valueColor(-1)],
          ['Q = 0', valueColor(0)],
          ['Q = +1', valueColor(1)],
          ['cached (N = 0)', '#f1f3f5', '1px dashed #666'],
        ].map(([label, c, border]) =>
          h('span', { style: `--swatch:${c};${border ? `--swatch-border:${border}` : ''}` }, label),
        ),
        h(
          'span',
          { style: '--swatch:#fff;--swatch-border:1px solid #333' },
          'square: terminal (✓ correct, ✗ wrong)',
        ),
      ),
      zoomBar,
      h('div', { class: 'split' }, canvas, panel),
    );
    draw();
    if (view.progress.status === 'running') {
      // Redraw on progress, one tree fetch at a time; the last fetch after the stream ends shows the final tree.
      let refreshing = null;
      const refresh = async () => {
        view = await api(`/v1/trees/${encodeURIComponent(treeId)}`, { signal });
        draw();
      };
      await streamEvents(
        `/v1/trees/${encodeURIComponent(treeId)}/events`,
        () => {
          refreshing ??= refresh()
            .catch(showError)
            .finally(() => {
              refreshing = null;
            });
        },
        signal,
      );
      await refreshing;
      view = await api(`/v1/trees/${encodeURIComponent(treeId)}`, { signal });
      draw();
    }
  };
}
