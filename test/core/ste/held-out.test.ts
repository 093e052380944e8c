/**
 * STE's 15-per-API held-out test queries (`tool_test.json`) are never exploration or demonstration data
 * (issue 23 §3, core/ste/held-out.ts): a trial that imagined a test query is recorded `held-out` and never judged
 * or kept, a paraphrase that reproduces one is dropped, and the test protocol never shows a demonstration whose
 * query is a test query. Each check runs the same script without the held-out keys too, so it fails if the guard
 * were gone.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MockWorld } from '../../../core/apis/mock/index.ts';
import { baseApiSurface } from '../../../core/apis/surface/base.ts';
import type { ApiSurface } from '../../../core/apis/surface/model.ts';
import { toolForOperation } from '../../../core/apis/surface/tools.ts';
import type { ApiCatalog } from '../../../core/apis/types.ts';
import { LexicalEmbeddingModel } from '../../../core/models/lexical.ts';
import type { TextModel } from '../../../core/models/types.ts';
import type { SteDemonstration } from '../../../core/prompts/ste.ts';
import { apiTarget } from '../../../core/sessions/targets.ts';
import { paraphraseCount } from '../../../core/ste/constants.ts';
import { demonstrationsFor } from '../../../core/ste/demonstrations.ts';
import { exploreTool } from '../../../core/ste/engine.ts';
import { runSteTest, steTestQueries } from '../../../core/ste/evaluation.ts';
import { heldOutKey, heldOutKeys, heldOutTest, normalizeQuery } from '../../../core/ste/held-out.ts';
import { ExemplarMemory } from '../../../core/ste/memory.ts';
import { dataText, imported } from '../apis/data.ts';
import { scripted, step } from './scripted.ts';

const file = JSON.parse(
  readFileSync(new URL('../../../data/apis/ste/ft_datasets/tool_test.json', import.meta.url), 'utf8'),
) as Record<string, Record<string, unknown>[]>;
const { queries } = steTestQueries(file);
const KEYS = heldOutKeys(queries.map((q) => q.query));
/** add_date's first test query, as the file writes it. */
const TEST_QUERY = file.add_date![0]!.query as string;

let catalog: ApiCatalog;
let surface: ApiSurface;

beforeAll(async () => {
  catalog = (await imported(dataText('ste/tool_metadata/API_descriptions.json'))).catalog;
  surface = baseApiSurface('ste', catalog, 'STE');
});

function target() {
  return apiTarget({
    api: { id: 'ste', title: 'STE', mode: 'seeded', seed: 'ste', worldSize: 1000, upstream: null },
    server: { kind: 'surface', surface },
    deps: { catalog, world: new MockWorld('ste', catalog, 'ste'), backend: { mode: 'seeded' } },
    now: new Date('2026-06-01T00:00:00Z'),
  });
}

describe('held-out keys', () => {
  it('match a query however it is cased, spaced, quoted or ended, and nothing else', () => {
    expect(KEYS).toHaveLength(new Set(queries.map((q) => normalizeQuery(q.query))).size);
    expect(KEYS.length).toBeGreaterThan(700);
    const held = heldOutTest(KEYS);
    expect(held(TEST_QUERY)).toBe(true);
    expect(held(`  "${TEST_QUERY.toUpperCase().replace(/\?$/, '')}"  `)).toBe(true);
    expect(held(`${TEST_QUERY} Please.`)).toBe(false);
    expect(heldOutTest(undefined)(TEST_QUERY)).toBe(false);
    expect(heldOutKey('a  b?')).toBe(heldOutKey('A b'));
  });
});

