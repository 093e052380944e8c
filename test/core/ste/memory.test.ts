import { describe, expect, it } from 'vitest';
import { LexicalEmbeddingModel } from '../../../core/models/lexical.ts';
import { demonstrationsBlock, demonstrationsFor } from '../../../core/ste/demonstrations.ts';
import type { SteExemplar } from '../../../core/ste/engine.ts';
import { bruteForceTopK, ExemplarMemory, topKDot } from '../../../core/ste/memory.ts';
import { rehearsalCount, rehearsalSample, roundTrainingSet } from '../../../core/ste/rehearsal.ts';
import { Rng } from '../../../core/util/random.ts';

function exemplar(i: number, query: string): SteExemplar {
  return {
    id: `T/${i}.0`,
    tool: 'T',
    query,
    action: `Act${i}`,
    actionInput: `{"k": ${i}}`,
    observation: 'o',
    finalAnswer: 'a',
    episode: i,
    trial: 0,
  };
}

const QUERIES = [
  'Which columns does the "flights" database have?',
  'Which columns does the "coffee" database have?',
  'How many rows of the "flights" database satisfy "Distance>100"?',
  'What does the agenda say about "meeting"?',
  'Using Python, what is "12" times "37"?',
  'Who are the neighbours of "Chao Zhang" in the graph "AuthorNet" of "dblp"?',
  'List the columns of the "yelp" database.',
  'Find paper paragraphs about "accuracy".',
  'Which graphs does the graph data "dblp" hold?',
  'In the "coffee" database, how many records match "Date>=2022-06-01"?',
];

describe('exemplar memory', () => {
  it('retrieves the 8 most similar distinct queries, most similar first', async () => {
    const memory = new ExemplarMemory(new LexicalEmbeddingModel());
    // The first query twice: one exemplar per distinct query (the first is kept).
    await memory.add([exemplar(0, QUERIES[0] as string), ...QUERIES.map((q, i) => exemplar(i + 100, q))]);
    expect(memory.size).toBe(QUERIES.length);
    const got = await memory.retrieve('Which columns does the "airbnb" database have?');
    expect(got).toHaveLength(8);
    expect(new Set(got.map((e) => e.query)).size).toBe(8);
    expect(got.slice(0, 3).every((e) => /columns/.test(e.query))).toBe(true);
    expect(got.find((e) => e.query === QUERIES[0])?.id).toBe('T/0.0');
    expect(await memory.retrieve('x', 3)).toHaveLength(3);
  });

  it('matches the brute-force baseline', () => {
    const rng = new Rng('vectors');
    const d = 32;
    const vectors = Array.from({ length: 300 }, () => Array.from({ length: d }, () => rng.normal()));
    const q = Array.from({ length: d }, () => rng.normal());
    const norm = (v: number[]) => {
      const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
      return v.map((x) => x / n);
    };
    const matrix = new Float32Array(vectors.flatMap(norm));
    const fast = topKDot(matrix, d, new Float32Array(norm(q)), 8);
    const slow = bruteForceTopK(vectors, q, 8);
    expect(fast.map((s) => s.index)).toEqual(slow.map((s) => s.index));
    for (const [i, s] of fast.entries()) expect(s.score).toBeCloseTo((slow[i] as { score: number }).score, 5);
  });

  it('renders demonstrations as query, action and action input separated by ---', async () => {
    const memory = new ExemplarMemory(new LexicalEmbeddingModel());
    await memory.add(QUERIES.slice(0, 2).map((q, i) => exemplar(i, q)));
    const demos = await demonstrationsFor(memory, 'columns of the flights database');
    expect(demos[0]).toEqual({ query: QUERIES[0], action: 'Act0', actionInput: '{"k": 0}' });
    expect(demonstrationsBlock(demos)).toBe(
      `Examples of calls that answered similar queries:\nUser Query: ${QUERIES[0]}\nAction: Act0\nAction Input: {"k": 0}\n---\nUser Query: ${QUERIES[1]}\nAction: Act1\nAction Input: {"k": 1}\n---`,
    );
    expect(await demonstrationsFor(new ExemplarMemory(new LexicalEmbeddingModel()), 'q')).toEqual([]);
  });
});

describe('rehearsal', () => {
  it("replays Python's round(0.1 × n) of each earlier round (data_proc_format.py), halves to even", () => {
    // Halves go to the even neighbour: 4.5 → 4, 5.5 → 6, 2.5 → 2, 3.5 → 4 (where a floor would give 3); 10.4 → 10,
    // 10.6 → 11 (where a floor would give 10).
    expect([45, 55, 104, 106, 25, 35, 3, 0].map((n) => rehearsalCount(n))).toEqual([
      4, 6, 10, 11, 2, 4, 0, 0,
    ]);
    expect(rehearsalCount(10, 1)).toBe(10);
    expect(() => rehearsalCount(10, -0.1)).toThrow(RangeError);
  });

  it('replays 10 % of each earlier round, seeded by the round id', () => {
    const round = (id: string, n: number) => ({
      id,
      exemplars: Array.from({ length: n }, (_, i) => `${id}-${i}`),
    });
    const r1 = round('1', 45);
    const sample = rehearsalSample(r1);
    expect(sample).toHaveLength(4);
    expect(rehearsalSample(r1)).toEqual(sample);
    expect(rehearsalSample(round('1b', 45))).not.toEqual(sample.map((s) => s.replace('1-', '1b-')));
    expect(new Set(sample).size).toBe(4);
    const current = round('3', 5);
    const withReplay = roundTrainingSet(current, [r1, round('2', 20)], { rehearsal: true });
    expect(withReplay).toHaveLength(5 + 4 + 2);
    expect(roundTrainingSet(current, [r1], { rehearsal: false })).toEqual(current.exemplars);
    expect(() => rehearsalSample(r1, 2)).toThrow(RangeError);
  });
});
