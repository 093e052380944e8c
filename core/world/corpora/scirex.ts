/**
 * The synthetic SciREX corpus (spec §2.6): machine-learning papers split into section passages written in
 * SciREX's token style (every punctuation mark separated by spaces, headers like `section : Experiments`), and
 * the n-ary result tuples (Material, Method, Metric, Task, score) the papers report, with SciREX's underscore
 * canonical names (`Penn_Treebank__Word_Level_`, `Mean_IoU`, `__Test_Accuracy`).
 *
 * Invariants the task generator relies on (§7.13, §7.14):
 * - Passage ids are `scirex-0000`, `scirex-0001`, … in paper order; each paper's passages are contiguous.
 * - Each tuple is stated in a results passage of its paper that contains the method, the dataset, the metric,
 *   the task and the score (in display form, tokenised: `Penn Treebank ( Word Level )`, `82.0 %`).
 * - (Method, Metric, Material, Task) identifies one tuple, so the easy question has one answer.
 * - A method belongs to one paper; method names are unique across papers.
 * - For one (Task, Metric), the numeric values of all scores are pairwise distinct, so every "highest" group
 *   (H1: same Method+Metric+Task; H2: same Material+Metric+Task) has a unique maximum. Use only groups whose
 *   scores all clean to numbers (`cleanScirexScore`), as strings such as `82.0%` or `22M` are not comparable.
 * - Within a paper, (Material, Method, Task) has distinct metrics (H3) and (Method, Metric, Task) has distinct
 *   materials (H1); every paper evaluates its method on 1–4 datasets of one task.
 * - Scores are strings (`94.73`, `82.0%`, `22M`, `190k`, `-21`) or, rarely, JSON numbers (`0.438`).
 *
 * Deliberate differences from ToolQA-D: none in the data model. Real SciREX relations can repeat a tuple key
 * with different scores; here keys are unique so that every generated question has one gold answer.
 */
import type { Rng } from '../../util/random.ts';
import type { Passage, ScirexCorpus, ScirexResult } from '../types.ts';
import {
  METHOD_COMPONENTS,
  METHOD_CORES,
  METHOD_PREFIXES,
  SCIREX_FILLER,
  SCIREX_TASKS,
  type ScirexMetric,
  type ScirexTask,
} from './vocab/scirex-terms.ts';

/** Papers at scale 1 (SciREX has 438 documents; ours are shorter and each yields 7–12 passages). */
export const SCIREX_PAPERS_AT_SCALE_1 = 110;

/** SciREX canonical form of a display name: every character other than a letter, digit or `-` becomes `_`. */
export function scirexCanonical(display: string): string {
  return display.replace(/[^A-Za-z0-9-]/g, '_');
}

/**
 * SciREX token style: punctuation separated by single spaces (`F - measure 87.73 %`, `[ reference ]`,
 * `Montezuma 's Revenge`); decimal points inside numbers and names (`94.73`, `SQuAD1.1`) stay attached.
 * Idempotent.
 */