describe('STE exploration never keeps a held-out test query', () => {
  const fresh = 'Which day comes 30 days after 2023-01-01?';
  /** Two trials: the first imagines add_date's test query; the second a fresh one. Then judge and paraphrases. */
  function script(tool: string, judged: number): string[] {
    return [
      `User Query: ${TEST_QUERY}`,
      step(tool, '{"date": "2022-10-14", "days": 90}'),
      step('Finish', '{"answer": "2023-01-12"}'),
      'Yes',
      `User Query: ${fresh}`,
      step(tool, '{"date": "2023-01-01", "days": 30}'),
      step('Finish', '{"answer": "2023-01-31"}'),
      'Yes',
      ...Array.from({ length: judged }, () => '1. Yes\n2. Yes\n3. Yes'),
      // Paraphrases of the kept exemplar: one reproduces the test query (other case, no question mark).
      TEST_QUERY.toLowerCase().replace(/\?$/, ''),
      'What date is 30 days past 2023-01-01?',
      'Give the date 30 days after 2023-01-01.',
      'Add 30 days to 2023-01-01: which date?',
      '30 days from 2023-01-01 is which day?',
      'Which date lies 30 days after 2023-01-01?',
      // (without the guard: the paraphrases of the second kept exemplar)
      ...Array.from({ length: 6 }, (_, i) => `Paraphrase ${i} of the test query`),
    ];
  }

  it('records the trial as held-out without a judge call, and drops a paraphrase reproducing a test query', async () => {
    const tool = toolForOperation(
      surface,
      catalog.operations.find((o) => o.operationId === 'add_date')!.name,
    )!;
    const model = scripted(script(tool.name, 1));
    const state = await exploreTool(
      { model, target: target() },
      { tool: tool.name, seed: 'h', episodes: 1, trials: 2, heldOut: KEYS },
    );
    expect(state.phase).toBe('done');
    expect(state.trials.map((t) => t.query)).toEqual([TEST_QUERY, fresh]);
    expect(state.verdicts.map((v) => v.kind)).toEqual(['held-out', 'kept']);
    // Eight exploration calls, one judge call (the fresh trial's, none for the held-out one), the paraphrases.
    expect(model.requests).toHaveLength(8 + 1 + paraphraseCount(1));
    const held = heldOutTest(KEYS);
    expect(state.exemplars.length).toBeGreaterThan(1);
    expect(state.exemplars.filter((e) => held(e.query))).toEqual([]);
    expect(state.exemplars[0]!.query).toBe(fresh);
  });

  it('without the held-out keys the same script keeps the test query (what the guard prevents)', async () => {
    const tool = toolForOperation(
      surface,
      catalog.operations.find((o) => o.operationId === 'add_date')!.name,
    )!;
    const model = scripted(script(tool.name, 2));
    const state = await exploreTool(
      { model, target: target() },
      { tool: tool.name, seed: 'h', episodes: 1, trials: 2, paraphrase: false },
    );
    expect(state.verdicts.map((v) => v.kind)).toEqual(['kept', 'kept']);
    expect(state.exemplars.map((e) => e.query)).toContain(TEST_QUERY);
  });
});

describe('the demonstrations aid never answers a question with itself', () => {
  it('leaves out an exemplar whose query is the question, and still gives k', async () => {
    const exemplar = (query: string, i: number) => ({
      id: `add_date/0.${i}`,
      tool: 'add_date',
      query,
      action: 'add_date',
      actionInput: '{"date": "2022-10-14", "days": 90}',
      observation: '"2023-01-12"',
      finalAnswer: '2023-01-12',
      episode: 0,
      trial: i,
    });
    const memory = new ExemplarMemory(new LexicalEmbeddingModel());
    await memory.add([
      exemplar(TEST_QUERY, 0),
      exemplar('What is the date 30 days from 2022-10-14?', 1),
      exemplar('What is the date 90 days after 2021-01-01?', 2),
      exemplar('Which date is 10 days from 2022-10-14?', 3),
    ]);
    const demos = await demonstrationsFor(memory, TEST_QUERY.toUpperCase(), 3);
    expect(demos).toHaveLength(3);
    expect(demos.map((d) => d.query)).not.toContain(TEST_QUERY);
    // Another question is shown the exemplar (what the filter removed above was the question's own).
    const other = await demonstrationsFor(memory, 'What is the date 90 days from 2022-10-15?', 4);
    expect(other.map((d) => d.query)).toContain(TEST_QUERY);
  });
});

describe("STE's test protocol never shows a test query as a demonstration", () => {
  it('drops a demonstration whose query is a test query, keeps the others', async () => {
    const prompts: string[] = [];
    const model: TextModel = {
      provider: 'test',
      model: 'recorder',
      capabilities: { n: false, logprobs: false, seed: true, embeddings: false, simulated: false },
      async generate(request) {
        prompts.push(request.messages.map((m) => m.content).join('\n'));
        return {
          candidates: [{ text: 'Action: add_date\nAction Input: {}', finishReason: 'stop' }],
          model: 'recorder',
          usage: { calls: 1, inputTokens: 0, outputTokens: 0, latencyMs: 0, costUsd: 0 },
        };
      },
    };
    const other = file.add_date![1]!.query as string;
    const demo = (query: string): SteDemonstration => ({
      query,
      action: 'add_date',
      actionInput: '{"date": "2022-10-14", "days": 90}',
    });
    const asked = queries.filter((q) => q.query === TEST_QUERY);
    const opts = {
      names: ['add_date'],
      stringMatch: new Set(['add_date']),
      judge: async () => false,
      // A leaking source: the test query itself, another test query of the set, and a genuine exemplar.
      demos: async () => [demo(TEST_QUERY), demo(other), demo('What is 5 days after 2020-01-01?')],
    };
    // The queries asked are held out by themselves; the whole test set with `heldOut`.
    await runSteTest(model, asked, opts);
    await runSteTest(model, asked, { ...opts, heldOut: KEYS });
    expect(prompts).toHaveLength(2);
    for (const prompt of prompts) {
      expect(prompt).toContain('What is 5 days after 2020-01-01?');
      // The asked query appears once (as the query), never as a demonstration.
      expect(prompt.split(TEST_QUERY).length - 1).toBe(1);
    }
    expect(prompts[0]).toContain(other);
    expect(prompts[1]).not.toContain(other);
  });
});
