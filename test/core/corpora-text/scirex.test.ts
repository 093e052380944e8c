import { beforeAll, describe, expect, it } from 'vitest';
import { hash128, Rng } from '../../../core/util/random.ts';
import {
  cleanScirexScore,
  generateScirex,
  scirexCanonical,
  scirexTokenize,
} from '../../../core/world/corpora/scirex.ts';
import type { ScirexCorpus, ScirexResult } from '../../../core/world/types.ts';

const fingerprint = (c: ScirexCorpus) => hash128(JSON.stringify(c)).join('-');

/** Letters and digits only, lower-cased: how a name and its tokenised prose form can be matched. */
const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

function groups(
  results: readonly ScirexResult[],
  key: (r: ScirexResult) => string,
): Map<string, ScirexResult[]> {
  const out = new Map<string, ScirexResult[]>();
  for (const r of results) {
    const k = key(r);
    out.set(k, [...(out.get(k) ?? []), r]);
  }
  return out;
}

/** Groups of the "highest" templates that have ≥ 2 tuples whose scores all clean to numbers. */
function highestGroups(results: readonly ScirexResult[], key: (r: ScirexResult) => string): ScirexResult[][] {
  return [...groups(results, key).values()].filter(
    (g) => g.length >= 2 && g.every((r) => typeof cleanScirexScore(r.score) === 'number'),
  );
}

describe('SciREX text conventions', () => {
  it('derives canonical names the SciREX way', () => {
    expect(scirexCanonical('Penn Treebank (Word Level)')).toBe('Penn_Treebank__Word_Level_');
    expect(scirexCanonical('% Test Accuracy')).toBe('__Test_Accuracy');
    expect(scirexCanonical('MT-DNN')).toBe('MT-DNN');
    expect(scirexCanonical("Atari 2600 Montezuma's Revenge")).toBe('Atari_2600_Montezuma_s_Revenge');
    expect(scirexCanonical('Yelp Fine-grained classification')).toBe('Yelp_Fine-grained_classification');
    expect(scirexCanonical('Mean IoU')).toBe('Mean_IoU');
  });

  it('tokenises like SciREX, keeping decimals together, and is idempotent', () => {
    expect(scirexTokenize('F-measure 87.73%.')).toBe('F - measure 87.73 % .');
    expect(scirexTokenize("On Atari 2600 Montezuma's Revenge, it wins [reference].")).toBe(
      "On Atari 2600 Montezuma 's Revenge , it wins [ reference ] .",
    );
    expect(scirexTokenize('SQuAD1.1 (dev): 22M params.')).toBe('SQuAD1.1 ( dev ) : 22M params .');
    const once = scirexTokenize('Results on CNN / Daily Mail: ROUGE-1 of 41.2 and P@10% of 80.1.');
    expect(scirexTokenize(once)).toBe(once);
  });

  it('cleans scores as the hard-question generator did', () => {
    expect(cleanScirexScore('94.73')).toBe(94.73);
    expect(cleanScirexScore('-21')).toBe(-21);
    expect(cleanScirexScore('82.0%')).toBe('82.0%');
    expect(cleanScirexScore('22M')).toBe('22M');
    expect(cleanScirexScore('190k')).toBe('190k');
    expect(cleanScirexScore('---')).toBe('-');
    expect(cleanScirexScore('\ufeff1,5')).toBe(1.5);
    expect(cleanScirexScore('')).toBe('');
    expect(cleanScirexScore(0.438)).toBe(0.438);
  });
});

