import { describe, expect, it } from 'vitest';
import { planGroups, sampleTaskIds } from '../../../core/evals/plan.ts';
import { DEFAULT_EVAL_DATASETS, EvalSuiteSchema } from '../../../core/evals/suite.ts';
import { checkCron, latestDueIn, nextDue } from '../../../core/util/cron.ts';

describe('evaluation suites', () => {
  it('fills defaults: greedy over pc, s-in, s-ood on the seven ToolQA-D datasets, easy and hard, 5 test tasks', () => {
    const suite = EvalSuiteSchema.parse({});
    expect(suite).toMatchObject({
      methods: ['greedy'],
      surfaces: ['pc', 's-in', 's-ood'],
      promptSurface: 'pc',
      difficulties: ['easy', 'hard'],
      split: 'test',
      sampleSize: 5,
      seed: '0',
      mcts: { simulations: 8, k: 3, maxDepth: 15 },
    });
    expect(suite.datasets).toEqual([...DEFAULT_EVAL_DATASETS]);
    expect(suite.datasets).toHaveLength(7);
  });

  it('rejects duplicates, unknown values and suites too large to run, naming the field', () => {
    const paths = (input: unknown) => {
      const r = EvalSuiteSchema.safeParse(input);
      return r.success ? [] : r.error.issues.map((i) => i.path.join('/'));
    };
    expect(paths({ surfaces: ['pc', 'pc'] })).toEqual(['surfaces']);
    expect(paths({ methods: ['beam'] })).toEqual(['methods/0']);
    expect(paths({ sampleSize: 0 })).toEqual(['sampleSize']);
    expect(paths({ surfaces: ['PC!'] })).toEqual(['surfaces/0']);
    expect(paths({ extra: true })).toEqual(['']);
    expect(paths({ methods: ['greedy', 'mcts'], sampleSize: 100, surfaces: ['a', 'b', 'c', 'd'] })).toEqual([
      'sampleSize',
    ]);
  });
});

describe('evaluation plans', () => {
  const ids = Array.from({ length: 30 }, (_, i) => `t${String(i).padStart(2, '0')}`);

  it('samples the same tasks for the same seed, in sorted order, and all of them when there are few', () => {
    const a = sampleTaskIds([...ids].reverse(), 5, 's', 'coffee/easy/test');
    expect(a).toEqual(sampleTaskIds(ids, 5, 's', 'coffee/easy/test'));
    expect(a).toEqual([...a].sort());
    expect(new Set(a).size).toBe(5);
    expect(sampleTaskIds(ids, 5, 'other', 'coffee/easy/test')).not.toEqual(a);
    expect(sampleTaskIds(ids.slice(0, 3), 5, 's', 'x')).toEqual(ids.slice(0, 3));
  });

  it('groups method × surface × cell, with every surface and method running the same tasks', () => {
    const suite = EvalSuiteSchema.parse({
      methods: ['greedy', 'mcts'],
      datasets: ['coffee', 'dblp'],
      sampleSize: 3,
    });
    const groups = planGroups(suite, (dataset, difficulty) =>
      dataset === 'dblp' && difficulty === 'hard' ? [] : ids.map((id) => `${dataset}-${difficulty}-${id}`),
    );
    // dblp hard has no tasks: 3 cells × 3 surfaces × 2 methods.
    expect(groups).toHaveLength(18);
    expect(groups[0]).toMatchObject({
      method: 'greedy',
      surface: 'pc',
      dataset: 'coffee',
      difficulty: 'easy',
    });
    const tasksOf = (m: string, s: string) =>
      groups.filter((g) => g.method === m && g.surface === s).flatMap((g) => g.taskIds);
    expect(tasksOf('mcts', 's-ood')).toEqual(tasksOf('greedy', 'pc'));
    expect(tasksOf('greedy', 'pc')).toHaveLength(9);
  });
});

describe('cron expressions', () => {
  it('accepts five-field expressions and explains what is wrong with others', () => {
    expect(checkCron('0 3 * * *')).toEqual({ ok: true });
    expect(checkCron('*/5 * * * 1-5')).toEqual({ ok: true });
    expect(checkCron('0 0 * * * *')).toEqual({
      ok: false,
      message: 'a cron expression has five fields (minute hour day-of-month month day-of-week), got 6',
    });
    const bad = checkCron('61 * * * *');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toMatch(/minute/);
  });

  it('finds due times in UTC', () => {
    const at = (h: number, m = 0, d = 21) => Date.UTC(2026, 10, d, h, m);
    expect(nextDue('0 3 * * *', at(2, 59))).toBe(at(3));
    expect(nextDue('0 3 * * *', at(3))).toBe(at(3, 0, 22));
    // The latest due time in (after, until]: both ends matter.
    expect(latestDueIn('0 3 * * *', at(2, 55), at(3))).toBe(at(3));
    expect(latestDueIn('0 3 * * *', at(3), at(3, 5))).toBeNull();
    expect(latestDueIn('* * * * *', at(3), at(3, 5))).toBe(at(3, 5));
  });
});
