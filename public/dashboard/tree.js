/**
 * A search tree (GET /v1/trees/{id}) as a layered SVG: depth downwards, leaves spread left to right in child
 * order, a parent centred over its children. Nodes are coloured by their value Q = W/N on a red (−1) → yellow
 * (0) → green (+1) scale; cached rollout nodes (created by a rollout, never backed up: N = 0) get a dashed grey
 * outline and no value colour; terminal nodes are squares (✓ correct Finish, ✗ otherwise). The best path of the
 * search summary is drawn in green. Nodes are focusable buttons: click or Enter selects one.
 *
 * A tree of thousands of nodes squeezed into a page width is unreadable (issue 24 item 8), so subtrees are
 * collapsed: only the children of *expanded* nodes are drawn, and a collapsed node with descendants carries a
 * `+N` badge (N hidden nodes). `defaultExpanded` opens the best path and the ways to a few correct Finishes, so the
 * tree opens on what the search found, at a fixed node size.
 */
import { svg } from './charts.js';

const DX = 26;
const DY = 58;
const R = 8;

/** Q in [−1, 1] → a colour from red through yellow to green. */
export function valueColor(q) {
  const t = Math.max(-1, Math.min(1, q));
  const lerp = (a, b, u) => Math.round(a + (b - a) * u);
  const [from, to, u] = t < 0 ? [[214, 48, 49], [240, 200, 60], t + 1] : [[240, 200, 60], [43, 138, 62], t];
  return `rgb(${lerp(from[0], to[0], u)}, ${lerp(from[1], to[1], u)}, ${lerp(from[2], to[2], u)})`;
}

/**
 * Correct Finishes whose ways are opened besides the best path. A search with rollouts ends many of its cached
 * rollout nodes (N = 0) on a correct Finish: opening the ways to all of them opened nearly the whole tree (all 331
 * nodes of a 6-simulation search), so only searched ones (N > 0) count, and only the first few.
 */
export const OPENED_SOLUTIONS = 3;

/**
 * The nodes to open first: the root, the best path (most visited child at each level) and the ancestors of the
 * first OPENED_SOLUTIONS correct Finishes the search backed up (not cached rollout nodes).
 */
export function defaultExpanded(view) {
  const nodes = view.nodes ?? [];
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const open = new Set();
  const root = nodes.find((n) => n.parent === null);
  if (!root) return open;
  open.add(root.id);
  let path = view.summary?.bestPath;
  if (!path) {
    // A running search has no summary yet: follow the most visited child from the root.
    path = [];
    for (let n = root; n && n.children.length > 0; ) {
      const best = n.children
        .map((c) => byId.get(c))
        .reduce((a, b) => (b && (!a || b.visits > a.visits) ? b : a));
      if (!best) break;
      path.push(best.id);
      n = best;
    }
  }
  for (const id of path) open.add(id);
  const searched = (view.summary?.solutions ?? []).filter((id) => {
    const n = byId.get(id);
    return n && !n.cached && n.visits > 0;
  });
  for (const id of searched.slice(0, OPENED_SOLUTIONS)) {
    for (let n = byId.get(id)?.parent; n !== null && n !== undefined; n = byId.get(n)?.parent) open.add(n);
  }
  return open;
}

/** The nodes drawn when `expanded` are open: the root and, recursively, the children of open drawn nodes. */
export function visibleNodes(nodes, expanded) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const root = nodes.find((n) => n.parent === null);
  if (!root) return [];
  const out = [];
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop();
    out.push(n);
    if (!expanded.has(n.id)) continue;
    for (let i = n.children.length - 1; i >= 0; i--) {
      const c = byId.get(n.children[i]);
      if (c) stack.push(c);
    }
  }
  return out;
}

/** Descendants of each node (for the `+N` badge of a collapsed one). */
function descendantCounts(nodes) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const count = new Map();
  // Deepest first: a node's count is its children's counts plus its children.
  for (const n of [...nodes].sort((a, b) => b.depth - a.depth)) {
    count.set(
      n.id,
      n.children.reduce((sum, c) => sum + 1 + (byId.has(c) ? (count.get(c) ?? 0) : 0), 0),
    );
  }
  return count;
}

function layout(nodes) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const pos = new Map();
  let nextLeaf = 0;
  // Iterative post-order walk (trees can be deep).
  const root = nodes.find((n) => n.parent === null) ?? nodes[0];
  const stack = [[root, false]];
  while (stack.length > 0) {
    const [node, visited] = stack.pop();
    const kids = node.children.map((c) => byId.get(c)).filter(Boolean);
    if (!visited && kids.length > 0) {
      stack.push([node, true]);
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], false]);
      continue;
    }
    const x = kids.length === 0 ? nextLeaf++ : kids.reduce((a, k) => a + pos.get(k.id).x, 0) / kids.length;
    pos.set(node.id, { x, y: node.depth });
  }
  return { pos, leaves: Math.max(1, nextLeaf) };
}

