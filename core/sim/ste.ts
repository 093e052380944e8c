/**
 * The simulated policy in STE (spec `ste.md`): it recognises the STE prompt kinds by their fixed lines
 * (prompts/ste.ts) and answers each from the conversation alone — never from the server's surface or any gold:
 *
 * - query synthesis: imagine a query for the explored tool (its kernel tool read from the documentation line,
 *   as for any tool line): a query kind of that tool (ste-queries.ts) filled with values it has *observed* in
 *   the conversation (columns of a loaded database, values GetValue listed, names from graph observations,
 *   words of retrieved passages, values of earlier queries) with probability OBSERVED_VALUE_P, else with values
 *   from the documentation (database and graph names) or a guess from its own prior; re-drawn (up to
 *   QUERY_DRAWS times) while the query repeats one of the long-term-memory lines or an earlier query of the
 *   episode, preferring kinds and values not explored yet. Seeded by the request like every sampled choice.
 * - ReAct steps: recognise its own query and replay that query's plan with the policy's usual call writing
 *   (documentation, deprecation and error handling, noise — policy.ts `nextStepWith`).
 * - reflection: Yes when the trial ended with Finish right after a call whose observation is a result (not an
 *   error or a rejection) and the answer is not "unknown"; the reading is wrong with probability `noise`.
 * - judge: the three criteria from the judged call alone — (1) informative: an answer other than "unknown" to
 *   an observation that is a result; (2) faithful: the answer's words occur in the observation; (3)
 *   appropriate: the call reached the tool (no rejection or error message).
 * - call judge (STE's evaluation): Yes when every argument of the reference call is in the checked call with the
 *   same value once case, whitespace and number formatting are ignored (`"90"` = `90` = `90.0`); the verdict is
 *   flipped with probability `noise`.
 * - test (STE's evaluation prompt): one call, see ste-test.ts.
 * - paraphrase: the same query kind and values in a wording not used yet in the conversation; a query of no
 *   kind gets a fixed rephrasing frame.
 */
import type { ChatMessage } from '../models/types.ts';
import {
  STE_CALL_JUDGE_HEADER,
  STE_EXPLORE_HEADER,
  STE_JUDGE_HEADER,
  STE_PARAPHRASE_HEADER,
  STE_QUERY_LABEL,
  STE_QUERY_REQUEST,
  STE_REFLECT_QUESTION,
  STE_TEST_HEADER,
} from '../prompts/ste.ts';
import { parseReact } from '../world/react-parse.ts';
import { apiStep, isApiPrompt } from './api-agent.ts';
import type { Decider } from './decider.ts';
import { kernelOfToolLine } from './knowledge.ts';
import { classifyObservation, unwrapObservation } from './observations.ts';
import { nextStepWith } from './policy.ts';
import { type PromptStep, parseToolLine, type ToolLine } from './prompt-reader.ts';
import type { SimSkills } from './skills.ts';
import { QUERY_KINDS, type QueryKind, recogniseQuery, writeQuery } from './ste-queries.ts';
import { steTestReply } from './ste-test.ts';

export type SteKind = 'query' | 'step' | 'reflect' | 'judge' | 'call-judge' | 'test' | 'paraphrase';

/** Probability of filling a slot with an observed value when one is known. */
export const OBSERVED_VALUE_P = 0.8;
/** Query re-draws while the query repeats an explored one. */
export const QUERY_DRAWS = 8;

/** What the policy would guess with nothing observed (its "prior"), per value name. */
const PRIOR: Readonly<Record<string, readonly string[]>> = {
  db: ['flights', 'coffee'],
  column: ['Date', 'Name', 'Price', 'City'],
  value: ['2022-01-01', 'New York', '5'],
  graph: ['PaperNet', 'AuthorNet'],
  data: ['dblp'],
  node: ['Chao Zhang', 'Wei Wang', 'Deep Learning'],
  keyword: ['meeting', 'accuracy', 'dataset', 'birthday'],
  number: ['12', '37', '2.5', '144'],
  bound: ['5', '100', '1000'],
  date: ['2022-01-01', '2022-06-01'],
};

const NUMERIC_COLUMN =
  /price|stars|distance|delay|time|open|close|high|low|volume|review|number|nights|count|lat|long|fee/i;