describe('generateScirex at scale 1', () => {
  let c: ScirexCorpus;
  beforeAll(() => {
    c = generateScirex(new Rng('scirex-test'), 1);
  });

  it('is deterministic per seed and differs across seeds', () => {
    expect(fingerprint(generateScirex(new Rng('scirex-test'), 1))).toBe(fingerprint(c));
    expect(fingerprint(generateScirex(new Rng('scirex-other'), 1))).not.toBe(fingerprint(c));
  });

  it('has ≥ 400 section passages in SciREX token style', () => {
    expect(c.passages.length).toBeGreaterThanOrEqual(400);
    c.passages.forEach((p, i) => {
      expect(p.id).toBe(`scirex-${String(i).padStart(4, '0')}`);
      expect(p.text).toMatch(/^(section|subsection|paragraph|document) : \S/);
      expect(p.text).toBe(scirexTokenize(p.text));
      expect(p.text).not.toMatch(/[A-Za-z][,;:()[\]%]|[,;:()[\]%][A-Za-z]/);
    });
    const lengths = c.passages.map((p) => p.text.split(' ').length);
    expect(Math.min(...lengths)).toBeLessThan(30);
    expect(Math.max(...lengths)).toBeGreaterThan(80);
    expect(Math.max(...lengths)).toBeLessThan(1024);
    expect(c.passages.some((p) => p.text.startsWith('section : Title '))).toBe(true);
    expect(c.passages.some((p) => p.text.startsWith('section : Experiments'))).toBe(true);
  });

  it('uses canonical names and SciREX score forms in its tuples', () => {
    expect(c.results.length).toBeGreaterThan(250);
    for (const r of c.results) {
      for (const name of [r.material, r.method, r.metric, r.task]) expect(name).toMatch(/^[A-Za-z0-9_-]+$/);
    }
    const scores = c.results.map((r) => r.score);
    expect(scores.some((s) => typeof s === 'string' && /^\d+\.\d+$/.test(s))).toBe(true);
    expect(scores.some((s) => typeof s === 'string' && s.endsWith('%'))).toBe(true);
    expect(scores.some((s) => typeof s === 'string' && /^\d+(\.\d)?M$/.test(s))).toBe(true);
    expect(scores.some((s) => typeof s === 'number')).toBe(true);
    expect(c.results.some((r) => r.material === 'Penn_Treebank__Word_Level_')).toBe(true);
  });

  it('gives the easy template one answer: (method, metric, material, task) is a key', () => {
    const keys = new Set(c.results.map((r) => `${r.method}|${r.metric}|${r.material}|${r.task}`));
    expect(keys.size).toBe(c.results.length);
    const paperOfMethod = new Map<string, string>();
    for (const r of c.results) {
      expect(paperOfMethod.get(r.method) ?? r.paperId).toBe(r.paperId);
      paperOfMethod.set(r.method, r.paperId);
    }
  });

  it('states every tuple in one passage together with its task', () => {
    const passagesOfPaper = new Map<string, string[]>();
    let start = 0;
    // Each paper's passages are contiguous and begin with its title passage.
    c.passages.forEach((p, i) => {
      if (p.text.startsWith('section : Title ') && i > 0) start = i;
      const list = passagesOfPaper.get(String(start)) ?? [];
      list.push(squash(p.text));
      passagesOfPaper.set(String(start), list);
    });
    const all = [...passagesOfPaper.values()];
    for (const r of c.results) {
      const parts = [r.method, r.material, r.metric, r.task, String(r.score)].map(squash);
      const stated = all.some((paper) => paper.some((text) => parts.every((part) => text.includes(part))));
      expect(stated, JSON.stringify(r)).toBe(true);
    }
  });

  it('makes the "highest" templates answerable with a unique maximum', () => {
    const h1 = highestGroups(c.results, (r) => `${r.method}|${r.metric}|${r.task}`);
    const h2 = highestGroups(c.results, (r) => `${r.material}|${r.metric}|${r.task}`);
    expect(h1.length).toBeGreaterThanOrEqual(20);
    expect(h2.length).toBeGreaterThanOrEqual(20);
    for (const g of [...h1, ...h2]) {
      const values = g.map((r) => cleanScirexScore(r.score) as number).sort((a, b) => b - a);
      expect(values[0]).toBeGreaterThan(values[1] as number);
    }
    // H1 groups vary the dataset, H2 groups vary the method.
    for (const g of h1) expect(new Set(g.map((r) => r.material)).size).toBe(g.length);
    for (const g of h2) expect(new Set(g.map((r) => r.method)).size).toBe(g.length);
  });
});

describe('generateScirex at other scales', () => {
  it('works at scale 0.1 and 4', () => {
    const small = generateScirex(new Rng('s'), 0.1);
    expect(small.passages.length).toBeGreaterThan(50);
    expect(small.results.length).toBeGreaterThan(20);
    const big = generateScirex(new Rng('b'), 4);
    expect(big.passages.length).toBeGreaterThan(3000);
    expect(new Set(big.results.map((r) => `${r.method}|${r.metric}|${r.material}|${r.task}`)).size).toBe(
      big.results.length,
    );
    expect(big.passages[big.passages.length - 1]?.id).toMatch(/^scirex-\d{4,}$/);
    // Rarer score forms appear in a large world: frame counts like `190k`.
    expect(big.results.some((r) => typeof r.score === 'string' && /^\d+k$/.test(r.score))).toBe(true);
  });
});
