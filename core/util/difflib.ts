/**
 * Python's `difflib.get_close_matches` with `SequenceMatcher.ratio()` (CPython 3.11), on code points. STE's
 * evaluation maps a predicted API name to the closest of the benchmark's names with it
 * (`get_close_matches(name, names, n=1, cutoff=0.001)`), so the same name must win here, ties included: the best
 * ratio, then the greater string (`heapq.nlargest` over `(score, name)` pairs).
 *
 * Written here because no npm package reproduces CPython's matching blocks (its longest-match search, the
 * "popular element" autojunk heuristic for sequences of 200+ items, and the tie order) exactly.
 */

function codePoints(s: string): string[] {
  return Array.from(s);
}

/** `SequenceMatcher(None, a, b).ratio()`: 2·M / (|a| + |b|), M the size of the matching blocks. */
export function sequenceRatio(aText: string, bText: string): number {
  const a = codePoints(aText);
  const b = codePoints(bText);
  const total = a.length + b.length;
  if (total === 0) return 1;
  return (2 * matchedSize(a, b)) / total;
}

function matchedSize(a: readonly string[], b: readonly string[]): number {
  // b2j: positions of each element of b, without the popular ones when b has 200+ items (autojunk).
  const b2j = new Map<string, number[]>();
  b.forEach((x, j) => {
    const list = b2j.get(x);
    if (list) list.push(j);
    else b2j.set(x, [j]);
  });
  const n = b.length;
  if (n >= 200) {
    const ntest = Math.floor(n / 100) + 1;
    for (const [x, idxs] of [...b2j]) if (idxs.length > ntest) b2j.delete(x);
  }
  const longest = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i] as string) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = next;
    }
    // No element is junk (isjunk is None), so both extensions take any equal neighbours — popular ones too.
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) {
      bestsize++;
    }
    return [besti, bestj, bestsize];
  };
  let size = 0;
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop() as [number, number, number, number];
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (k === 0) continue;
    size += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  return size;
}

/** Python's `str` ordering (code points). */
function pyGreater(x: string, y: string): boolean {
  const a = codePoints(x);
  const b = codePoints(y);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const ca = (a[i] as string).codePointAt(0) as number;
    const cb = (b[i] as string).codePointAt(0) as number;
    if (ca !== cb) return ca > cb;
  }
  return a.length > b.length;
}

/**
 * `difflib.get_close_matches(word, possibilities, n, cutoff)`: the `n` best possibilities whose ratio to `word`
 * is at least `cutoff`, best first (equal ratios: the greater string first).
 */
export function closeMatches(word: string, possibilities: readonly string[], n = 3, cutoff = 0.6): string[] {
  if (!(n > 0)) throw new RangeError(`n must be > 0: ${n}`);
  if (!(cutoff >= 0 && cutoff <= 1)) throw new RangeError(`cutoff must be in [0.0, 1.0]: ${cutoff}`);
  const scored: [number, string][] = [];
  for (const x of possibilities) {
    const r = sequenceRatio(x, word);
    if (r >= cutoff) scored.push([r, x]);
  }
  scored.sort((p, q) =>
    p[0] !== q[0] ? q[0] - p[0] : pyGreater(p[1], q[1]) ? -1 : pyGreater(q[1], p[1]) ? 1 : 0,
  );
  return scored.slice(0, n).map(([, x]) => x);
}
