/**
 * The simulated policy in DRAFT's three roles (and the tool-level summary), from the prompt text alone
 * (core/prompts/draft.ts sections). It never reads a surface definition: what it learns about a drifted tool comes
 * from the responses shown in its prompt — deprecation notices with their replacement and param example,
 * parameter errors, load-first errors and results.
 *
 * - Explorer: recognises the tool's purpose from its documentation (its P_c name or the description's wording,
 *   as the agent policy does), picks an exploration from its domain knowledge (a few realistic requests per kind
 *   of tool, with values of the world's datasets — the knowledge a model fine-tuned on the task templates has),
 *   shapes the call like the documentation (signature, `must be` / `must start with` / `written as` phrases, a
 *   `Param example:`), and, for tools that need loaded data, adds the loading call of the documented loader —
 *   switching to the replacement a deprecation notice in an earlier exploration announced. It varies its request
 *   with the number of explorations and rejected attempts it sees (knob `pExplore`; otherwise it repeats its
 *   first request and its preparatory calls stay as documented).
 * - Analyzer: classifies the response (observations.ts; an imported API's retirement notice reads as a deprecation
 *   naming its successor) and states what it shows (knob `pAnalyze`; otherwise a
 *   vague remark with no content).
 * - Rewriter: folds the analyzer's suggestions into the documentation: a replacement's name and parameters, the
 *   parameter names in the description, constraints read off the param example (flags, code prefixes,
 *   labelled-bracket grammars, required counts) and the example itself (knob `pRewrite`; otherwise it returns the
 *   documentation unchanged).
 * - Summarizer: joins the tools' purposes.
 */
import { ROLE_LINES } from '../prompts/draft.ts';
import { PyDict, PyFloat, PyInt } from '../util/python-format.ts';
import type { KernelCall, KernelToolName } from '../world/kernel/kernel.ts';
import type { Decider } from './decider.ts';
import { kernelOfToolLine } from './knowledge.ts';
import {
  classifyObservation,
  type Entries,
  type ObservationKind,
  parseApiRetirement,
  readJsonObject,
  unwrapObservation,
} from './observations.ts';
import { parseToolLine, type ToolLine } from './prompt-reader.ts';
import { codePrefix, docEntries, inferShape, renderCall } from './shapes.ts';
import type { SimSkills } from './skills.ts';

export type DraftSimRole = keyof typeof ROLE_LINES;

/** The DRAFT role a prompt asks for, or null for any other prompt. */
export function draftRoleOf(text: string): DraftSimRole | null {
  for (const [role, line] of Object.entries(ROLE_LINES))
    if (text.startsWith(line)) return role as DraftSimRole;
  return null;
}

function section(text: string, title: string): string | null {
  const at = text.indexOf(`## ${title}\n`);
  if (at < 0) return null;
  const start = at + title.length + 4;
  const end = text.indexOf('\n\n## ', start);
  const stop = text.indexOf('\n\nAnswer with one JSON object', start);
  const ends = [end, stop].filter((e) => e >= 0);
  return text.slice(start, ends.length > 0 ? Math.min(...ends) : text.length);
}

function field(block: string, name: string): string {
  const m = new RegExp(`^${name}: (.*)$`, 'm').exec(block);
  return m ? (m[1] as string) : '';
}

interface ToolSection {
  category: string;
  name: string;
  line: ToolLine;
  description: string;
  /** The parameters as listed: name and whether required. */
  params: { name: string; required: boolean }[];
}

