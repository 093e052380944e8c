/**
 * SciREX templates (spec §7.13 easy E1, §7.14 hard H1–H4): tooldrift's wording, the original's slots and gold
 * rules, answered through RetrieveScirex only.
 *
 * Question slots use SciREX's canonical names (`Penn_Treebank__Word_Level_`), the passages the tokenised display
 * names (`Penn Treebank ( Word Level )`); the solvers compare the two word by word (letters and digits only), as
 * a reader would, and answer with the canonical form of what they read. The answer matcher ignores underscores
 * and punctuation, so `Mean_IoU` and `Mean IoU` differ only by the space.
 *
 * The solvers read results sentences with `readStatements` (method, metric, dataset and score of each sentence
 * that reports one), results-section headers with `readResultsHeader` (task and dataset of the section) and the
 * abstract's list of datasets with `readDatasetList`, issuing several keyword searches where one passage cannot
 * hold the answer. A draw whose facts retrieval does not surface is dropped by the task generator as a plan
 * mismatch.
 *
 * Deliberate differences from ToolQA-D:
 * - Every question has one answer: the corpus keeps (Method, Metric, Material, Task) unique and the scores of one
 *   (Task, Metric) distinct. H1 and H2 use only groups whose scores all clean to numbers (spec §7.14 cleaning).
 * - H2 asks only about (Material, Metric, Task) groups reported by at most three papers, so that the results
 *   sections of all of them can be found with top-3 retrieval.
 * - H4 (which datasets): gold lists every dataset the method is evaluated on for the task, in the paper's order,
 *   joined with `, `. The original generator filtered on one tuple's Material and so always answered with a
 *   single dataset, which is wrong whenever the method was evaluated on several.
 * - The original de-duplicated answers within a template; here questions are de-duplicated (by the generator),
 *   answers may repeat.
 */
import { cleanScirexScore, scirexCanonical } from '../../corpora/scirex.ts';
import type { ScirexResult } from '../../types.ts';
import type { Gold, PlanCall, SampleContext, Solver, TaskTemplate } from '../types.ts';

// ---------------------------------------------------------------------------------------------------------------
// Reading passages

/** One reported result, as the sentence words it (tokenised display text). */
export interface Statement {
  method: string;
  metric: string;
  material: string;
  score: string;
}

/** A score as written in the tokenised prose: `94.73`, `-21`, `22M`, `190k`, `82.0 %`. */
const SCORE = String.raw`-?\d+(?:\.\d+)?[kMB]?(?: %)?`;

type Part = keyof Statement;

/** The sentence shapes that report a result (the abstract's headline sentence last; it is not anchored). */
const STATEMENT_FORMS: readonly { re: RegExp; parts: Part[] }[] = [
  {
    re: new RegExp(`^On (.+?) , (.+?) achieves a (.+?) of (${SCORE})$`),
    parts: ['material', 'method', 'metric', 'score'],
  },
  {
    re: new RegExp(
      `^(.+?) obtains (${SCORE}) (.+?) on (.+?) , compared with the previous best result \\[ reference \\]$`,
    ),
    parts: ['method', 'score', 'metric', 'material'],
  },
  {
    re: new RegExp(
      `^As shown in Table \\[ reference \\] , (.+?) reaches (.+?) (${SCORE}) on the (.+?) dataset$`,
    ),
    parts: ['method', 'metric', 'score', 'material'],
  },
  {
    re: new RegExp(`^We report a (.+?) score of (${SCORE}) on (.+?) for (.+?)$`),
    parts: ['metric', 'score', 'material', 'method'],
  },
  {
    re: new RegExp(`^In terms of (.+?) , (.+?) scores (${SCORE}) on (.+?)$`),
    parts: ['metric', 'method', 'score', 'material'],
  },
  {
    re: new RegExp(` show that (.+?) achieves a (.+?) of (${SCORE}) on (.+?)$`),
    parts: ['method', 'metric', 'score', 'material'],
  },
];

/** Words after which a lone `.` token abbreviates rather than ends a sentence (`Ms . Pacman`). */
const ABBREVIATIONS = new Set(['Ms', 'Mr', 'Mrs', 'Dr', 'St', 'vs', 'No', 'Fig', 'al']);

/** The sentences of a tokenised passage (split at lone `.` tokens), without their final `.`. */
export function sentences(passage: string): string[] {
  const tokens = passage.split(' ');
  const out: string[] = [];
  let current: string[] = [];
  tokens.forEach((t, i) => {
    if (t === '.' && !ABBREVIATIONS.has(tokens[i - 1] ?? '')) {
      if (current.length > 0) out.push(current.join(' '));
      current = [];
    } else if (t !== '') current.push(t);
  });
  if (current.length > 0) out.push(current.join(' '));
  return out;
}