const DATE_COLUMN = /date/i;

function lastUser(messages: readonly ChatMessage[]): ChatMessage | undefined {
  return messages.findLast((m) => m.role === 'user');
}

export function steKind(messages: readonly ChatMessage[]): SteKind | null {
  const first = messages.find((m) => m.role === 'user')?.content ?? '';
  const last = messages.at(-1);
  if (!last) return null;
  if (lastUser(messages)?.content.startsWith(STE_JUDGE_HEADER)) return 'judge';
  if (lastUser(messages)?.content.startsWith(STE_CALL_JUDGE_HEADER)) return 'call-judge';
  if (lastUser(messages)?.content.startsWith(STE_TEST_HEADER)) return 'test';
  if (first.startsWith(STE_PARAPHRASE_HEADER)) return 'paraphrase';
  if (!first.startsWith(STE_EXPLORE_HEADER)) return null;
  if (last.role === 'user' && last.content.endsWith(STE_QUERY_REQUEST)) return 'query';
  if (last.role === 'user' && last.content === STE_REFLECT_QUESTION) return 'reflect';
  return 'step';
}

interface Exploration {
  explored: ToolLine | null;
  tools: ToolLine[];
  memory: string[];
}

/**
 * The exploration prompt's tool lines, and the long-term memory shown in this call: in the episode's opening
 * prompt, or in the last query request when memory is shown at every trial (`Solved` marks are absent when the
 * exploration runs without self-reflection).
 */
function readExploration(first: string, last = ''): Exploration {
  const lines = first.split('\n');
  const explored = parseToolLine(`(0) ${lines[1] ?? ''}`);
  const tools: ToolLine[] = [];
  const at = lines.indexOf('All tools you may call:');
  for (let i = at + 1; at >= 0 && i < lines.length && (lines[i] as string).trim() !== ''; i++) {
    const t = parseToolLine(lines[i] as string);
    if (t) tools.push(t);
  }
  const memory = [first, last].flatMap((text) =>
    [...text.matchAll(/^Query: (.*?)(?: \| Solved: (?:Yes|No))?$/gm)].map((m) => m[1] as string),
  );
  return { explored, tools, memory };
}

/** The queries of the conversation and the steps (text + observation) of each trial, in order. */
interface Trial {
  query: string;
  steps: PromptStep[];
  /** An assistant step after the last observation (the Finish of a finished trial). */
  last: string | null;
}

function readTrials(messages: readonly ChatMessage[]): Trial[] {
  const trials: Trial[] = [];
  let pending: string | null = null;
  for (const m of messages) {
    if (m.role === 'assistant' && m.content.startsWith(STE_QUERY_LABEL)) {
      trials.push({ query: m.content.slice(STE_QUERY_LABEL.length).trim(), steps: [], last: null });
      pending = null;
      continue;
    }
    const t = trials.at(-1);
    if (!t) continue;
    if (m.role === 'assistant' && /(^|\n)Action:/.test(m.content)) {
      pending = m.content;
      t.last = m.content;
    } else if (m.role === 'assistant') {
      pending = null;
    } else if (m.role === 'user' && m.content.startsWith('Observation:') && pending !== null) {
      t.steps.push({ text: pending, observation: m.content.slice('Observation:'.length).trim() });
      pending = null;
      t.last = null;
    }
  }
  return trials;
}