function listedParams(text: string, required: boolean): { name: string; required: boolean }[] {
  if (text === '(none)' || text.trim() === '') return [];
  return text.split('; ').map((p) => ({ name: p.replace(/ \(.*$/s, '').trim(), required }));
}

function readTool(text: string): ToolSection | null {
  const block = section(text, 'Tool');
  if (block === null) return null;
  const form = field(block, 'Call form');
  const line = parseToolLine(`(1) ${form}`) ?? {
    index: 1,
    name: '',
    params: [],
    description: form,
    text: form,
  };
  return {
    category: field(block, 'Category'),
    name: field(block, 'Name'),
    line,
    description: field(block, 'Description'),
    params: [
      ...listedParams(field(block, 'Required parameters'), true),
      ...listedParams(field(block, 'Optional parameters'), false),
    ],
  };
}

interface CallSeen {
  tool: string;
  parameters: string;
  response: string;
}

interface ExplorationSeen {
  query: string;
  setup: CallSeen[];
  call: CallSeen | null;
}

/** `Query: …` / `Preparatory Call: …` / `Call: …` / `Response: …` blocks. */
function readExplorations(block: string): ExplorationSeen[] {
  const out: ExplorationSeen[] = [];
  let cur: ExplorationSeen | null = null;
  let pending: { call: CallSeen; setup: boolean } | null = null;
  for (const raw of block.split('\n')) {
    const line = raw.replace(/^\(\d+\) /, '');
    if (line.startsWith('Query: ')) {
      cur = { query: line.slice(7), setup: [], call: null };
      out.push(cur);
      continue;
    }
    const m = /^(Preparatory )?Call: (\S+) (.*)$/.exec(line);
    if (m && cur) {
      pending = {
        call: { tool: m[2] as string, parameters: m[3] as string, response: '' },
        setup: m[1] !== undefined,
      };
      if (pending.setup) cur.setup.push(pending.call);
      else cur.call = pending.call;
      continue;
    }
    if (line.startsWith('Response: ') && pending) {
      pending.call.response = line.slice(10);
      continue;
    }
    if (pending && line !== '') pending.call.response += `\n${line}`;
  }
  return out;
}

// ---- domain knowledge: explorations per kind of tool --------------------------------------------------------

interface Probe {
  query: string;
  call: KernelCall;
  /** What must be loaded first. */
  load?: { kernel: 'LoadDB' | 'LoadGraph'; name: string };
}

const DB_PROBES: Record<string, { condition: string; columns: string; what: string }[]> = {
  flights: [
    { condition: 'Origin=ATL', columns: 'DepDelay', what: 'departure delays of flights leaving Atlanta' },
    { condition: 'Dest=JFK', columns: 'ArrTime', what: 'arrival times of flights into JFK' },
  ],
  coffee: [
    { condition: 'Date=2019-05-01', columns: 'Close', what: 'the closing coffee price on 2019-05-01' },
  ],
  airbnb: [
    { condition: 'neighbourhood group=Brooklyn', columns: 'price', what: 'prices of Brooklyn listings' },
  ],
  yelp: [{ condition: 'city=Tampa', columns: 'stars', what: 'star ratings of businesses in Tampa' }],
  agenda: [{ condition: 'person=Stephen', columns: 'event', what: "events in Stephen's agenda" }],
};

const DB_ORDER = ['flights', 'coffee', 'airbnb', 'yelp', 'agenda'];

function probes(kernel: KernelToolName): Probe[] {
  const db = (i: number) => DB_ORDER[i % DB_ORDER.length] as string;
  const dbProbe = (i: number) => DB_PROBES[db(i)]![0]!;
  switch (kernel) {
    case 'RetrieveAgenda':
      return [
        "When is Stephen's opera performance?",
        'What is on the agenda for the team meeting in May?',
        'Where does the birthday party of Emma take place?',
        'Which dentist appointments are scheduled?',
      ].map((q) => ({ query: q, call: { tool: kernel, args: { keyword: q.replace(/\?$/, '') } } }));
    case 'RetrieveScirex':
      return [
        'What F1 score does BERT reach on SQuAD?',
        'Which accuracy does ResNet-50 report on ImageNet?',
        'How well does a transformer translate WMT English-German?',
        'What is the perplexity of LSTM language models on Penn Treebank?',
      ].map((q) => ({ query: q, call: { tool: kernel, args: { keyword: q.replace(/\?$/, '') } } }));
    case 'LoadDB':
      return DB_ORDER.map((d) => ({
        query: `Open the ${d} data so that I can ask questions about it.`,
        call: { tool: kernel, args: { DBName: d } },
      }));
    case 'FilterDB':
      return DB_ORDER.map((_, i) => ({
        query: `Keep only the rows about ${dbProbe(i).what}.`,
        call: { tool: kernel, args: { condition: dbProbe(i).condition } },
        load: { kernel: 'LoadDB', name: db(i) },
      }));
    case 'GetValue':
      return DB_ORDER.map((_, i) => ({
        query: `Show me ${dbProbe(i).what.replace(/ of .*$/, '')} in the ${db(i)} table.`,
        call: { tool: kernel, args: { column_name: dbProbe(i).columns } },
        load: { kernel: 'LoadDB', name: db(i) },
      }));
    case 'LoadGraph':
      return ['dblp', 'AuthorNet', 'PaperNet'].map((g) => ({
        query: `Load the ${g} citation graph data.`,
        call: { tool: kernel, args: { GraphName: g } },
      }));
    case 'NeighbourCheck':
      return [
        ['AuthorNet', 'Chao Zhang', 'Who has Chao Zhang written papers with?'],
        ['PaperNet', 'Deep Residual Learning', 'Which papers cite or are cited by Deep Residual Learning?'],
        ['AuthorNet', 'Wei Wang', 'List the co-authors of Wei Wang.'],
      ].map(([g, n, q]) => ({
        query: q as string,
        call: { tool: kernel, args: { GraphName: g, Node: n } },
        load: { kernel: 'LoadGraph', name: 'dblp' },
      }));
    case 'NodeCheck':
      return [
        ['AuthorNet', 'Chao Zhang', 'How many papers has Chao Zhang published?'],
        ['PaperNet', 'Deep Residual Learning', 'In which venue did Deep Residual Learning appear?'],
        ['AuthorNet', 'Wei Wang', 'Which organisation is Wei Wang affiliated with?'],
      ].map(([g, n, q]) => ({
        query: q as string,
        call: { tool: kernel, args: { GraphName: g, Node: n } },
        load: { kernel: 'LoadGraph', name: 'dblp' },
      }));
    case 'EdgeCheck':
      return [
        [
          'AuthorNet',
          'Chao Zhang',
          'Weihong Lin',
          'How many papers did Chao Zhang and Weihong Lin write together?',
        ],
        ['AuthorNet', 'Wei Wang', 'Jing Li', 'Which joint papers do Wei Wang and Jing Li have?'],
      ].map(([g, a, b, q]) => ({
        query: q as string,
        call: { tool: kernel, args: { GraphName: g, Node1: a, Node2: b } },
        load: { kernel: 'LoadGraph', name: 'dblp' },
      }));
    case 'SQLInterpreter':
      return [
        ['How many flights left Atlanta?', "SELECT COUNT(*) FROM flights WHERE Origin = 'ATL'"],
        ['What was the highest coffee price?', 'SELECT MAX(High) FROM coffee'],
        [
          'Which Tampa businesses have five stars?',
          "SELECT name FROM yelp WHERE city = 'Tampa' AND stars = 5",
        ],
      ].map(([q, sql]) => ({ query: q as string, call: { tool: kernel, args: { SQL: sql } } }));
    case 'PythonInterpreter':
      return [
        ['What is 17 percent of 2,350?', 'print(0.17 * 2350)'],
        [
          'How many days are there between 2022-01-05 and 2022-03-01?',
          'import datetime\nprint((datetime.date(2022, 3, 1) - datetime.date(2022, 1, 5)).days)',
        ],
        ['What is the average of 3, 8 and 13?', 'print(sum([3, 8, 13]) / 3)'],
      ].map(([q, code]) => ({ query: q as string, call: { tool: kernel, args: { Python: code } } }));
    default:
      return [];
  }
}

// ---- shapes from documentation ------------------------------------------------------------------------------

const PARAM_EXAMPLE = /[Pp]aram example: (\{.*\})\.?\s*$/s;

function exampleIn(description: string): Entries | null {
  const m = PARAM_EXAMPLE.exec(description);
  return m ? readJsonObject(m[1] as string) : null;
}

function entriesObject(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) out[k] = toJson(v);
  return out;
}