/** Every result a passage reports, in sentence order. */
export function readStatements(passage: string): Statement[] {
  const out: Statement[] = [];
  for (const sentence of sentences(passage)) {
    for (const form of STATEMENT_FORMS) {
      const m = form.re.exec(sentence);
      if (!m) continue;
      const s: Statement = { method: '', metric: '', material: '', score: '' };
      form.parts.forEach((p, i) => {
        s[p] = m[i + 1] as string;
      });
      out.push(s);
      break;
    }
  }
  return out;
}

/** The task and dataset of a results section (`Table [ reference ] summarises our T results on D .`). */
export function readResultsHeader(passage: string): { task: string; material: string } | null {
  for (const sentence of sentences(passage)) {
    const m = /summarises our (.+?) results on (.+)$/.exec(sentence);
    if (m) return { task: m[1] as string, material: m[2] as string };
  }
  return null;
}

/** The abstract's `Experiments on A , B and C show that M achieves …`: the method and its datasets. */
export function readDatasetList(passage: string): { method: string; materials: string[] } | null {
  for (const sentence of sentences(passage)) {
    const m = /(?:^| )Experiments on (.+?) show that (.+?) achieves /.exec(sentence);
    if (!m) continue;
    const parts = (m[1] as string).split(' , ');
    const last = parts.pop() as string;
    const k = last.lastIndexOf(' and ');
    const materials = k >= 0 ? [...parts, last.slice(0, k), last.slice(k + 5)] : [...parts, last];
    return { method: m[2] as string, materials };
  }
  return null;
}

/** The letter/digit words of a name: `Penn_Treebank__Word_Level_` and `Penn Treebank ( Word Level )` agree. */
function words(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .join(' ');
}

/** Whether a name read in the prose is the (canonical or prose) name given. */
export function sameName(prose: string, name: string): boolean {
  return words(prose) === words(name);
}

