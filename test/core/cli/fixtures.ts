/** An evaluation as GET /v1/evals/{id} returns it (contract in .team/evals-contract.md), for CLI tests. */
import type { EvalDetail } from '../../../cli/api-types.ts';

const columns = (['flights', 'coffee'] as const).flatMap((dataset) =>
  (['easy', 'hard'] as const).map((difficulty) => ({ dataset, difficulty })),
);

function cells(rates: (number | null)[]) {
  return columns.map((c, i) => {
    const rate = rates[i] ?? null;
    return {
      ...c,
      total: 4,
      done: rate === null ? 0 : 4,
      correct: rate === null ? 0 : Math.round(rate * 4),
      successRate: rate,
    };
  });
}

export const TAXONOMY_CATEGORIES = [
  { id: 'invalid-invocation', label: 'Invalid invocation', rule: 'r1' },
  { id: 'deprecated-repeat', label: 'Repeated deprecated call', rule: 'r2' },
  { id: 'looping', label: 'Looping', rule: 'r3' },
  { id: 'incorrect-output', label: 'Incorrect output', rule: 'r4' },
  { id: 'instructions-not-followed', label: 'Instructions not followed', rule: 'r5' },
  { id: 'tool-misuse', label: 'Tool misuse', rule: 'r6' },
];

export function evalDetail(overrides: Partial<EvalDetail> = {}): EvalDetail {
  return {
    id: 'ev_1',
    name: 'nightly',
    status: 'done',
    createdAt: '2026-11-20T03:00:00.000Z',
    finishedAt: '2026-11-20T03:02:05.000Z',
    scheduleId: null,
    dueTime: null,
    progress: { done: 32, total: 32 },
    successRate: 0.5,
    flagged: false,
    suite: {},
    model: { provider: 'sim', name: 'tooldrift-sim-v1', simulated: true },
    columns,
    table: [
      {
        method: 'greedy',
        surface: 'pc',
        cells: cells([1, 0.75, 0.5, 0.25]),
        average: 0.625,
        averageEasy: 0.75,
        averageHard: 0.5,
      },
      {
        method: 'greedy',
        surface: 's-ood',
        cells: cells([0.25, 0, null, null]),
        average: 0.125,
        averageEasy: 0.25,
        averageHard: 0,
      },
    ],
    taxonomy: {
      categories: TAXONOMY_CATEGORIES,
      rows: [
        {
          method: 'greedy',
          surface: 'pc',
          failures: 6,
          runErrors: 0,
          counts: { 'incorrect-output': 4, looping: 2 },
        },
        {
          method: 'greedy',
          surface: 's-ood',
          failures: 7,
          runErrors: 0,
          counts: { 'invalid-invocation': 3, 'deprecated-repeat': 3, 'tool-misuse': 1 },
        },
      ],
    },
    usage: { modelCalls: 120, inputTokens: 50_000, outputTokens: 4_000, latencyMs: 2_500 },
    comparison: null,
    ...overrides,
  };
}