/** Values the conversation shows, by value name. */
function observedValues(trials: readonly Trial[]): {
  columns: Map<string, string[]>;
  values: Map<string, string[]>;
  any: Record<string, string[]>;
} {
  const columns = new Map<string, string[]>();
  const values = new Map<string, string[]>();
  const any: Record<string, string[]> = { node: [], keyword: [], db: [], graph: [], data: [] };
  const add = (list: string[], v: string) => {
    if (v !== '' && !list.includes(v)) list.push(v);
  };
  for (const t of trials) {
    const known = recogniseQuery(t.query);
    if (known) {
      known.kind.values.forEach((name, i) => {
        any[name] ??= [];
        add(any[name] as string[], known.values[i] as string);
      });
    }
    for (const s of t.steps) {
      const obs = unwrapObservation(s.observation).trim();
      const loaded = /loaded the (\S+) database, including the following columns: (.*?)\.?$/.exec(obs);
      if (loaded) {
        columns.set(loaded[1] as string, (loaded[2] as string).split(/,\s*/));
        continue;
      }
      if (obs.startsWith('{')) {
        try {
          const parsed = JSON.parse(obs) as Record<string, unknown>;
          for (const [col, vals] of Object.entries(parsed)) {
            if (!Array.isArray(vals)) continue;
            const list = values.get(col) ?? [];
            values.set(col, list);
            for (const v of vals.slice(0, 20)) add(list, String(v));
          }
        } catch {
          // not a value listing
        }
        continue;
      }
      for (const m of obs.matchAll(/\('([^']+)', 'weight/g)) add(any.node as string[], m[1] as string);
      const papers = /Paper list: (.*)$/.exec(obs);
      if (papers)
        for (const p of (papers[1] as string).split(/,\s*/).slice(0, 5)) add(any.node as string[], p);
      if (/^(From|There is|[A-Z][a-z]+ (has|will|is))|subsection|paragraph/.test(obs)) {
        for (const w of obs.match(/\b[A-Z][a-z]{4,}\b/g) ?? []) add(any.keyword as string[], w);
      }
    }
  }
  return { columns, values, any };
}

function docOptions(tools: readonly ToolLine[], kernel: string): string[] {
  const line = tools.find((t) => kernelOfToolLine(t) === kernel);
  if (!line) return [];
  const m = /one of the following: ([\w/]+)/.exec(line.description) ?? /\bis (\w+)\b/.exec(line.description);
  return m ? (m[1] as string).split('/') : [];
}

function pick(d: Decider, label: string, items: readonly string[]): string {
  return d.weighted(
    label,
    items,
    items.map(() => 1),
  );
}

/** Observed values first (with OBSERVED_VALUE_P), then documented ones, then the prior. */
function choose(d: Decider, label: string, observed: readonly string[], fallback: readonly string[]): string {
  if (observed.length > 0 && (fallback.length === 0 || d.chance(`${label}:observed`, OBSERVED_VALUE_P))) {
    return pick(d, label, observed);
  }
  return pick(d, label, fallback.length > 0 ? fallback : ['x']);
}

function fillValues(
  kind: QueryKind,
  ex: Exploration,
  trials: readonly Trial[],
  d: Decider,
  draw: number,
): string[] {
  const seen = observedValues(trials);
  const dbs = docOptions(ex.tools, 'LoadDB');
  const graphData = docOptions(ex.tools, 'LoadGraph');
  const graphs = [
    ...new Set(
      ex.tools.flatMap((t) =>
        kernelOfToolLine(t) === 'LoadGraph' ? (t.description.match(/\b\w+Net\b/g) ?? []) : [],
      ),
    ),
  ];
  const out: string[] = [];
  let db = '';
  for (const name of kind.values) {
    const label = `v${draw}:${name}`;
    let v: string;
    switch (name) {
      case 'db': {
        const withColumns = [...seen.columns.keys()];
        db = choose(d, label, withColumns, dbs.length > 0 ? dbs : (PRIOR.db as string[]));
        v = db;
        break;
      }
      case 'column': {
        v = choose(d, label, seen.columns.get(db) ?? [], PRIOR.column as string[]);
        break;
      }
      case 'condition': {
        // A value seen for the column makes an equality; a column whose name sounds numeric or like a date
        // gets a comparison with a guessed bound (the policy knows what such columns usually hold).
        const cols = seen.columns.get(db) ?? [];
        const withValues = cols.filter((c) => seen.values.has(c));
        const guessable = cols.filter((c) => NUMERIC_COLUMN.test(c) || DATE_COLUMN.test(c));
        const options = [...withValues, ...guessable];
        const col = choose(d, `${label}:col`, options.length > 0 ? options : cols, PRIOR.column as string[]);
        const known = seen.values.get(col) ?? [];
        if (known.length > 0) v = `${col}=${pick(d, `${label}:val`, known)}`;
        else if (DATE_COLUMN.test(col)) v = `${col}>=${pick(d, `${label}:val`, PRIOR.date as string[])}`;
        else if (NUMERIC_COLUMN.test(col)) v = `${col}>${pick(d, `${label}:val`, PRIOR.bound as string[])}`;
        else v = `${col}=${pick(d, `${label}:val`, PRIOR.value as string[])}`;
        break;
      }
      case 'data':
        v = choose(d, label, [], graphData.length > 0 ? graphData : (PRIOR.data as string[]));
        break;
      case 'graph':
        v = choose(d, label, [], graphs.length > 0 ? graphs : (PRIOR.graph as string[]));
        break;
      case 'node':
      case 'node1':
      case 'node2':
        v = choose(d, label, seen.any.node ?? [], PRIOR.node as string[]);
        break;
      case 'keyword':
        v = choose(d, label, seen.any.keyword ?? [], PRIOR.keyword as string[]);
        break;
      default:
        v = pick(d, label, PRIOR.number as string[]);
    }
    out.push(v);
  }
  return out;
}