/** Undoes the token spacing of a display name (`ContextNet - 101` → `ContextNet-101`) and makes it canonical. */
export function canonicalFromProse(prose: string): string {
  const display = prose
    .replace(/([A-Za-z0-9]) - (?=[A-Za-z0-9])/g, '$1-')
    .replace(/\( /g, '(')
    .replace(/ \)/g, ')')
    .replace(/ ([!?,;:.])/g, '$1')
    .replace(/ 's\b/g, "'s")
    .replace(/([0-9]) %/g, '$1%')
    .replace(/ ([@=]) /g, '$1');
  return scirexCanonical(display);
}

/** A score as the paper writes it, without the token spacing (`82.0 %` → `82.0%`). */
function scoreText(prose: string): string {
  return prose.replace(/ %$/, '%');
}

/** The numeric value of a score read in the prose (its leading number). */
function scoreValue(prose: string): number {
  return Number.parseFloat(prose);
}

// ---------------------------------------------------------------------------------------------------------------
// Data and plan pieces

interface ScirexIndex {
  results: ScirexResult[];
  /** Method → its results in corpus order. */
  byMethod: Map<string, ScirexResult[]>;
  /** `material|metric|task` → results. */
  byMaterialMetricTask: Map<string, ScirexResult[]>;
}

const cache = new WeakMap<readonly ScirexResult[], ScirexIndex>();
function data(ctx: SampleContext): ScirexIndex {
  const results = ctx.world.scirex.results;
  let d = cache.get(results);
  if (!d) {
    const byMethod = new Map<string, ScirexResult[]>();
    const byMaterialMetricTask = new Map<string, ScirexResult[]>();
    for (const r of results) {
      byMethod.set(r.method, [...(byMethod.get(r.method) ?? []), r]);
      const key = `${r.material}|${r.metric}|${r.task}`;
      byMaterialMetricTask.set(key, [...(byMaterialMetricTask.get(key) ?? []), r]);
    }
    d = { results, byMethod, byMaterialMetricTask };
    cache.set(results, d);
  }
  return d;
}

/** Canonical names read as words, for keyword queries. */
const spaced = (name: string) => name.replace(/_+/g, ' ').trim();

const retrieve = (keyword: string): PlanCall => ({ tool: 'RetrieveScirex', args: { keyword } });

/** The passages of a RetrieveScirex observation. */
function passagesOf(observation: string): string[] {
  return observation.split('\n');
}

/** Whether every score of the group is a number after the spec's cleaning (so "highest" is defined). */
function allNumeric(group: readonly ScirexResult[]): boolean {
  return group.every((r) => typeof cleanScirexScore(r.score) === 'number');
}

const numeric = (r: ScirexResult) => cleanScirexScore(r.score) as number;

/** The member with the largest score (scores of one task and metric are distinct in the corpus). */
function best(group: readonly ScirexResult[]): ScirexResult {
  return group.reduce((a, b) => (numeric(b) > numeric(a) ? b : a));
}

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

/**
 * Searches until a passage reports the method's result on the dataset for the metric; returns that statement.
 * `metric` null accepts any metric.
 */
function* findStatement(
  queries: readonly string[],
  method: string,
  material: string,
  metric: string | null,
): Generator<PlanCall, Statement | null, string> {
  for (const q of queries) {
    const observation = yield retrieve(q);
    for (const passage of passagesOf(observation)) {
      for (const s of readStatements(passage)) {
        if (
          sameName(s.method, method) &&
          sameName(s.material, material) &&
          (metric === null || sameName(s.metric, metric))
        )
          return s;
      }
    }
  }
  return null;
}

/** Finds the abstract that lists the datasets of the method's paper (the method may be a variant of its subject). */
function* findDatasets(method: string, task: string): Generator<PlanCall, string[] | null, string> {
  const queries = [
    `${spaced(method)} ${spaced(task)} experiments datasets`,
    `experiments on show that ${spaced(method)} achieves`,
  ];
  for (const q of queries) {
    const observation = yield retrieve(q);
    for (const passage of passagesOf(observation)) {
      const list = readDatasetList(passage);
      if (list && `${words(method)} `.startsWith(`${words(list.method)} `)) return list.materials;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Templates

type TupleSlots = { Metric: string; Method: string; Material: string; Task: string };
type MethodMetricTaskSlots = { Method: string; Metric: string; Task: string };
type MaterialMetricTaskSlots = { Metric: string; Material: string; Task: string };
type MethodMaterialTaskSlots = { Method: string; Material: string; Task: string };
type MethodTaskSlots = { Method: string; Task: string };

const e1: TaskTemplate<TupleSlots> = {
  id: 'scirex-easy-E1',
  dataset: 'scirex',
  difficulty: 'easy',
  label: 'E1',
  question:
    'What {Metric} score does the {Method} method reach on the {Material} dataset for the {Task} task?',
  goldRule:
    'The score of the result tuple with that Method, Metric, Material and Task, as the paper reports it.',
  sample(ctx) {
    const { results } = data(ctx);
    const r = results[ctx.rng.int(0, results.length - 1)] as ScirexResult;
    const gold: Gold =
      typeof r.score === 'number'
        ? { type: Number.isInteger(r.score) ? 'int' : 'float', value: r.score }
        : r.score;
    return { slots: { Metric: r.metric, Method: r.method, Material: r.material, Task: r.task }, gold };
  },
  *solve({ Metric, Method, Material, Task }): Solver {
    const s = yield* findStatement(
      [
        `${spaced(Metric)} score of the ${spaced(Method)} method on ${spaced(Material)} dataset for ${spaced(Task)} task`,
        `${spaced(Method)} ${spaced(Material)} ${spaced(Metric)}`,
      ],
      Method,
      Material,
      Metric,
    );
    if (!s) return '';
    // `84.1 % Test Accuracy`: the `%` belongs to a metric whose name starts with a symbol.
    return Metric.startsWith('_') ? s.score.replace(/ %$/, '') : scoreText(s.score);
  },
};

const h1: TaskTemplate<MethodMetricTaskSlots> = {
  id: 'scirex-hard-H1',
  dataset: 'scirex',
  difficulty: 'hard',
  label: 'H1',
  question: 'On which dataset does the {Method} method get its highest {Metric} score for the {Task} task?',
  goldRule:
    'Among the result tuples with that Method, Metric and Task (at least two, all numeric), the Material with the largest score.',
  sample(ctx) {
    const d = data(ctx);
    const r = d.results[ctx.rng.int(0, d.results.length - 1)] as ScirexResult;
    const group = (d.byMethod.get(r.method) as ScirexResult[]).filter(
      (x) => x.metric === r.metric && x.task === r.task,
    );
    if (group.length < 2 || !allNumeric(group)) return null;
    return { slots: { Method: r.method, Metric: r.metric, Task: r.task }, gold: best(group).material };
  },
  *solve({ Method, Metric, Task }): Solver {
    const materials = yield* findDatasets(Method, Task);
    if (!materials) return '';
    let top: { material: string; value: number } | null = null;
    for (const material of materials) {
      const s = yield* findStatement(
        [
          `${spaced(Metric)} score of the ${spaced(Method)} method on ${material} dataset for ${spaced(Task)} task`,
        ],
        Method,
        material,
        Metric,
      );
      if (!s) continue;
      const value = scoreValue(s.score);
      if (top === null || value > top.value) top = { material, value };
    }
    return top ? canonicalFromProse(top.material) : '';
  },
};

/** Most papers an H2 group may span (each has one results section on the dataset; retrieval returns three). */
const MAX_H2_PAPERS = 3;

const h2: TaskTemplate<MaterialMetricTaskSlots> = {
  id: 'scirex-hard-H2',
  dataset: 'scirex',
  difficulty: 'hard',
  label: 'H2',
  question: 'Which method has the highest {Metric} score on the {Material} dataset for the {Task} task?',
  goldRule:
    'Among the result tuples with that Material, Metric and Task (at least two, all numeric, from at most three papers), the Method with the largest score.',
  sample(ctx) {
    const d = data(ctx);
    const r = d.results[ctx.rng.int(0, d.results.length - 1)] as ScirexResult;
    const group = d.byMaterialMetricTask.get(`${r.material}|${r.metric}|${r.task}`) as ScirexResult[];
    if (group.length < 2 || !allNumeric(group)) return null;
    if (new Set(group.map((x) => x.paperId)).size > MAX_H2_PAPERS) return null;
    return { slots: { Metric: r.metric, Material: r.material, Task: r.task }, gold: best(group).method };
  },
  *solve({ Metric, Material, Task }): Solver {
    const seen = new Map<string, number>();
    for (const q of [
      `${spaced(Metric)} score on ${spaced(Material)} dataset for ${spaced(Task)} task`,
      `${spaced(Task)} results on ${spaced(Material)}`,
      `${spaced(Material)} ${spaced(Metric)} results`,
    ]) {
      const observation = yield retrieve(q);
      for (const passage of passagesOf(observation)) {
        const header = readResultsHeader(passage);
        if (!header || !sameName(header.task, Task) || !sameName(header.material, Material)) continue;
        for (const s of readStatements(passage)) {
          if (sameName(s.material, Material) && sameName(s.metric, Metric))
            seen.set(s.method, scoreValue(s.score));
        }
      }
    }
    let top: [string, number] | null = null;
    for (const entry of seen) if (top === null || entry[1] > top[1]) top = entry;
    return top ? canonicalFromProse(top[0]) : '';
  },
};

const h3: TaskTemplate<MethodMaterialTaskSlots> = {
  id: 'scirex-hard-H3',
  dataset: 'scirex',
  difficulty: 'hard',
  label: 'H3',
  question:
    'Which metrics is the {Method} method evaluated with on the {Material} dataset for the {Task} task?',
  goldRule:
    'The distinct Metrics of the result tuples with that Method, Material and Task, in the paper’s order, joined with `, `.',
  sample(ctx) {
    const d = data(ctx);
    const r = d.results[ctx.rng.int(0, d.results.length - 1)] as ScirexResult;
    const group = (d.byMethod.get(r.method) as ScirexResult[]).filter(
      (x) => x.material === r.material && x.task === r.task,
    );
    return {
      slots: { Method: r.method, Material: r.material, Task: r.task },
      gold: unique(group.map((x) => x.metric)).join(', '),
    };
  },
  *solve({ Method, Material, Task }): Solver {
    const observation = yield retrieve(
      `${spaced(Method)} results on ${spaced(Material)} for ${spaced(Task)}`,
    );
    for (const passage of passagesOf(observation)) {
      const header = readResultsHeader(passage);
      if (!header || !sameName(header.task, Task) || !sameName(header.material, Material)) continue;
      const metrics = readStatements(passage)
        .filter((s) => sameName(s.method, Method) && sameName(s.material, Material))
        .map((s) => canonicalFromProse(s.metric));
      if (metrics.length > 0) return unique(metrics).join(', ');
    }
    return '';
  },
};

const h4: TaskTemplate<MethodTaskSlots> = {
  id: 'scirex-hard-H4',
  dataset: 'scirex',
  difficulty: 'hard',
  label: 'H4',
  question: 'On which datasets is the {Method} method evaluated for the {Task} task?',
  goldRule:
    'Every Material of the result tuples with that Method and Task, in the paper’s order, joined with `, `.',
  sample(ctx) {
    const d = data(ctx);
    const r = d.results[ctx.rng.int(0, d.results.length - 1)] as ScirexResult;
    const group = (d.byMethod.get(r.method) as ScirexResult[]).filter((x) => x.task === r.task);
    return {
      slots: { Method: r.method, Task: r.task },
      gold: unique(group.map((x) => x.material)).join(', '),
    };
  },
  *solve({ Method, Task }): Solver {
    const candidates = yield* findDatasets(Method, Task);
    if (!candidates) return '';
    const found: string[] = [];
    for (const material of candidates) {
      const s = yield* findStatement(
        [`${spaced(Method)} results on ${material} for ${spaced(Task)}`],
        Method,
        material,
        null,
      );
      if (s) found.push(canonicalFromProse(material));
    }
    return found.join(', ');
  },
};

export const SCIREX_TEMPLATES: readonly TaskTemplate[] = [e1, h1, h2, h3, h4];