export function scirexTokenize(text: string): string {
  return text
    .replace(/'s\b/g, " 's")
    .replace(/([A-Za-z0-9])-(?=[A-Za-z0-9])/g, '$1 - ')
    .replace(/\.(?!\d)|(?<![A-Za-z0-9])\./g, ' . ')
    .replace(/[()[\],;:!?"%/@=+]/g, ' $& ')
    .replace(/'(?!s\b)/g, " ' ")
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A score as ToolQA's hard-question generator cleaned it (spec §7.14): `---` → `-`, BOM removed, `,` → `.`, then
 * converted to a number unless it contains `±`, `/`, `%`, `m`, `M`, `k`, `K`, `B`, or is `-` or empty. Strings
 * that would not parse as a Python float are returned unchanged (the original would have failed on them).
 */
export function cleanScirexScore(score: string | number): string | number {
  if (typeof score === 'number') return score;
  let s = score === '---' ? '-' : score;
  s = s.replace(/\ufeff/g, '').replace(/,/g, '.');
  if (s === '-' || s === '' || /[±/%mMkKB]/.test(s)) return s;
  return /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(s) ? Number(s) : s;
}

export function generateScirex(rng: Rng, scale: number): ScirexCorpus {
  if (!(scale > 0)) throw new RangeError(`generateScirex: scale must be > 0, got ${scale}`);
  const paperCount = Math.max(12, Math.round(SCIREX_PAPERS_AT_SCALE_1 * scale));
  const plans = planPapers(rng.fork('papers'), paperCount);
  const prose = rng.fork('prose');
  const passages: Passage[] = [];
  const results: ScirexResult[] = [];
  const methodsByTask = new Map<ScirexTask, string[]>();
  for (const plan of plans) {
    const earlier = methodsByTask.get(plan.task) ?? [];
    for (const text of writePaper(prose, plan, earlier)) {
      passages.push({ id: `scirex-${String(passages.length).padStart(4, '0')}`, text });
    }
    earlier.push(plan.method);
    methodsByTask.set(plan.task, earlier);
    for (const t of plan.tuples) {
      results.push({
        paperId: plan.paperId,
        material: scirexCanonical(t.material),
        method: scirexCanonical(t.method),
        metric: scirexCanonical(t.metric.name),
        task: scirexCanonical(plan.task.name),
        score: t.score,
      });
    }
  }
  return { passages, results };
}

// ---------------------------------------------------------------------------------------------------------------
// Planning: which paper reports which results

interface PlannedTuple {
  material: string;
  method: string;
  metric: ScirexMetric;
  score: string | number;
  /** The score as written in the prose. */
  text: string;
}

interface PaperPlan {
  paperId: string;
  task: ScirexTask;
  method: string;
  materials: string[];
  tuples: PlannedTuple[];
}

function planPapers(rng: Rng, count: number): PaperPlan[] {
  const tasks = SCIREX_TASKS;
  // Every task gets a paper before any gets a second one, so small worlds still cover many tasks.
  const order = rng.shuffle(tasks);
  const taskOf = Array.from({ length: count }, (_, i) =>
    i < order.length
      ? (order[i] as ScirexTask)
      : rng.weighted(
          tasks,
          tasks.map((t) => t.weight ?? 1),
        ),
  );
  const usedMethods = new Set<string>();
  const usedValues = new Map<string, Set<number>>();
  const levels = new Map<string, number>();
  const paperIds = new Set<string>();
  return taskOf.map((task) => {
    let paperId = hex(rng, 40);
    while (paperIds.has(paperId)) paperId = hex(rng, 40);
    paperIds.add(paperId);
    const method = inventMethod(rng, task, usedMethods);
    const materials = weightedSubset(rng, task.materials, rng.weighted([1, 2, 3, 4], [3, 4, 3, 2]));
    const metrics = weightedSubset(rng, task.metrics, rng.weighted([1, 2, 3], [5, 4, 2]));
    const percentStyle = rng.chance(0.15);
    // How strong this paper is relative to the usual level on a dataset; shared by all its metrics.
    const quality = rng.normal(0, 0.05);
    // The paper's method, sometimes with a variant (ensemble, larger model) reported on its first dataset.
    const methods = [method];
    if (rng.chance(0.2)) {
      const variant = `${method}${rng.pick([' (ensemble)', '-Large', ' + pretraining', '-Base'])}`;
      if (!usedMethods.has(scirexCanonical(variant))) {
        usedMethods.add(scirexCanonical(variant));
        methods.push(variant);
      }
    }
    const tuples: PlannedTuple[] = [];
    for (const material of materials) {
      for (const [mi, metric] of metrics.entries()) {
        // Secondary metrics are sometimes not reported on every dataset; the first always is.
        if (mi > 0 && rng.chance(0.2)) continue;
        for (const [vi, m] of methods.entries()) {
          if (vi > 0 && material !== materials[0]) continue;
          const key = `${task.name}\u0000${metric.name}`;
          const taken = usedValues.get(key) ?? new Set<number>();
          usedValues.set(key, taken);
          // A dataset's usual level (its difficulty) is shared by every paper reporting on it.
          const levelKey = `${task.name}\u0000${material}`;
          let level = levels.get(levelKey);
          if (level === undefined) {
            level = rng.float(0.3, 0.8);
            levels.set(levelKey, level);
          }
          const strength = metric.independent ? rng.next() : level + quality + (vi > 0 ? 0.02 : 0);
          tuples.push({
            material,
            method: m,
            metric,
            ...drawScore(rng, metric, strength, percentStyle, taken),
          });
        }
      }
    }
    return { paperId, task, method, materials, tuples };
  });
}

/** k distinct items, earlier items (the popular benchmarks) more likely, returned in vocabulary order. */
function weightedSubset<T>(rng: Rng, items: readonly T[], k: number): T[] {
  const pool = items.map((item, i) => ({ item, i, w: 1 / (1 + i * 0.5) }));
  const chosen: { item: T; i: number }[] = [];
  while (chosen.length < Math.min(k, items.length)) {
    const pick = rng.weighted(
      pool,
      pool.map((p) => p.w),
    );
    chosen.push(pick);
    pool.splice(pool.indexOf(pick), 1);
  }
  return chosen.sort((a, b) => a.i - b.i).map((c) => c.item);
}

/** A score for a model of the given strength (0 = weakest, 1 = strongest on the metric's range). */
function drawScore(
  rng: Rng,
  metric: ScirexMetric,
  strength: number,
  percentStyle: boolean,
  taken: Set<number>,
): { score: string | number; text: string } {
  const [lo, hi] = metric.range;
  const decimals = rng.pick(metric.decimals);
  const unit = 10 ** -decimals;
  let value = Number.NaN;
  for (let attempt = 0; attempt < 40; attempt++) {
    const s = Math.min(1, Math.max(0, strength + rng.normal(0, 0.02 + attempt * 0.01)));
    const x = lo + (hi - lo) * (metric.lowerIsBetter ? 1 - s : s);
    const v = Number(x.toFixed(decimals));
    if (!taken.has(v)) {
      value = v;
      break;
    }
  }
  // A crowded range: step past the taken values.
  if (Number.isNaN(value)) {
    value = Number(lo.toFixed(decimals));
    while (taken.has(value)) value = Number((value + unit).toFixed(decimals));
  }
  taken.add(value);
  const digits = value.toFixed(decimals);
  if (metric.suffix) return { score: `${digits}${metric.suffix}`, text: `${digits}${metric.suffix}` };
  if (metric.percent && percentStyle) return { score: `${digits}%`, text: `${digits}%` };
  if (rng.chance(0.02) && String(value) === digits) return { score: value, text: digits };
  return { score: digits, text: digits };
}

function inventMethod(rng: Rng, task: ScirexTask, used: Set<string>): string {
  const prefixes = METHOD_PREFIXES[task.domain];
  const cores = METHOD_CORES[task.domain];
  for (;;) {
    const prefix = rng.pick(prefixes);
    const core = rng.pick(cores);
    const form = rng.next();
    let name: string;
    if (form < 0.4) name = `${prefix}${core}`;
    else if (form < 0.65) name = `${acronym(rng)}-${core}`;
    else if (form < 0.8) name = `${prefix} ${core}`;
    else if (form < 0.92)
      name = `${prefix}${core}-${rng.pick(['v2', 'S', 'L', 'XL', 'B', '18', '50', '101'])}`;
    else name = `${acronym(rng)}${core}`;
    const canonical = scirexCanonical(name);
    if (!used.has(canonical)) {
      used.add(canonical);
      return name;
    }
  }
}

function acronym(rng: Rng): string {
  const letters = 'ABCDEFGHIJKLMNOPRSTUVW';
  let out = '';
  const n = rng.int(2, 4);
  for (let i = 0; i < n; i++) out += letters[rng.int(0, letters.length - 1)];
  return out;
}

function hex(rng: Rng, length: number): string {
  let out = '';
  while (out.length < length) out += rng.nextUint32().toString(16).padStart(8, '0');
  return out.slice(0, length);
}

// ---------------------------------------------------------------------------------------------------------------
// Writing: one passage per section

const TITLE_ADJECTIVES = [
  'Efficient',
  'Robust',
  'Scalable',
  'Simple',
  'Accurate',
  'Deep',
  'Hierarchical',
  'Multi-Scale',
  'Context-Aware',
  'Unified',
  'Fast',
  'Adaptive',
];
const TITLE_NOUNS = ['Networks', 'Models', 'Learning', 'Representations', 'Architectures', 'Training'];

function writePaper(rng: Rng, plan: PaperPlan, earlierMethods: readonly string[]): string[] {
  const { task, method, materials, tuples } = plan;
  const t = task.name;
  const component = rng.sample(METHOD_COMPONENTS[task.domain], 3);
  const [c0, c1, c2] = component as [string, string, string];
  const headline = tuples[0] as PlannedTuple;
  const title = rng.pick([
    () => `${method}: ${rng.pick(TITLE_ADJECTIVES)} ${rng.pick(TITLE_NOUNS)} for ${t}`,
    () => `${rng.pick(TITLE_ADJECTIVES)} ${t} with ${capitalizeWords(c0)}`,
    () => `${method}: Towards ${rng.pick(TITLE_ADJECTIVES)} ${t}`,
    () => `Revisiting ${t}: ${method} and ${capitalizeWords(c1)}`,
  ])();
  const out: string[] = [];
  const sub = (s: string) => s.replace(/\{task\}/g, t);

  out.push(
    [
      `section : Title ${title}`,
      'section : Abstract',
      `We present ${method} , a model that ${task.goal} .`,
      `${method} combines ${c0} with ${c1} , which allows it to be trained end-to-end .`,
      sub(rng.pick(SCIREX_FILLER.intro)),
      `Experiments on ${listOf(materials)} show that ${method} achieves a ${headline.metric.name} of ${headline.text} on ${headline.material} .`,
    ].join(' '),
  );

  out.push(
    [
      'section : Introduction',
      ...rng.sample(SCIREX_FILLER.intro, rng.int(2, 4)).map(sub),
      `We propose ${method} , which ${task.goal} by means of ${c0} and ${c2} .`,
      'Our contributions are as follows :',
      `( 1 ) we introduce ${c1} for ${t} ;`,
      `( 2 ) we evaluate on ${listOf(materials)} ;`,
      '( 3 ) we provide an extensive ablation study .',
    ].join(' '),
  );

  if (rng.chance(0.6)) {
    const cited = rng.sample(earlierMethods, 2);
    out.push(
      [
        'section : Related Work',
        ...rng.sample(SCIREX_FILLER.related, rng.int(2, 3)).map(sub),
        ...cited.map(
          (m) =>
            `${m} [ reference ] ${rng.pick(['is closely related to our approach', 'reported strong results', 'uses a different training objective'])} .`,
        ),
      ].join(' '),
    );
  }

  out.push(
    [
      `section : ${rng.pick(['Model', 'Method', 'Approach', `The ${method} Model`])}`,
      rng.chance(0.5) ? `subsection : ${capitalizeWords(c0)}` : '',
      `Given an input , ${method} first applies ${c0} to obtain an intermediate representation .`,
      `The representation is then refined by ${c1} .`,
      `Finally , ${c2} produces the output used for ${t} .`,
      `All components are trained jointly with a ${rng.pick(['cross-entropy', 'margin-based', 'likelihood', 'multi-task'])} objective .`,
    ]
      .filter(Boolean)
      .join(' '),
  );

  if (rng.chance(0.5)) {
    out.push(
      ['paragraph : Implementation Details', ...rng.sample(SCIREX_FILLER.implementation, rng.int(2, 4))].join(
        ' ',
      ),
    );
  }

  out.push(
    [
      'section : Experiments',
      'subsection : Datasets',
      ...materials.map(
        (m) =>
          `${m} ${rng.pick(['is a widely used benchmark for', 'is a standard dataset for', 'is a challenging benchmark for'])} ${t} .`,
      ),
      `We follow the standard splits and evaluation protocol for each dataset .`,
    ].join(' '),
  );

  for (const material of materials) {
    const here = tuples.filter((x) => x.material === material);
    const header = rng.pick([
      `subsection : Results on ${material}`,
      `paragraph : ${material}`,
      `subsection : Comparison with the State of the Art on ${material}`,
    ]);
    const lines = [header, `Table [ reference ] summarises our ${t} results on ${material} .`];
    for (const r of here) lines.push(statement(rng, r));
    if (rng.chance(0.4)) lines.push(`The improvement is consistent across random seeds .`);
    out.push(lines.join(' '));
  }

  out.push(
    [
      'section : Conclusion',
      `We introduced ${method} for ${t} .`,
      ...rng.sample(SCIREX_FILLER.conclusion, rng.int(1, 2)).map(sub),
    ].join(' '),
  );
  if (rng.chance(0.15))
    out.push('section : Acknowledgments We thank the anonymous reviewers for their helpful comments .');

  return out.map(scirexTokenize);
}

function statement(rng: Rng, r: PlannedTuple): string {
  const { method: m, material: d, metric, text: s } = r;
  const k = metric.name;
  return rng.pick([
    () => `On ${d} , ${m} achieves a ${k} of ${s} .`,
    () => `${m} obtains ${s} ${k} on ${d} , compared with the previous best result [ reference ] .`,
    () => `As shown in Table [ reference ] , ${m} reaches ${k} ${s} on the ${d} dataset .`,
    () => `We report a ${k} score of ${s} on ${d} for ${m} .`,
    () => `In terms of ${k} , ${m} scores ${s} on ${d} .`,
  ])();
}

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(' , ')} and ${items[items.length - 1]}`;
}

function capitalizeWords(s: string): string {
  return s
    .replace(/^(a|an) /, '')
    .split(' ')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}
