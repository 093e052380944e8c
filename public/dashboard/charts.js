/**
 * SVG charts drawn without a library: a heatmap (success rate of each method · surface by dataset × difficulty:
 * a dozen series of grouped bars are unreadable), grouped bars (averages by surface), horizontal stacked bars
 * (the error taxonomy) and a line chart (success across scheduled runs), and values per epoch (training losses). Each returns a <figure> with a caption, an SVG with role="img" and a textual legend; every mark carries
 * a <title> with its exact value.
 */
const NS = 'http://www.w3.org/2000/svg';
/** Twelve distinguishable series colours; `seriesColor` continues past them without repeating. */
export const PALETTE = [
  '#0a58ca',
  '#e8590c',
  '#2b8a3e',
  '#862e9c',
  '#c92a2a',
  '#1098ad',
  '#f08c00',
  '#495057',
  '#d6336c',
  '#5c940d',
  '#3b5bdb',
  '#9c6644',
];

/** The colour of series `i`: the palette, then hues spaced by the golden angle (never a repeat). */
/** An SVG drawing area of `width` × `height` pixels, its viewBox the same size. */
function canvas(width, height) {
  return svg('svg', { width, height, viewBox: `0 0 ${width} ${height}` });
}

/** The legend entries of `series`, in the series' colours. */
function legendOf(series) {
  return series.map((s, i) => ({ label: s.label, color: seriesColor(i) }));
}