function toJson(v: unknown): unknown {
  if (v instanceof PyInt) return typeof v.value === 'bigint' ? Number(v.value) : v.value;
  if (v instanceof PyFloat) return v.value;
  if (v instanceof PyDict) return entriesObject(v.entries);
  if (Array.isArray(v)) return v.map(toJson);
  return v;
}

/** The parameters of a kernel call written the way a documentation line (and its example) shows. */
function shapedParameters(line: ToolLine, call: KernelCall): Record<string, unknown> {
  const entries = exampleIn(line.description) ?? docEntries(line);
  return entriesObject(renderCall(inferShape(line.name, call.tool, entries), call));
}

/** The loader line among the other tools, with a deprecation's replacement applied when one was seen. */
function loaderCall(
  kernel: 'LoadDB' | 'LoadGraph',
  name: string,
  others: ToolLine[],
  seen: ExplorationSeen[],
  learn: boolean,
): { tool: string; parameters: Record<string, unknown> } | null {
  const line = others.find((l) => kernelOfToolLine(l) === kernel);
  if (!line) return null;
  const param = kernel === 'LoadDB' ? 'DBName' : 'GraphName';
  const call: KernelCall = { tool: kernel, args: { [param]: name } };
  if (learn) {
    for (const e of [...seen].reverse()) {
      for (const s of e.setup) {
        if (s.tool !== line.name) continue;
        const k = classifyObservation(s.response);
        if (k.kind === 'deprecated' && k.deprecation.replacement) {
          const d = k.deprecation;
          const entries = d.example ?? d.params.map((p) => [p, `<${p}>`] as const);
          return {
            tool: d.replacement as string,
            parameters: entriesObject(renderCall(inferShape(d.replacement as string, kernel, entries), call)),
          };
        }
      }
    }
  }
  return { tool: line.name, parameters: shapedParameters(line, call) };
}

