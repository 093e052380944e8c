import { describe, expect, it } from 'vitest';
import { CATALOG_CAPACITY, syntheticCatalog } from '../../../core/retrieval/catalog.ts';
import { ToolSchema } from '../../../core/retrieval/types.ts';

describe('synthetic tool catalog', () => {
  it('reaches 100,000 distinct tools across many domains', () => {
    expect(CATALOG_CAPACITY).toBeGreaterThanOrEqual(100_000);
    const { tools } = syntheticCatalog({ tools: 100_000, seenTools: 10, dev: 5, testSeen: 5, testUnseen: 5 });
    expect(tools).toHaveLength(100_000);
    expect(new Set(tools.map((t) => t.name)).size).toBe(100_000);
    expect(new Set(tools.map((t) => t.domain)).size).toBeGreaterThanOrEqual(25);
    expect(new Set(tools.map((t) => t.description)).size).toBeGreaterThan(90_000);
    for (const { domain: _, ...tool } of tools.slice(0, 50))
      expect(() => ToolSchema.parse(tool)).not.toThrow();
  });

  const options = {
    tools: 3_000,
    seenTools: 300,
    trainPerTool: 3,
    dev: 100,
    testSeen: 100,
    testUnseen: 100,
  };
  const catalog = syntheticCatalog(options);

  it('is a pure function of the seed', () => {
    const again = syntheticCatalog(options);
    expect(again.train).toEqual(catalog.train);
    expect(again.tools).toEqual(catalog.tools);
    const other = syntheticCatalog({ seed: 'other', tools: 3_000, seenTools: 300, dev: 100 });
    expect(other.tools.map((t) => t.name)).not.toEqual(catalog.tools.map((t) => t.name));
  });

  it('splits seen and unseen tools, and never repeats a training query’s wording in dev or test', () => {
    expect(catalog.train).toHaveLength(900);
    const trained = new Set(catalog.train.flatMap((q) => q.tools));
    expect(trained).toEqual(catalog.seen);
    for (const q of [...catalog.dev, ...catalog.testSeen])
      expect(catalog.seen.has(q.tools[0] as string)).toBe(true);
    for (const q of catalog.testUnseen) expect(catalog.seen.has(q.tools[0] as string)).toBe(false);
    const trainText = new Set(catalog.train.map((q) => q.query));
    for (const q of [...catalog.dev, ...catalog.testSeen, ...catalog.testUnseen])
      expect(trainText.has(q.query)).toBe(false);
  });

  it('phrases one tool’s queries in several ways', () => {
    const byTool = new Map<string, string[]>();
    for (const q of catalog.train)
      byTool.set(q.tools[0] as string, [...(byTool.get(q.tools[0] as string) ?? []), q.query]);
    const distinctFirstWords = new Set(catalog.train.map((q) => q.query.split(' ')[0]));
    expect(distinctFirstWords.size).toBeGreaterThan(20);
    for (const texts of byTool.values()) expect(new Set(texts).size).toBe(texts.length);
  });
});