/**
 * Draws `view` (the tree JSON) and returns the SVG: the nodes `expanded` opens (all without it).
 * `onSelect(node)` is called on click/Enter; `selectedId` is highlighted.
 */
export function renderTree(view, { onSelect, selectedId, expanded } = {}) {
  const all = view.nodes ?? [];
  const nodes = expanded ? visibleNodes(all, expanded) : all;
  const drawn = new Set(nodes.map((n) => n.id));
  const hidden = descendantCounts(all);
  // Children that are not drawn do not exist for the layout (a collapsed node is a leaf of the drawing).
  const { pos, leaves } = layout(
    nodes.map((n) => ({ ...n, children: n.children.filter((c) => drawn.has(c)) })),
  );
  const depth = Math.max(0, ...nodes.map((n) => n.depth));
  const width = leaves * DX + 40;
  const height = (depth + 1) * DY + 30;
  const at = (id) => {
    const p = pos.get(id);
    return { x: 20 + p.x * DX + DX / 2, y: 20 + p.y * DY };
  };
  const best = new Set(view.summary?.bestPath ?? []);
  const root = svg('svg', {
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'group',
    'aria-label': `Search tree with ${all.length} nodes, ${nodes.length} shown`,
    'data-testid': 'tree-svg',
  });
  const edges = svg('g', {});
  const marks = svg('g', {});
  for (const n of nodes) {
    if (!pos.has(n.id)) continue;
    const { x, y } = at(n.id);
    if (n.parent !== null && pos.has(n.parent)) {
      const p = at(n.parent);
      edges.append(
        svg('path', {
          class: `tree-edge${best.has(n.id) ? ' best' : ''}`,
          d: `M${p.x},${p.y + R} C${p.x},${(p.y + y) / 2} ${x},${(p.y + y) / 2} ${x},${y - R}`,
        }),
      );
    }
    const fill = n.cached ? '#f1f3f5' : n.visits === 0 ? '#ffffff' : valueColor(n.q);
    const collapsed = n.children.some((c) => !drawn.has(c));
    const classes = [
      'tree-node',
      n.cached ? 'cached' : '',
      n.terminal ? 'terminal' : '',
      collapsed ? 'collapsed' : '',
      n.id === selectedId ? 'selected' : '',
    ]
      .filter(Boolean)
      .join(' ');
    const label = `Node ${n.id}${n.action ? ` ${n.action}` : n.id === 0 ? ' (root)' : ''}, N=${n.visits}, Q=${n.q.toFixed(2)}${
      n.cached ? ', cached' : ''
    }${n.terminal ? `, terminal (${n.ending ?? 'end'}${n.reward !== null ? `, reward ${n.reward}` : ''})` : ''}${
      collapsed ? `, ${hidden.get(n.id)} nodes below (collapsed)` : ''
    }`;
    const attrs = {
      class: classes,
      fill,
      tabindex: 0,
      role: 'button',
      'aria-label': label,
      'data-node': n.id,
      'data-cached': n.cached ? 'true' : 'false',
    };
    const shape = n.terminal
      ? svg('rect', { ...attrs, x: x - R, y: y - R, width: 2 * R, height: 2 * R })
      : svg('circle', { ...attrs, cx: x, cy: y, r: R });
    shape.append(svg('title', {}, label));
    const select = () => onSelect?.(n);
    shape.addEventListener('click', select);
    shape.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        select();
      }
    });
    marks.append(shape);
    if (collapsed) {
      marks.append(
        svg(
          'text',
          {
            class: 'tree-badge',
            x,
            y: y + R + 12,
            'text-anchor': 'middle',
            'pointer-events': 'none',
            'data-hidden': hidden.get(n.id),
          },
          `+${hidden.get(n.id)}`,
        ),
      );
    }
    if (n.terminal && n.reward !== null) {
      marks.append(
        svg(
          'text',
          { x, y: y + 4, 'text-anchor': 'middle', 'pointer-events': 'none', 'font-weight': 700 },
          n.reward > 0 ? '✓' : '✗',
        ),
      );
    }
  }
  root.append(edges, marks);
  return root;
}

/** Splits a node's step text into its ReAct parts (Thought / Action / Action Input), keeping anything else. */
export function reactParts(text) {
  const parts = [];
  const re = /^(Thought|Action Input|Action|Observation|Final Answer)\s*:\s*/gm;
  let m = re.exec(text);
  if (!m || m.index > 0) {
    const head = m ? text.slice(0, m.index) : text;
    if (head.trim()) parts.push(['Text', head.trim()]);
  }
  while (m) {
    const label = m[1];
    const start = m.index + m[0].length;
    const next = re.exec(text);
    parts.push([label, text.slice(start, next ? next.index : text.length).trim()]);
    m = next;
  }
  return parts;
}