/** The polyline of one series through its points (already sorted by x), in the series' colour. */
function seriesLine(pts, px, py, color) {
  return svg('path', {
    class: 'line',
    d: pts.map((p, i) => `${i ? 'L' : 'M'}${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(' '),
    stroke: color,
    fill: 'none',
    'stroke-width': 2,
  });
}

export function seriesColor(i) {
  return i < PALETTE.length ? PALETTE[i] : `hsl(${Math.round((i * 137.508) % 360)} 60% 38%)`;
}

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs))
    if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function figure(caption, chart, legendItems, testid) {
  const fig = document.createElement('figure');
  if (testid) fig.dataset.testid = testid;
  const cap = document.createElement('figcaption');
  cap.textContent = caption;
  chart.setAttribute('role', 'img');
  chart.setAttribute('aria-label', caption);
  fig.append(cap, chart);
  if (legendItems.length > 0) {
    const legend = document.createElement('div');
    legend.className = 'legend';
    for (const { label, color, border } of legendItems) {
      const item = document.createElement('span');
      item.style.setProperty('--swatch', color);
      if (border) item.style.setProperty('--swatch-border', border);
      item.textContent = label;
      legend.append(item);
    }
    fig.append(legend);
  }
  return fig;
}

function yAxis(x0, top, height, width, ticks = [0, 0.25, 0.5, 0.75, 1]) {
  return svg(
    'g',
    { class: 'axis' },
    ticks.map((t) => {
      const y = top + height - t * height;
      return svg(
        'g',
        {},
        svg('line', { class: 'grid', x1: x0, x2: x0 + width, y1: y, y2: y }),
        svg('text', { x: x0 - 6, y: y + 4, 'text-anchor': 'end' }, `${Math.round(t * 100)}%`),
      );
    }),
    svg('line', { x1: x0, x2: x0, y1: top, y2: top + height }),
  );
}

const fmt = (v) => (v === null || v === undefined ? 'no finished runs' : `${(v * 100).toFixed(1)}%`);

/**
 * Grouped bars on a 0–100% axis. `categories`: labels along x; `series`: [{ label, values }] with one value
 * (0..1 or null) per category. A null value draws no bar (nothing finished yet).
 */
export function barChart({ title, categories, series, testid }) {
  const bar = 12;
  const gap = 14;
  const groupWidth = Math.max(1, series.length) * bar + gap;
  const left = 44;
  const top = 10;
  const height = 170;
  const width = Math.max(260, categories.length * groupWidth);
  const chart = canvas(left + width + 10, top + height + 70);
  chart.append(yAxis(left, top, height, width));
  categories.forEach((cat, ci) => {
    const gx = left + ci * groupWidth + gap / 2;
    series.forEach((s, si) => {
      const v = s.values[ci];
      if (v === null || v === undefined) return;
      const hgt = Math.max(1, v * height);
      chart.append(
        svg(
          'rect',
          {
            class: 'bar',
            x: gx + si * bar,
            y: top + height - hgt,
            width: bar - 2,
            height: hgt,
            fill: seriesColor(si),
            'data-series': s.label,
            'data-category': cat,
            'data-value': v,
          },
          svg('title', {}, `${s.label} · ${cat}: ${fmt(v)}`),
        ),
      );
    });
    const lx = gx + (series.length * bar) / 2;
    chart.append(
      svg(
        'text',
        {
          x: lx,
          y: top + height + 12,
          'text-anchor': 'end',
          transform: `rotate(-35 ${lx} ${top + height + 12})`,
        },
        cat,
      ),
    );
  });
  return figure(title, chart, legendOf(series), testid);
}

/** A success rate 0..1 → a fill from pale to deep blue, and whether text on it should be white. */
export function heatColor(v) {
  const t = Math.max(0, Math.min(1, v));
  const lerp = (a, b) => Math.round(a + (b - a) * t);
  return { fill: `rgb(${lerp(239, 8)}, ${lerp(243, 69)}, ${lerp(255, 148)})`, dark: t > 0.55 };
}

/**
 * A heatmap on a 0–100% scale: one row per `rows` entry ({ label, values }), one column per `columns` label,
 * each cell coloured by its value and labelled with it (a null value — nothing finished — is a grey dash).
 * `groups` (optional) names runs of columns (e.g. a dataset over its easy and hard columns).
 */
export function heatmap({ title, rows, columns, groups = [], testid }) {
  const cellW = 54;
  const cellH = 26;
  const left = Math.max(110, 7 * Math.max(0, ...rows.map((r) => r.label.length)));
  const top = groups.length > 0 ? 40 : 22;
  const chart = canvas(left + columns.length * cellW + 10, top + rows.length * cellH + 10);
  let x0 = left;
  for (const g of groups) {
    chart.append(
      svg(
        'text',
        { x: x0 + (g.span * cellW) / 2, y: 12, 'text-anchor': 'middle', 'font-weight': 600 },
        g.label,
      ),
      svg('line', { class: 'grid', x1: x0 + 3, x2: x0 + g.span * cellW - 3, y1: 17, y2: 17 }),
    );
    x0 += g.span * cellW;
  }
  columns.forEach((c, ci) => {
    chart.append(svg('text', { x: left + ci * cellW + cellW / 2, y: top - 6, 'text-anchor': 'middle' }, c));
  });
  rows.forEach((r, ri) => {
    const y = top + ri * cellH;
    chart.append(svg('text', { x: left - 8, y: y + cellH / 2 + 4, 'text-anchor': 'end' }, r.label));
    r.values.forEach((v, ci) => {
      const x = left + ci * cellW;
      const none = v === null || v === undefined;
      const { fill, dark } = none ? { fill: '#f1f3f5', dark: false } : heatColor(v);
      chart.append(
        svg(
          'rect',
          {
            class: 'cell',
            x: x + 1,
            y: y + 1,
            width: cellW - 2,
            height: cellH - 2,
            rx: 3,
            fill,
            'data-row': r.label,
            'data-column': columns[ci],
            'data-value': none ? '' : v,
          },
          svg('title', {}, `${r.label} · ${columns[ci]}: ${fmt(v)}`),
        ),
        svg(
          'text',
          {
            x: x + cellW / 2,
            y: y + cellH / 2 + 4,
            'text-anchor': 'middle',
            'pointer-events': 'none',
            style: dark ? 'fill:#fff' : undefined,
          },
          none ? '–' : `${Math.round(v * 100)}%`,
        ),
      );
    });
  });
  return figure(
    title,
    chart,
    [0, 0.5, 1].map((v) => ({ label: `${v * 100}%`, color: heatColor(v).fill, border: '1px solid #ccd' })),
    testid,
  );
}

/** Horizontal stacked bars: `rows` [{ label, counts: { [key]: n } }], `keys` [{ id, label }] in stack order. */
export function stackedBars({ title, rows, keys, testid }) {
  const left = 150;
  const rowHeight = 22;
  const width = 360;
  const max = Math.max(1, ...rows.map((r) => keys.reduce((a, k) => a + (r.counts[k.id] ?? 0), 0)));
  const chart = canvas(left + width + 50, rows.length * rowHeight + 10);
  rows.forEach((r, ri) => {
    const y = 5 + ri * rowHeight;
    chart.append(svg('text', { x: left - 6, y: y + 14, 'text-anchor': 'end' }, r.label));
    let x = left;
    let total = 0;
    keys.forEach((k, ki) => {
      const n = r.counts[k.id] ?? 0;
      total += n;
      if (n === 0) return;
      const w = (n / max) * width;
      chart.append(
        svg(
          'rect',
          {
            class: 'segment',
            x,
            y,
            width: w,
            height: rowHeight - 6,
            fill: seriesColor(ki),
            'data-key': k.id,
            'data-value': n,
          },
          svg('title', {}, `${r.label} · ${k.label}: ${n}`),
        ),
      );
      x += w;
    });
    chart.append(svg('text', { x: x + 4, y: y + 13 }, String(total)));
  });
  return figure(
    title,
    chart,
    keys.map((k, i) => ({ label: k.label, color: seriesColor(i) })),
    testid,
  );
}

/** Lines over time on a 0–100% axis: `series` [{ label, points: [{ x: ms, y: 0..1|null, flagged? }] }]. */
export function lineChart({ title, series, testid }) {
  const left = 44;
  const top = 10;
  const width = 520;
  const height = 170;
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const span = maxX - minX || 1;
  const px = (x) => left + (xs.length <= 1 ? width / 2 : ((x - minX) / span) * width);
  const py = (y) => top + height - y * height;
  const chart = canvas(left + width + 20, top + height + 40);
  chart.append(yAxis(left, top, height, width));
  if (xs.length > 0) {
    const ends =
      xs.length > 1 && maxX > minX
        ? [
            [minX, 'start'],
            [maxX, 'end'],
          ]
        : [[minX, 'middle']];
    for (const [x, anchor] of ends) {
      chart.append(
        svg(
          'text',
          { x: px(x), y: top + height + 16, 'text-anchor': anchor },
          new Date(x).toISOString().slice(0, 16).replace('T', ' '),
        ),
      );
    }
  }
  series.forEach((s, si) => {
    const color = seriesColor(si);
    const pts = s.points.filter((p) => p.y !== null && p.y !== undefined).sort((a, b) => a.x - b.x);
    if (pts.length > 1) chart.append(seriesLine(pts, px, py, color));
    for (const p of pts) {
      chart.append(
        svg(
          'circle',
          {
            class: 'point',
            cx: px(p.x),
            cy: py(p.y),
            r: p.flagged ? 5 : 3.5,
            fill: p.flagged ? '#fff' : color,
            stroke: color,
            'stroke-width': 2,
          },
          svg(
            'title',
            {},
            `${s.label} · ${new Date(p.x).toISOString()}: ${fmt(p.y)}${p.flagged ? ' (flagged)' : ''}`,
          ),
        ),
      );
    }
  });
  return figure(title, chart, legendOf(series), testid);
}

/**
 * Values per epoch on a 0–max axis (training losses): `series` [{ label, points: [{ x: epoch, y }] }]. Unlike the
 * other charts the axis is not a percentage: it runs from 0 to the largest value, labelled with its numbers.
 */
export function epochChart({ title, series, testid }) {
  const left = 52;
  const top = 10;
  const width = 420;
  const height = 170;
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.map((p) => p.y));
  const maxX = Math.max(1, ...xs);
  const maxY = Math.max(1e-9, ...ys);
  const px = (x) => left + (maxX <= 1 ? width / 2 : ((x - 1) / (maxX - 1)) * width);
  const py = (y) => top + height - (y / maxY) * height;
  const chart = canvas(left + width + 20, top + height + 40);
  chart.append(
    svg(
      'g',
      { class: 'axis' },
      [0, 0.25, 0.5, 0.75, 1].map((t) =>
        svg(
          'g',
          {},
          svg('line', { class: 'grid', x1: left, x2: left + width, y1: py(t * maxY), y2: py(t * maxY) }),
          svg('text', { x: left - 6, y: py(t * maxY) + 4, 'text-anchor': 'end' }, (t * maxY).toPrecision(2)),
        ),
      ),
      svg('line', { x1: left, x2: left, y1: top, y2: top + height }),
      Array.from({ length: maxX }, (_, i) =>
        svg('text', { x: px(i + 1), y: top + height + 16, 'text-anchor': 'middle' }, `epoch ${i + 1}`),
      ),
    ),
  );
  series.forEach((s, si) => {
    const color = seriesColor(si);
    const pts = [...s.points].sort((a, b) => a.x - b.x);
    if (pts.length > 1) chart.append(seriesLine(pts, px, py, color));
    for (const p of pts)
      chart.append(
        svg(
          'circle',
          {
            class: 'point',
            cx: px(p.x),
            cy: py(p.y),
            r: 3.5,
            fill: color,
            'data-series': s.label,
            'data-epoch': p.x,
            'data-value': p.y,
          },
          svg('title', {}, `${s.label} · epoch ${p.x}: ${p.y.toFixed(4)}`),
        ),
      );
  });
  return figure(title, chart, legendOf(series), testid);
}

/**
 * Success over the releases of a drift stream (issue 26): one line per agent configuration on a 0–100% axis, a
 * dashed marker at every release that retired names (its <title> lists them), and beneath, on its own axis, the
 * maintenance spend of each release as bars (model calls; the <title> adds tokens and wall time).
 * `series`: { releases: [n…], configurations: [{ label, success: [0..1 | null …] }], retirements: [{ release,
 * names }], maintenance: [{ release, modelCalls, inputTokens, outputTokens, wallMs }] }.
 */
export function streamChart({ title, series, testid }) {
  const left = 52;
  const top = 10;
  const width = 560;
  const height = 190;
  const barTop = top + height + 50;
  const barHeight = 70;
  const releases = series.releases;
  const n = releases.length;
  // Releases sit inside the axis (an inset on both sides), so the first and last bars stay clear of the labels.
  const inset = 18;
  const step = n > 1 ? (width - 2 * inset) / (n - 1) : 0;
  const px = (i) => left + inset + (n > 1 ? i * step : (width - 2 * inset) / 2);
  const py = (y) => top + height - y * height;
  const chart = canvas(left + width + 24, barTop + barHeight + 28);
  chart.append(yAxis(left, top, height, width));
  // Release labels along x (every one up to 16 releases, then every k-th).
  const every = Math.max(1, Math.ceil(n / 16));
  releases.forEach((r, i) => {
    if (i % every === 0 || i === n - 1)
      chart.append(svg('text', { x: px(i), y: top + height + 16, 'text-anchor': 'middle' }, `r${r}`));
  });
  // Retirements: a dashed vertical marker with the retired names in its title.
  const at = new Map(releases.map((r, i) => [r, i]));
  for (const ret of series.retirements) {
    const i = at.get(ret.release);
    if (i === undefined) continue;
    chart.append(
      svg(
        'g',
        { class: 'retirement' },
        svg('line', {
          x1: px(i),
          x2: px(i),
          y1: top,
          y2: top + height,
          stroke: '#868e96',
          'stroke-dasharray': '4 3',
        }),
        svg('text', { x: px(i), y: top + 9, 'text-anchor': 'middle', class: 'marker' }, '✕'),
        svg('title', {}, `release ${ret.release} retired ${ret.names.length}: ${ret.names.join(', ')}`),
      ),
    );
  }
  series.configurations.forEach((c, si) => {
    const color = seriesColor(si);
    const pts = c.success.map((y, i) => ({ x: i, y })).filter((p) => p.y !== null && p.y !== undefined);
    if (pts.length > 1) chart.append(seriesLine(pts, px, py, color));
    for (const p of pts)
      chart.append(
        svg(
          'circle',
          { class: 'point', cx: px(p.x), cy: py(p.y), r: 3.5, fill: color, stroke: color },
          svg('title', {}, `${c.label} · release ${releases[p.x]}: ${fmt(p.y)}`),
        ),
      );
  });
  // Maintenance spend beneath: model calls per release.
  const spend = new Map(series.maintenance.map((m) => [m.release, m]));
  const maxCalls = Math.max(1, ...series.maintenance.map((m) => m.modelCalls));
  chart.append(
    svg(
      'text',
      { x: left, y: barTop - 12, 'text-anchor': 'start', class: 'axis-title' },
      'maintenance model calls per release',
    ),
    svg('line', {
      x1: left,
      x2: left + width,
      y1: barTop + barHeight,
      y2: barTop + barHeight,
      class: 'grid',
    }),
    svg('text', { x: left - 6, y: barTop + 8, 'text-anchor': 'end' }, String(maxCalls)),
    svg('text', { x: left - 6, y: barTop + barHeight, 'text-anchor': 'end' }, '0'),
  );
  const barW = Math.max(3, Math.min(24, (n > 1 ? step : width) * 0.6));
  releases.forEach((r, i) => {
    const m = spend.get(r);
    if (!m) return;
    const h = (m.modelCalls / maxCalls) * barHeight;
    chart.append(
      svg(
        'rect',
        {
          class: 'bar',
          x: px(i) - barW / 2,
          y: barTop + barHeight - h,
          width: barW,
          height: h,
          fill: '#adb5bd',
        },
        svg(
          'title',
          {},
          `release ${r} maintenance: ${m.modelCalls} model calls, ${m.inputTokens + m.outputTokens} tokens, ${(m.wallMs / 1000).toFixed(1)} s`,
        ),
      ),
    );
  });
  return figure(
    title,
    chart,
    [
      ...series.configurations.map((c, i) => ({ label: c.label, color: seriesColor(i) })),
      { label: 'names retired (✕, dashed line)', color: '#868e96' },
      { label: 'maintenance model calls', color: '#adb5bd' },
    ],
    testid,
  );
}