function explore(text: string, skills: SimSkills, d: Decider): string {
  const tool = readTool(text);
  if (!tool) return '{}';
  const kernel = kernelOfToolLine({ ...tool.line, description: tool.description });
  const seen = readExplorations(section(text, 'Explored so far') ?? '');
  const rejected = (section(text, 'Too similar') ?? '').split('\n').filter((l) => l.startsWith('- ')).length;
  const vary = d.chance('draft-explore-vary', skills.pExplore);
  const pool = kernel ? probes(kernel) : [];
  if (pool.length === 0) {
    const params: Record<string, unknown> = {};
    for (const p of tool.params) if (p.required && p.name !== '...') params[p.name] = 'example';
    return JSON.stringify({ query: `Try ${tool.name} once.`, setup: [], parameters: params });
  }
  const index = vary ? (seen.length + rejected) % pool.length : 0;
  const probe = pool[index] as Probe;
  const others = (section(text, 'Other tools') ?? '')
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .map((l) => parseToolLine(`(1) ${l.slice(2)}`))
    .filter((l): l is ToolLine => l !== null && l.name !== '');
  const setup = [];
  if (probe.load) {
    const c = loaderCall(probe.load.kernel, probe.load.name, others, seen, vary);
    if (c) setup.push(c);
  }
  const line: ToolLine = { ...tool.line, description: tool.description };
  return JSON.stringify({ query: probe.query, setup, parameters: shapedParameters(line, probe.call) });
}

// ---- analyzer -----------------------------------------------------------------------------------------------

function jsonText(entries: Entries): string {
  return JSON.stringify(entriesObject(entries));
}

/**
 * The replacement's parameters: the example's keys (they show optional flags the signature may omit), with `...`
 * after a numbered run the example extends beyond the signature (`Apply[condition1]` with an example of
 * `condition1`, `condition2`: a list of conditions).
 */