function imagine(messages: readonly ChatMessage[], d: Decider): string {
  const users = messages.filter((m) => m.role === 'user');
  const ex = readExploration(users[0]?.content ?? '', users.length > 1 ? users.at(-1)?.content : '');
  const kernel = ex.explored ? kernelOfToolLine(ex.explored) : null;
  const kinds = QUERY_KINDS.filter((k) => k.kernel === kernel);
  if (kinds.length === 0) return `${STE_QUERY_LABEL} What can the tool "${ex.explored?.name ?? 'tool'}" do?`;
  const trials = readTrials(messages);
  const explored = new Set([...ex.memory, ...trials.map((t) => t.query)]);
  const exploredKeys = new Set(
    [...explored]
      .map((q) => recogniseQuery(q))
      .flatMap((r) => (r ? [`${r.kind.id}|${r.values.join('|')}`] : [])),
  );
  let query = '';
  for (let draw = 0; draw < QUERY_DRAWS; draw++) {
    const kind = kinds[
      d.weighted(
        `kind${draw}`,
        kinds.map((_, i) => i),
        kinds.map(() => 1),
      )
    ] as QueryKind;
    const values = fillValues(kind, ex, trials, d, draw);
    const wording = d.weighted(
      `wording${draw}`,
      kind.wordings.map((_, i) => i),
      kind.wordings.map(() => 1),
    );
    query = writeQuery(kind, wording, values);
    if (!explored.has(query) && !exploredKeys.has(`${kind.id}|${values.join('|')}`)) break;
  }
  return `${STE_QUERY_LABEL} ${query}\nThought: `;
}

function answerStep(messages: readonly ChatMessage[], skills: SimSkills, d: Decider): string {
  const ex = readExploration(messages.find((m) => m.role === 'user')?.content ?? '');
  const trial = readTrials(messages).at(-1);
  const question = trial?.query ?? null;
  const known = question ? recogniseQuery(question) : null;
  const prompt = { question, tools: ex.tools, steps: trial?.steps ?? [], reflection: false };
  // A query of none of its kinds about a tool that is no kernel tool — an imported API's operation (the tool list
  // documents HTTP operations) or a function catalog's tool: the generic API mode, as in an agent episode
  // (api-agent.ts).
  const foreign = isApiPrompt(prompt) || (ex.explored !== null && kernelOfToolLine(ex.explored) === null);
  if (!known && foreign) return apiStep(prompt, skills, d).text;
  const step = nextStepWith(prompt, skills, d, known ? () => known.kind.plan(known.values) : null);
  return step.text;
}

/** Whether the trial's last step is a Finish after a call that returned a result. */
function trialFulfilled(trial: Trial | undefined, tools: readonly ToolLine[]): boolean {
  if (!trial || trial.last === null) return false;
  const parsed = parseReact(trial.last);
  if (!parsed.ok) return false;
  const finish = tools.find((t) => kernelOfToolLine(t) === 'Finish')?.name ?? 'Finish';
  if (parsed.action !== finish) return false;
  if (/"answer":\s*"unknown"/.test(parsed.actionInput)) return false;
  const lastObs = trial.steps.at(-1)?.observation;
  if (lastObs === undefined) return false;
  const kind = classifyObservation(lastObs);
  return kind.kind === 'result' && !kind.error;
}

