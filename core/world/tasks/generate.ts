/**
 * Generates the task splits from a world: for every dataset × difficulty group a fixed number of test, dev
 * and train questions, spread evenly over the group's templates, drawn from seeded streams (one per template),
 * de-duplicated by question text, and kept only when the template's reference plan, run through the kernel
 * tools, reaches the gold answer. Same world + same counts → the same tasks, in the same order.
 *
 * Split sizes (`TASK_SIZES`): `paper` (default) — ToolEvo's Table 6 (spec §10): train 248–1,167 and dev 100 per
 * dataset × difficulty, test 100 (coffee-hard 130), so an exploration can collect data at the paper's volume;
 * `tooldrift` — the earlier 200 train and 50 dev (seeding takes about half the time: what the e2e instance uses).
 *
 * Deliberate differences from ToolQA-D:
 * - GSM8K is not in Table 6: its sizes are 100 test, 50 dev and 200 train under both settings.
 * - A template that runs out of distinct questions makes fewer (the seeding prints each short template), and the
 *   train split loses them first. At scale 1 with the paper's sizes: SciREX-easy 392 of 448 (train 192 of 248),
 *   SciREX-hard 482 of 593 (train 282 of 393) — the corpus states ≈ 390 results —, agenda-hard 900 of 1,000
 *   (H5 has 100 people to ask about) and flights-hard 1,105 of 1,150 (H13: dates with a diverted flight); every
 *   other group is complete. A larger WORLD_SCALE gives SciREX more results.
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

/** ToolEvo's Table 6 (spec §10): train and dev sizes per dataset, `[easy, hard]`. */
const TABLE6: Readonly<
  Record<Exclude<DatasetName, 'gsm8k'>, { train: [number, number]; dev: [number, number] }>
> = {
  flights: { train: [1087, 950], dev: [100, 100] },
  coffee: { train: [804, 1167], dev: [100, 100] },
  yelp: { train: [1097, 793], dev: [100, 100] },
  airbnb: { train: [1000, 818], dev: [100, 100] },
  dblp: { train: [1000, 963], dev: [100, 100] },
  scirex: { train: [248, 393], dev: [100, 100] },
  agenda: { train: [998, 800], dev: [100, 100] },
};

export const TASK_SIZE_SETTINGS = ['paper', 'tooldrift'] as const;
export type TaskSizes = (typeof TASK_SIZE_SETTINGS)[number];

/** The test sizes of spec §1.2: 100 per group, coffee-hard 130. */
function testSize(dataset: DatasetName, difficulty: Difficulty): number {
  return dataset === 'coffee' && difficulty === 'hard' ? 130 : 100;
}

/** Split sizes of a group under a setting (see the module header). */
export function splitCounts(sizes: TaskSizes, dataset: DatasetName, difficulty: Difficulty): SplitCounts {
  const test = testSize(dataset, difficulty);
  if (sizes === 'tooldrift' || dataset === 'gsm8k') return { test, dev: 50, train: 200 };
  const row = TABLE6[dataset];
  const i = difficulty === 'easy' ? 0 : 1;
  return { test, dev: row.dev[i], train: row.train[i] };
}

/** The default split sizes: the paper's (Table 6). */
export function defaultCounts(dataset: DatasetName, difficulty: Difficulty): SplitCounts {
  return splitCounts('paper', dataset, difficulty);
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