function announcedParams(signature: readonly string[], example: Entries | null): string[] {
  if (!example) return [...signature];
  const keys = example.map(([k]) => k);
  const out: string[] = [];
  keys.forEach((k, i) => {
    out.push(k);
    const m = /^(.*?)\d+$/.exec(k);
    if (!m) return;
    const prefix = m[1] as string;
    const isLast = !/^(.*?)\d+$/.test(keys[i + 1] ?? '') || !(keys[i + 1] as string).startsWith(prefix);
    const count = (list: readonly string[]) =>
      list.filter((x) => new RegExp(`^${escapeRegex(prefix)}\\d+$`).test(x)).length;
    if (isLast && count(keys) > count(signature)) out.push('...');
  });
  return out;
}

function analyze(text: string, skills: SimSkills, d: Decider): string {
  const e = readExplorations(section(text, 'Exploration') ?? '')[0];
  if (!e?.call || !d.chance('draft-analyze-read', skills.pAnalyze)) {
    return JSON.stringify({ suggestions: ['The description could explain the tool in more detail.'] });
  }
  const out: string[] = [];
  for (const s of e.setup) {
    const k = classifyObservation(s.response);
    if (k.kind === 'deprecated' && k.deprecation.replacement) {
      out.push(
        `Note: the preparatory tool ${s.tool} is deprecated; ${k.deprecation.replacement} replaces it.`,
      );
    }
  }
  const response = unwrapObservation(e.call.response).trim();
  const classified = classifyObservation(e.call.response);
  // An imported API says the same in its own words (a retired operation names its successor).
  const retired = classified.kind === 'deprecated' ? null : parseApiRetirement(e.call.response);
  const kind: ObservationKind = retired ? { kind: 'deprecated', deprecation: retired } : classified;
  switch (kind.kind) {
    case 'deprecated': {
      const dep = kind.deprecation;
      if (dep.replacement) {
        const params = announcedParams(dep.params, dep.example);
        out.push(
          `Rename: the tool is now ${dep.replacement} with parameters ${params.join(', ')}; ${e.call.tool} answers only with a deprecation notice.`,
        );
        if (dep.example) out.push(`Example: ${jsonText(dep.example)}`);
      } else out.push(`Deprecated: ${e.call.tool} is deprecated and no replacement is named.`);
      break;
    }
    case 'param-error':
    case 'argument-error':
    case 'invalid-action':
      out.push(
        `Rejected: the call with parameters ${e.call.parameters} was refused with "${response.slice(0, 200)}"; the documented parameter names or formats are wrong.`,
      );
      break;
    case 'result':
      if (/first load/i.test(response))
        out.push('Needs loading: the tool works on data that must be loaded first.');
      else if (kind.error)
        out.push(
          `Accepted: the call form ${e.call.parameters} reached the tool, which answered "${response.slice(0, 160)}" for these values.`,
        );
      else out.push(`Works: ${e.call.parameters}`);
      break;
    default:
      out.push(`Observed: "${response.slice(0, 160)}".`);
  }
  return JSON.stringify({ suggestions: out });
}

// ---- rewriter -----------------------------------------------------------------------------------------------

function norm(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Literal flag values a param example may show. */
const FLAG_VALUE = /^(true|false|yes|no|on|off|1|0|enabled|disabled)$/i;

/** Constraints a param example shows, in the phrases documentation uses. */
function constraints(example: Record<string, unknown>, description: string): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(example)) {
    if (new RegExp(`\\b${escapeRegex(k)}\\b[^.;]*(must|written as)`).test(description)) continue;
    if (typeof v === 'boolean' || (typeof v === 'string' && FLAG_VALUE.test(v)))
      out.push(`${k} must be ${JSON.stringify(v)}`);
    else if (typeof v === 'number') out.push(`${k} must be given`);
    else if (typeof v === 'string') {
      const prefix = codePrefix(v);
      if (prefix) out.push(`${k} must start with "${prefix}"`);
      else if (/^\s*[A-Za-z_][\w-]*\s*\[[^\]]*\](\s*,\s*[A-Za-z_][\w-]*\s*\[[^\]]*\])+\s*$/.test(v)) {
        out.push(`${k}, written as "${v.replace(/\[[^\]]*\]/g, '[<node>]')}"`);
      }
    }
  }
  return out;
}