function reflect(messages: readonly ChatMessage[], skills: SimSkills, d: Decider): string {
  const ex = readExploration(messages.find((m) => m.role === 'user')?.content ?? '');
  let yes = trialFulfilled(readTrials(messages).at(-1), ex.tools);
  if (d.chance('reflect:noise', skills.noise)) yes = !yes;
  return yes
    ? d.style('reflect:yes', [
        'Yes, the tool gave me what the answer needed.',
        'Yes, I answered it from the result.',
      ])
    : d.style('reflect:no', ['No, I did not get a usable result.', 'No, the query is not fulfilled.']);
}

function judge(messages: readonly ChatMessage[], skills: SimSkills, d: Decider): string {
  const text = lastUser(messages)?.content ?? '';
  const observation = /\nObservation: ([\s\S]*?)\n\nFinal Answer: /.exec(text)?.[1] ?? '';
  const answer = (/\nFinal Answer: ([\s\S]*?)\n\n/.exec(text)?.[1] ?? '').trim();
  const kind = classifyObservation(observation);
  const result = kind.kind === 'result' && !kind.error;
  const content = unwrapObservation(observation).toLowerCase();
  const words = answer
    .toLowerCase()
    .split(/[\s,;]+/)
    .filter((w) => w !== '');
  const faithful = words.length > 0 && words.filter((w) => content.includes(w)).length / words.length >= 0.8;
  let criteria = [result && answer !== '' && answer !== 'unknown', faithful, result];
  if (d.chance('judge:noise', skills.noise)) criteria = criteria.map((c, i) => (i === 1 ? !c : c));
  return criteria.map((c, i) => `${i + 1}. ${c ? 'Yes' : 'No'}`).join('\n');
}

function normalisedValue(v: unknown): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    return t !== '' && Number.isFinite(Number(t)) ? String(Number(t)) : t.replace(/\s+/g, ' ');
  }
  return JSON.stringify(v);
}

function callJudge(messages: readonly ChatMessage[], skills: SimSkills, d: Decider): string {
  const text = lastUser(messages)?.content ?? '';
  const args = [...text.matchAll(/^API arguments: (.*)$/gm)].map((m) => {
    try {
      const v = JSON.parse(m[1] as string) as unknown;
      return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  });
  const [gold, mine] = args;
  let same =
    gold !== null &&
    mine !== null &&
    gold !== undefined &&
    mine !== undefined &&
    Object.entries(gold).every(([k, v]) => k in mine && normalisedValue(mine[k]) === normalisedValue(v));
  if (d.chance('call-judge:noise', skills.noise)) same = !same;
  return same
    ? 'Yes. The call means the same as the reference.'
    : 'No. An argument differs from the reference.';
}

function paraphrase(messages: readonly ChatMessage[], d: Decider): string {
  const first = messages.find((m) => m.role === 'user')?.content ?? '';
  const query = first.slice(first.lastIndexOf(STE_QUERY_LABEL) + STE_QUERY_LABEL.length).trim();
  const earlier = new Set(messages.filter((m) => m.role === 'assistant').map((m) => m.content.trim()));
  earlier.add(query);
  const known = recogniseQuery(query);
  const options = known
    ? known.kind.wordings.map((_, i) => writeQuery(known.kind, i, known.values))
    : [`Could you tell me: ${query}`, `I would like to know: ${query}`, `Please answer this: ${query}`];
  const fresh = options.filter((o) => !earlier.has(o));
  return fresh.length > 0 ? pick(d, 'paraphrase', fresh) : query;
}

/** The simulator's reply to an STE prompt, or null when the messages are not an STE prompt. */
export function steReply(messages: readonly ChatMessage[], skills: SimSkills, d: Decider): string | null {
  switch (steKind(messages)) {
    case 'query':
      return imagine(messages, d);
    case 'step':
      return answerStep(messages, skills, d);
    case 'reflect':
      return reflect(messages, skills, d);
    case 'judge':
      return judge(messages, skills, d);
    case 'call-judge':
      return callJudge(messages, skills, d);
    case 'test':
      return steTestReply(lastUser(messages)?.content ?? '', skills, d);
    case 'paraphrase':
      return paraphrase(messages, d);
    default:
      return null;
  }
}
