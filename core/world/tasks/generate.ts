/**
 * Generates the task splits from a world: for every dataset × difficulty group a fixed number of test, dev
 * and train questions, spread evenly over the group's templates, drawn from seeded streams (one per template),
 * de-duplicated by question text, and kept only when the template's reference plan, run through the kernel
 * tools, reaches the gold answer. Same world + same counts → the same tasks, in the same order.
 */
import { Rng } from '../../util/random.ts';
import type { DatasetName, World } from '../types.ts';
import { runReferencePlan } from './reference-plan.ts';
import {
  type Difficulty,
  renderQuestion,
  SPLITS,
  type Split,
  type Task,
  type TaskTemplate,
} from './types.ts';

export type SplitCounts = Record<Split, number>;

/** The spec's test sizes (100 per group, coffee-hard 130) with dev and train pools beside them. */
export function defaultCounts(dataset: DatasetName, difficulty: Difficulty): SplitCounts {
  const test = dataset === 'coffee' && difficulty === 'hard' ? 130 : 100;
  return { test, dev: 50, train: 200 };
}

export interface TemplateStats {
  templateId: string;
  wanted: number;
  accepted: number;
  /** Draws that could not make a question (sample returned null) or repeated an existing question. */
  rejected: number;
  /** Draws whose reference plan did not reach gold: a defect in the template, reported, never kept. */
  planMismatches: { question: string; gold: unknown; answer: unknown }[];
}

export interface GeneratedTasks {
  tasks: Task[];
  stats: TemplateStats[];
}

export interface GenerateOptions {
  counts?: (dataset: DatasetName, difficulty: Difficulty) => SplitCounts;
  /** Only these groups (default: every group that has templates). */
  groups?: { dataset: DatasetName; difficulty: Difficulty }[];
}

/** Splits `total` over `k` templates as evenly as possible (earlier templates get the remainder). */
export function quota(total: number, k: number, i: number): number {
  return Math.floor(total / k) + (i < total % k ? 1 : 0);
}

export async function generateTasks(
  world: World,
  templates: readonly TaskTemplate[],
  options: GenerateOptions = {},
): Promise<GeneratedTasks> {
  const counts = options.counts ?? defaultCounts;
  const groups = new Map<string, TaskTemplate[]>();
  for (const t of templates) {
    const key = `${t.dataset}/${t.difficulty}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const wantedGroups = options.groups?.map((g) => `${g.dataset}/${g.difficulty}`);
  const seen = new Set<string>();
  const tasks: Task[] = [];
  const stats: TemplateStats[] = [];

  for (const [key, group] of groups) {
    if (wantedGroups && !wantedGroups.includes(key)) continue;
    const [dataset, difficulty] = key.split('/') as [DatasetName, Difficulty];
    const groupCounts = counts(dataset, difficulty);
    const bySplit: Record<Split, Task[]> = { train: [], dev: [], test: [] };

    for (let i = 0; i < group.length; i++) {
      const template = group[i] as TaskTemplate;
      const want = Object.fromEntries(
        SPLITS.map((s) => [s, quota(groupCounts[s], group.length, i)]),
      ) as SplitCounts;
      const wanted = want.test + want.dev + want.train;
      const rng = new Rng(`${world.config.seed}/tasks/${template.id}`);
      const stat: TemplateStats = {
        templateId: template.id,
        wanted,
        accepted: 0,
        rejected: 0,
        planMismatches: [],
      };
      const accepted: Omit<Task, 'id' | 'split'>[] = [];
      const maxDraws = wanted * 25 + 100;
      for (let draw = 0; draw < maxDraws && accepted.length < wanted; draw++) {
        const sampled = template.sample({ rng, world });
        if (!sampled) {
          stat.rejected++;
          continue;
        }
        const question = renderQuestion(template.question, sampled.slots);
        if (seen.has(question)) {
          stat.rejected++;
          continue;
        }
        let run: Awaited<ReturnType<typeof runReferencePlan>>;
        try {
          run = await runReferencePlan(world, template, sampled.slots, sampled.gold);
        } catch (err) {
          // A solver that cannot read its observations is as wrong as one that answers wrongly.
          seen.add(question);
          stat.planMismatches.push({
            question,
            gold: sampled.gold,
            answer: `solver error: ${(err as Error).message}`,
          });
          continue;
        }
        if (!run.correct) {
          seen.add(question); // never drawn again, so each failing question is reported once
          stat.planMismatches.push({ question, gold: sampled.gold, answer: run.answer });
          continue;
        }
        seen.add(question);
        accepted.push({
          dataset,
          difficulty,
          templateId: template.id,
          question,
          slots: sampled.slots,
          gold: sampled.gold,
          plan: run.steps,
        });
      }
      stat.accepted = accepted.length;
      stats.push(stat);
      // Test first, so a template that runs short of questions loses train questions before test ones.
      let cursor = 0;
      for (const split of ['test', 'dev', 'train'] as const) {
        const part = accepted.slice(cursor, cursor + want[split]);
        cursor += part.length;
        for (const t of part) bySplit[split].push({ ...t, id: '', split });
      }
    }
    for (const split of SPLITS) {
      bySplit[split].forEach((t, n) => {
        t.id = `${dataset}-${difficulty}-${split}-${String(n).padStart(4, '0')}`;
        tasks.push(t);
      });
    }
  }
  return { tasks, stats };
}