function withExample(description: string, example: Record<string, unknown>): string {
  const base = description.replace(PARAM_EXAMPLE, '').trim().replace(/\.?$/, '.');
  return `${base} Param example: ${JSON.stringify(example)}.`;
}

function rewrite(text: string, skills: SimSkills, d: Decider): string {
  const tool = readTool(text);
  if (!tool) return '{}';
  const suggestions = (section(text, 'Analyzer suggestions') ?? '')
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .map((l) => l.slice(2));
  let name = tool.name;
  let params = tool.params;
  let description = tool.description;
  let next = 'Try other values of the parameters.';
  if (d.chance('draft-rewrite-fold', skills.pRewrite)) {
    const exampleLine = suggestions.find((s) => s.startsWith('Example: '));
    const example = exampleLine ? (JSON.parse(exampleLine.slice(9)) as Record<string, unknown>) : null;
    const rename = suggestions
      .map((s) => /^Rename: the tool is now (\S+) with parameters (.*?); /.exec(s))
      .find((m) => m);
    const works = suggestions.find((s) => s.startsWith('Works: '));
    if (rename) {
      name = rename[1] as string;
      const keys = (rename[2] as string).split(', ').filter((k) => k !== '');
      const newParams = keys.map((k) => ({ name: k, required: k !== '...' }));
      // Parameter names in the description: matched by normalised name, else by position (a name used as a
      // word, `the SQL query SQL`, is renamed only where it stands for the parameter).
      const olds = tool.params.filter((p) => p.name !== '...').map((p) => p.name);
      const news = newParams.filter((p) => p.name !== '...').map((p) => p.name);
      olds.forEach((old, i) => {
        const target =
          news.find((n) => norm(n) === norm(old)) ?? (olds.length === news.length ? news[i] : undefined);
        if (target && target !== old)
          description = description.replace(
            new RegExp(`\\b${escapeRegex(old)}\\b(?! (code|query)\\b)`, 'g'),
            target,
          );
      });
      params = newParams;
      if (example) {
        const extra = constraints(example, description);
        if (extra.length > 0) description = `${description.replace(/\.\s*$/, '')}; ${extra.join('; ')}.`;
        description = withExample(description, example);
      }
      next = `Call ${name} with its new parameters and other values.`;
    } else if (works && !PARAM_EXAMPLE.test(description)) {
      const example = readJsonObject(works.slice(7));
      if (example) description = withExample(description, entriesObject(example));
      next = 'Try a different request to confirm the documented behaviour.';
    }
    if (suggestions.some((s) => s.startsWith('Needs loading')) && !/loaded first/.test(description)) {
      description = `${description.replace(/\.\s*$/, '')}. It works on data loaded first.`;
      next = 'Load the data with the loading tool before calling it.';
    }
  }
  return JSON.stringify({ name, parameters: params, description, explore_next: next });
}

// ---- summarizer ---------------------------------------------------------------------------------------------

function summarize(text: string): string {
  const category = (section(text, 'Category') ?? '').trim();
  const tools = (section(text, 'Tools') ?? '')
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .map((l) => parseToolLine(`(1) ${l.slice(2)}`))
    .filter((l): l is ToolLine => l !== null && l.name !== '');
  const parts = tools.map((t) => `${t.name} ${t.description.replace(/^which /, '').replace(/[.;].*$/s, '')}`);
  return JSON.stringify({ description: `The ${category} tools: ${parts.join('; ')}.` });
}

/** The simulator's answer to a DRAFT prompt. */
export function draftAnswer(role: DraftSimRole, text: string, skills: SimSkills, d: Decider): string {
  switch (role) {
    case 'explore':
      return explore(text, skills, d);
    case 'analyze':
      return analyze(text, skills, d);
    case 'rewrite':
      return rewrite(text, skills, d);
    case 'summarize':
      return summarize(text);
  }
}
