import { describe, expect, it } from 'vitest';
import { answerMatches } from '../../../core/world/answer-match.ts';
import { defaultCounts, generateTasks, quota, splitCounts } from '../../../core/world/tasks/generate.ts';
import { runReferencePlan } from '../../../core/world/tasks/reference-plan.ts';
import { TASK_TEMPLATES, templateById } from '../../../core/world/tasks/registry.ts';
import { patternSlots, renderQuestion, type Task } from '../../../core/world/tasks/types.ts';
import { ContentHash, generateWorld } from '../../../core/world/world.ts';

/** Two tasks per template in the test split, none in the others. */
const twoPerTemplate = (dataset: string, difficulty: string) => {
  const k = TASK_TEMPLATES.filter((t) => t.dataset === dataset && t.difficulty === difficulty).length;
  return { test: 2 * k, dev: 0, train: 0 };
};

const hashTasks = (tasks: Task[]) => new ContentHash().update(JSON.stringify(tasks)).digest();

describe('task templates', () => {
  it('have unique ids, distinct patterns, and use every slot they sample', () => {
    const ids = TASK_TEMPLATES.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    const patterns = TASK_TEMPLATES.map((t) => t.question);
    expect(new Set(patterns).size).toBe(patterns.length);
    for (const t of TASK_TEMPLATES) expect(patternSlots(t.question).length, t.id).toBeGreaterThan(0);
  });
});

describe.each(['seed-one', 'seed-two'])('generated tasks (world %s)', (seed) => {
  const world = generateWorld({ seed, scale: 1 });
  let generated: Awaited<ReturnType<typeof generateTasks>>;

  it('fill every template with questions whose reference plans reach gold', async () => {
    generated = await generateTasks(world, TASK_TEMPLATES, { counts: twoPerTemplate as never });
    for (const s of generated.stats) {
      expect(s.planMismatches, s.templateId).toEqual([]);
      expect(s.accepted, s.templateId).toBe(s.wanted);
    }
    expect(generated.tasks).toHaveLength(TASK_TEMPLATES.length * 2);
  }, 300_000);

  it('re-executing each stored plan through the kernel gives the same observations and a correct Finish', async () => {
    for (const task of generated.tasks) {
      const template = templateById(task.templateId);
      if (!template) throw new Error(task.templateId);
      expect(renderQuestion(template.question, task.slots)).toBe(task.question);
      const run = await runReferencePlan(world, template, task.slots, task.gold);
      expect(run.correct, task.question).toBe(true);
      expect(answerMatches(task.gold, run.answer)).toBe(true);
      expect(run.steps).toEqual(task.plan);
    }
  }, 300_000);
});

describe('splits', () => {
  it('are the same for the same seed and differ for another seed', async () => {
    const counts = () => ({ test: 3, dev: 1, train: 1 });
    const groups = [{ dataset: 'coffee' as const, difficulty: 'hard' as const }];
    const a = await generateTasks(generateWorld({ seed: 's', scale: 0.2 }), TASK_TEMPLATES, {
      counts,
      groups,
    });
    const b = await generateTasks(generateWorld({ seed: 's', scale: 0.2 }), TASK_TEMPLATES, {
      counts,
      groups,
    });
    const c = await generateTasks(generateWorld({ seed: 't', scale: 0.2 }), TASK_TEMPLATES, {
      counts,
      groups,
    });
    expect(hashTasks(b.tasks)).toBe(hashTasks(a.tasks));
    expect(hashTasks(c.tasks)).not.toBe(hashTasks(a.tasks));
    expect(a.tasks.filter((t) => t.split === 'test').map((t) => t.id)).toEqual([
      'coffee-hard-test-0000',
      'coffee-hard-test-0001',
      'coffee-hard-test-0002',
    ]);
    const questions = a.tasks.map((t) => t.question);
    expect(new Set(questions).size).toBe(questions.length);
  }, 120_000);

  it('spread a group over its templates evenly and follow the spec sizes', () => {
    expect([0, 1, 2].map((i) => quota(10, 3, i))).toEqual([4, 3, 3]);
    expect(defaultCounts('coffee', 'hard').test).toBe(130);
    expect(defaultCounts('flights', 'easy').test).toBe(100);
  });

  it("default to ToolEvo's Table 6 sizes (issue 25 item 6, spec §10); tooldrift's 200/50 stay an option", () => {
    // Table 6 as the paper prints it: train easy/hard, dev easy/hard, test easy/hard.
    const table6: Record<string, number[]> = {
      flights: [1087, 950, 100, 100, 100, 100],
      coffee: [804, 1167, 100, 100, 100, 130],
      yelp: [1097, 793, 100, 100, 100, 100],
      airbnb: [1000, 818, 100, 100, 100, 100],
      dblp: [1000, 963, 100, 100, 100, 100],
      scirex: [248, 393, 100, 100, 100, 100],
      agenda: [998, 800, 100, 100, 100, 100],
    };
    for (const [dataset, [te, th, de, dh, se, sh]] of Object.entries(table6)) {
      const d = dataset as Parameters<typeof defaultCounts>[0];
      expect(defaultCounts(d, 'easy'), dataset).toEqual({ train: te, dev: de, test: se });
      expect(defaultCounts(d, 'hard'), dataset).toEqual({ train: th, dev: dh, test: sh });
      expect(splitCounts('paper', d, 'hard')).toEqual(defaultCounts(d, 'hard'));
      expect(splitCounts('tooldrift', d, 'easy')).toEqual({ train: 200, dev: 50, test: 100 });
    }
    expect(splitCounts('tooldrift', 'coffee', 'hard')).toEqual({ train: 200, dev: 50, test: 130 });
    // GSM8K is not in Table 6: tooldrift's sizes under both settings.
    expect(defaultCounts('gsm8k', 'easy')).toEqual({ train: 200, dev: 50, test: 100 });
  });
});
