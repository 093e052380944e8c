/**
 * Held-out splits of query files (core/retrieval/splits.ts): the unseen-tool split made from a training file
 * keeps every query naming a held-out tool out of training, and the query hold-out partitions a file; both seeded.
 */
import { describe, expect, it } from 'vitest';
import { holdOutQueries, holdOutTools } from '../../../core/retrieval/splits.ts';
import type { QueryExample } from '../../../core/retrieval/types.ts';

const q = (query: string, ...tools: string[]): QueryExample => ({ query, tools });
const train = Array.from({ length: 60 }, (_, i) =>
  q(`train ${i}`, `t${i % 20}`, ...(i % 7 === 0 ? ['t3'] : [])),
);
const dev = Array.from({ length: 30 }, (_, i) => q(`dev ${i}`, `t${(i * 3) % 25}`));

describe('holdOutTools', () => {
  it('holds out a share of the tools training names, with every training and dev query naming one', () => {
    const split = holdOutTools(train, dev, 0.25, 's');
    expect(split.tools).toHaveLength(5);
    const held = new Set(split.tools);
    const names = (qs: QueryExample[]) => qs.flatMap((x) => x.tools);
    expect(names(split.train).some((t) => held.has(t))).toBe(false);
    expect(names(split.seen).some((t) => held.has(t))).toBe(false);
    // Each query lands in exactly one of train / seen / unseen.
    expect(split.train.length + split.seen.length + split.unseen.length).toBe(train.length + dev.length);
    for (const x of split.unseen) expect(x.tools.some((t) => held.has(t))).toBe(true);
    // Only tools training names are held out: t20–t24 (dev only) never are.
    for (const t of split.tools) expect(Number(t.slice(1))).toBeLessThan(20);
  });

  it('is seeded', () => {
    expect(holdOutTools(train, dev, 0.25, 's')).toEqual(holdOutTools(train, dev, 0.25, 's'));
    expect(holdOutTools(train, dev, 0.25, 't').tools).not.toEqual(holdOutTools(train, dev, 0.25, 's').tools);
    expect(holdOutTools(train, dev, 0, 's')).toMatchObject({ tools: [], unseen: [], train, seen: dev });
  });
});

describe('holdOutQueries', () => {
  it('partitions the queries: a seeded share held out, the rest in their order', () => {
    const { train: kept, test } = holdOutQueries(train, 0.2, 'k');
    expect(test).toHaveLength(12);
    expect(kept).toHaveLength(48);
    expect(new Set([...kept, ...test])).toEqual(new Set(train));
    expect(kept).toEqual(train.filter((x) => !test.includes(x)));
    expect(holdOutQueries(train, 0.2, 'k')).toEqual({ train: kept, test });
    expect(holdOutQueries(train, 0.2, 'other').test).not.toEqual(test);
  });
});
