/**
 * The drift generator: from a base surface, a seed and a list of drift kinds it derives a new surface in front of
 * the same kernel tools, of the kinds ToolQA-D's P_s_in and P_s_OOD are made of (spec §4.3–§4.6), but as many as
 * there are seeds. `describeDrift` tells what changed between two surfaces.
 *
 * Drift kinds (examples from the P_c base; a kind that finds nothing to change on a base leaves it as it is):
 * - `rename-tool` — every domain tool gets a new name: the words of its name are replaced by synonyms (at
 *   least one word changes; filler words such as `On`, `The`, `Call` may be dropped) and written in a name style
 *   (PascalCase, camelCase, snake_case, Pascal_Snake, Pascal_Mixed; vocab/synonyms.ts).
 *   `LoadDB` → `Mount_Database`, `NeighbourCheck` → `adjacentProbe`.
 * - `special-chars` — the words of every domain tool name and of every multi-word parameter key are joined with
 *   `-` or `_` separators, one or two characters per gap and at least one `-`: `LoadDB` → `Load-DB`,
 *   `Graph_Name` → `Graph_-Name`. Only `-` and `_` are used: MCP (SEP-986) also allows `.` and `/`, but the
 *   function-calling APIs that MCP clients forward tool names to accept `^[a-zA-Z0-9_-]{1,64}$` only, and `__`
 *   is avoided because clients use it as a namespace separator (`mcp__server__tool`).
 * - `rename-params` — every parameter key of the domain tools (and every label inside a structured string) is
 *   renamed with synonyms. One word map serves the whole surface, so a word is renamed the same way in every
 *   key (`GraphName` → `NetworkIdentifier`, `Node` → `Vertex`, `Node1` → `Vertex1`); a key that is only a
 *   language name gets a head noun (`SQL` → `SQLStatement`).
 * - `split-params` — a kernel string that the kernel itself splits becomes positional numbered keys (spec §4.3):
 *   FilterDB's `condition` (the kernel splits at `, `) and GetValue's `column_name` (split at `,` and trimmed,
 *   so `, ` joins equivalently): `{"condition": "a>1, b=2"}` → `{"condition1": "a>1", "condition2": "b=2"}`.
 *   The unnumbered key alone (plus the tool's mandatory flags) stays accepted, as in ToolQA-D. Nothing else is
 *   split: no other kernel tool reads a list out of one string.
 * - `merge-params` — several graph parameters are carried in one structured string of labelled brackets (§4.3
 *   `NodeInfos`, §4.4 `CheckInfos`): NeighbourCheck/NodeCheck `{"Graph": "AuthorNet", "Node": "Chao Zhang"}`
 *   → `{"NodeSpec": "Network[AuthorNet], Vertex[Chao Zhang]"}`; EdgeCheck either both nodes or the graph and
 *   both nodes (`"Graph[AuthorNet], Source[A], Target[B]"`); a structured string beside a plain graph key takes
 *   the graph in. Only graph tools: their values (graph names, author names, paper titles) never hold `]` or a
 *   line break, which the grammar cannot carry.
 * - `structured-params` — string ↔ structured: a structured string of the base becomes plain keys named after
 *   its labels (`NodeInfos` → `FirstNode`, `SecondNode`), and the lone string of LoadDB, LoadGraph or GetValue
 *   may become a one-slot structured string: `{"DBName": "flights"}` → `{"DatasetSpec": "Table[flights]"}`.
 *   Database names, graph names and column names are closed sets without brackets, so every value fits.
 * - `flags` — some domain tools (at least one) get a mandatory flag with its accepted values, compared with
 *   Python `==` like ToolQA-D's `ReturnResult` (§4.3): `{"DBName": "flights", "Confirm": "yes"}`.
 * - `prefixes` — SQL and Python code must start with a literal prefix (§4.3), a different one from the base's:
 *   `"Here is the Python code: print(1)"`. As in ToolQA-D, the rest of the Python code is trimmed and the SQL is
 *   passed on untrimmed.
 * - `wrap-response` — observations come wrapped in a JSON object with generated keys and state values, e.g.
 *   `{"status": "ok", "Output": "..."}` (a wrapped base gets a different wrapper).
 *
 * What the generator keeps and guarantees:
 * - Determinism: the surface is a function of (base, seed, kinds) drawn only from `Rng`. The kinds are a set
 *   (order and repeats do not matter) and each kind draws from its own stream, so adding a kind never changes
 *   what the others chose. Same input → deep-equal surface.
 * - Finish and UpdateTool keep their names and parameters (as in ToolQA-D). A tool no kind changed keeps its
 *   name, parameters, descriptions, example and key-mismatch answer; a changed tool answers a wrong key set with
 *   its parameter-error message (spec §4.8, as the drifted ToolQA-D surfaces do) and gets regenerated parameter
 *   descriptions, tool description and example (the example is the base tool's example call translated onto
 *   the new tool with translateCall, so it resolves to the same kernel call).
 * - Lifecycle: every served tool is active. A renamed tool's old name becomes a retired name answering with the
 *   §4.6-style message written by `deprecationMessage`; the base's retired names (and any of its tools that
 *   duplicate a kernel tool, e.g. deprecated ones from a schedule) point at the new tool, with their message
 *   rewritten when the successor changed (the old signature is taken from the old message).
 * - Validity (`driftProblems`, checked before returning): `validateSurface` finds nothing; tool names, retired
 *   names and parameter keys match `^[A-Za-z0-9_-]{1,64}$`; no two names of the surface are equal ignoring
 *   case; no name is a name that a built-in surface uses for a different kernel tool. Every value a P_c call can
 *   carry still has a translation, except the ones translateCall documents (text with `]` or line breaks in a
 *   structured slot, code with surrounding whitespace under a trimmed prefix), which no kind puts in the way of
 *   the task plans (see `merge-params` and `structured-params`).
 */
import { hash128, Rng, type Seed } from '../util/random.ts';
import type { KernelToolName } from '../world/kernel/kernel.ts';
import { resolveCall, validateSurface } from './adapter.ts';
import { BUILTIN_SURFACES, PC_SURFACE } from './builtin.ts';
import type { Lifecycle, ParamSpec, ResponseFormat, RetiredName, Surface, SurfaceTool } from './model.ts';
import { deprecationMessage, toolCallText } from './signature.ts';
import { toolForKernel, translateCall } from './translate.ts';
import {
  CODE_HEADS,
  CODE_PREFIXES,
  FLAG_NAMES,
  FLAG_VALUES,
  NODE_PAIR_LABELS,
  RESPONSE_MESSAGE_KEYS,
  RESPONSE_STATE_KEYS,
  RESPONSE_STATES,
  SLOT_LABELS,
  STRUCTURED_KEY_HEADS,
  STRUCTURED_KEY_TAILS,
} from './vocab/drift-terms.ts';
import {
  canonicalWord,
  caseWords,
  FILLER_WORDS,
  joinWords,
  NAME_STYLES,
  type NameStyle,
  QUALIFIERS,
  splitWords,
  styleJoiners,
  styleName,
  synonymsOf,
  wordGaps,
} from './vocab/synonyms.ts';

export const DRIFT_KINDS = [
  'rename-tool',
  'special-chars',
  'rename-params',
  'split-params',
  'merge-params',
  'structured-params',
  'flags',
  'prefixes',
  'wrap-response',
] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

export interface DriftOptions {
  seed: Seed;
  /** A set of drift kinds; order and repeats do not matter. */
  kinds: readonly string[];
  /** Default: `{base.id}-drift-{8 hex digits of a hash of base, seed and kinds}`. */
  id?: string;
  title?: string;
}

/** A surface's tool names, retired names and parameter keys: what MCP clients and function-calling APIs take. */
export const EXPOSED_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The separators `special-chars` puts between words, with their weights (never `__`, `.` or `/`; see the module
 * header): mostly a single `-`.
 */
export const SPECIAL_SEPARATORS: readonly string[] = ['-', '_', '--', '-_', '_-'];
const SPECIAL_WEIGHTS: readonly number[] = [6, 2, 1, 1, 1];

const KIND_SUMMARIES: Record<DriftKind, string> = {
  'rename-tool': 'tools renamed with synonyms',
  'special-chars': 'special characters between the words of names',
  'rename-params': 'parameters renamed with synonyms',
  'split-params': 'list strings split into numbered parameters',
  'merge-params': 'graph parameters merged into structured strings',
  'structured-params': 'strings and structured strings exchanged',
  flags: 'mandatory flags',
  prefixes: 'literal prefixes on SQL and Python code',
  'wrap-response': 'observations wrapped in a JSON object',
};

/** The kinds as a set in canonical order; an unknown kind is an error. */
export function normalizeDriftKinds(kinds: readonly string[]): DriftKind[] {
  for (const k of kinds) {
    if (!(DRIFT_KINDS as readonly string[]).includes(k)) {
      throw new RangeError(`unknown drift kind ${JSON.stringify(k)}; known: ${DRIFT_KINDS.join(', ')}`);
    }
  }
  return DRIFT_KINDS.filter((k) => kinds.includes(k));
}

// ---------------------------------------------------------------------------------------------------------------
// Per-kernel facts the generator relies on

type DomainKernel = Exclude<KernelToolName, 'Finish' | 'UpdateTool'>;

function isDomain(kernel: KernelToolName): kernel is DomainKernel {
  return kernel !== 'Finish' && kernel !== 'UpdateTool';
}

/** Kernel strings that the kernel splits itself, so that numbered keys joined again mean the same. */
const SPLITTABLE: Partial<Record<KernelToolName, { param: string; joiner: string; item: string }>> = {
  FilterDB: {
    param: 'condition',
    joiner: ', ',
    item: 'One condition `column<op>value` (op one of >=, <=, >, <, =)',
  },
  GetValue: { param: 'column_name', joiner: ', ', item: 'One column name' },
};

/** Tools whose lone string may become a one-slot structured string (closed value sets without brackets). */
const WRAPPABLE: Partial<Record<KernelToolName, string>> = {
  LoadDB: 'DBName',
  LoadGraph: 'GraphName',
  GetValue: 'column_name',
};

const GRAPH_TOOLS: readonly KernelToolName[] = ['NeighbourCheck', 'NodeCheck', 'EdgeCheck'];

const CODE_LANGUAGE: Partial<Record<KernelToolName, { param: string; lang: string; trim: boolean }>> = {
  SQLInterpreter: { param: 'SQL', lang: 'SQL', trim: false },
  PythonInterpreter: { param: 'Python', lang: 'Python', trim: true },
};

const SENTENCES: Record<DomainKernel, (ref: (kernelParam: string) => string) => string> = {
  RetrieveAgenda: (r) => `which retrieves the agenda related to ${r('keyword')}`,
  RetrieveScirex: (r) => `which retrieves machine learning papers' paragraphs related to ${r('keyword')}`,
  LoadDB: (r) =>
    `which loads the database ${r('DBName')} and returns the database. The ${r('DBName')} can be one of the following: flights/coffee/airbnb/yelp/agenda`,
  FilterDB: (r) =>
    `which filters the loaded database by the conditions ${r('condition')} (each a column, a relation such as =, > or <= and a value, applied in order) and returns the filtered database`,
  GetValue: (r) => `which returns the values of the columns ${r('column_name')} of the loaded database`,
  LoadGraph: (r) =>
    `which loads the graph data ${r('GraphName')} and returns the graphs. The ${r('GraphName')} is dblp, which holds the graphs PaperNet and AuthorNet`,
  NeighbourCheck: (r) =>
    `which lists the neighbours of the node ${r('Node')} in the graph ${r('GraphName')} and returns the neighbours`,
  NodeCheck: (r) =>
    `which returns the detailed attribute information of the node ${r('Node')} in the graph ${r('GraphName')}`,
  EdgeCheck: (r) =>
    `which returns the detailed attribute information of the edge between ${r('Node1')} and ${r('Node2')} in the graph ${r('GraphName')}`,
  SQLInterpreter: (r) => `which interprets the SQL query in ${r('SQL')} and returns the result`,
  PythonInterpreter: (r) => `which interprets the Python code in ${r('Python')} and returns the result`,
};

/** What a structured slot holds, for descriptions: [noun, placeholder]. */
function slotWording(kernel: KernelToolName, kernelParam: string): [string, string] {
  switch (kernelParam) {
    case 'GraphName':
      return kernel === 'LoadGraph' ? ['graph data', 'dblp'] : ['graph', 'PaperNet|AuthorNet'];
    case 'Node':
      return ['node', 'node'];
    case 'Node1':
      return ['first node', 'node'];
    case 'Node2':
      return ['second node', 'node'];
    case 'DBName':
      return ['database', 'database'];
    case 'column_name':
      return ['columns', 'column, column, ...'];
    default:
      return [kernelParam, 'value'];
  }
}

/** P_c's description of a kernel parameter (the canonical wording of what it holds). */
function kernelParamText(kernel: KernelToolName, kernelParam: string): string {
  const tool = PC_SURFACE.tools.find((t) => t.kernel === kernel);
  const spec = tool?.params.find((p) => p.kind === 'rename' && p.kernel === kernelParam);
  return spec?.description ?? `The ${kernelParam}.`;
}

/** Names the built-in surfaces use, with the kernel tool behind each (served and retired names). */
const BUILTIN_NAMES: ReadonlyMap<string, ReadonlySet<KernelToolName>> = (() => {
  const map = new Map<string, Set<KernelToolName>>();
  for (const s of BUILTIN_SURFACES) {
    for (const n of [...s.tools, ...s.retired]) {
      const key = n.name.toLowerCase();
      map.set(key, (map.get(key) ?? new Set()).add(n.kernel));
    }
  }
  return map;
})();

function builtinClash(name: string, kernel: KernelToolName): boolean {
  const kernels = BUILTIN_NAMES.get(name.toLowerCase());
  return kernels !== undefined && [...kernels].some((k) => k !== kernel);
}

// ---------------------------------------------------------------------------------------------------------------
// Validity

/**
 * Everything that makes a generated surface unusable (empty when it is fine): `validateSurface`'s problems,
 * names or keys that are not exposed-name identifiers, names equal ignoring case, and names a built-in surface
 * uses for another kernel tool.
 */
export function driftProblems(surface: Surface): string[] {
  const problems = validateSurface(surface);
  const seen = new Map<string, string>();
  for (const n of [...surface.tools, ...surface.retired]) {
    if (!EXPOSED_NAME.test(n.name)) problems.push(`name ${JSON.stringify(n.name)} is not an exposed name`);
    const other = seen.get(n.name.toLowerCase());
    if (other !== undefined && other !== n.name)
      problems.push(`names ${other} and ${n.name} differ only in case`);
    seen.set(n.name.toLowerCase(), n.name);
    if (builtinClash(n.name, n.kernel)) {
      problems.push(`name ${n.name} (${n.kernel}) is a built-in name of another kernel tool`);
    }
  }
  for (const tool of surface.tools) {
    for (const key of exposedKeys(tool.params)) {
      if (!EXPOSED_NAME.test(key))
        problems.push(`${tool.name}: key ${JSON.stringify(key)} is not an exposed name`);
    }
  }
  return problems;
}

/** The keys a tool's parameters are sent under (a numbered parameter by its first key). */
function exposedKeys(params: readonly ParamSpec[]): string[] {
  return params.flatMap((p) =>
    p.kind === 'numbered' ? [`${p.prefix}1`, ...(p.singleKey !== undefined ? [p.singleKey] : [])] : [p.name],
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Names

function normalisedWords(name: string): string {
  return splitWords(name)
    .map((w) => w.toLowerCase())
    .join(' ');
}

/** Special separators for the gaps of a name, at least one of them with a `-`. */
function specialJoiners(gaps: number, rng: Rng): string[] {
  const joiners = Array.from({ length: gaps }, () => rng.weighted(SPECIAL_SEPARATORS, SPECIAL_WEIGHTS));
  if (gaps > 0 && !joiners.some((j) => j.includes('-'))) {
    joiners[rng.int(0, gaps - 1)] = rng.pick(SPECIAL_SEPARATORS.filter((s) => s.includes('-')));
  }
  return joiners;
}

/** Joiners for every word boundary (digit runs get none from joinWords), with the special ones at the gaps. */
function joinSpecial(words: readonly string[], rng: Rng): string {
  const special = specialJoiners(wordGaps(words), rng);
  let g = 0;
  const joiners = words.slice(1).map((w) => (/^[0-9]+$/.test(w) ? '' : (special[g++] as string)));
  return joinWords(words, joiners);
}

/** A tool name from renamed words (see `rename-tool`). */
function renamedToolWords(baseName: string, rng: Rng): string[] {
  let words = splitWords(baseName);
  // Drop some filler words, keeping at least two words.
  const kept = words.filter((w) => !(FILLER_WORDS.has(w.toLowerCase()) && rng.chance(0.4)));
  if (kept.length >= 2) words = kept;
  const out = words.map((w) => {
    const syn = synonymsOf(w);
    return syn.length > 0 && rng.chance(0.75) ? rng.pick(syn) : canonicalWord(w);
  });
  const changed = out.some((w, i) => w.toLowerCase() !== (words[i] as string).toLowerCase());
  if (!changed && words.length === splitWords(baseName).length) {
    const candidates = words.flatMap((w, i) => (synonymsOf(w).length > 0 ? [i] : []));
    if (candidates.length > 0) {
      const i = rng.pick(candidates);
      out[i] = rng.pick(synonymsOf(words[i] as string));
    } else out.push(rng.pick(QUALIFIERS));
  }
  return out;
}

/** The surface-wide word map of `rename-params`: one synonym per word. */
function paramWord(root: Rng, word: string): string {
  const syn = synonymsOf(word);
  return syn.length > 0
    ? root.fork(`rename-params/word/${word.toLowerCase()}`).pick(syn)
    : canonicalWord(word);
}

function stripTrailingDigits(name: string): string {
  return name.replace(/[0-9]+$/, '');
}

// ---------------------------------------------------------------------------------------------------------------
// Key renaming inside one tool

type KeyRole = 'key' | 'prefix';

/**
 * Renames every key of a tool's parameters with `fresh(old, attempt, role)`, keeping the keys distinct (ignoring
 * case), numbered prefixes free of trailing digits and of clashes with `{prefix}{n}` keys; the single key of a
 * numbered parameter follows its prefix when it was equal to it.
 */
function renameKeys(
  params: readonly ParamSpec[],
  fresh: (old: string, attempt: number, role: KeyRole) => string,
): ParamSpec[] {
  const assigned = new Map<string, string>();
  const used: { key: string; role: KeyRole }[] = [];
  const clashes = (k: string, role: KeyRole) =>
    !EXPOSED_NAME.test(k) ||
    (role === 'prefix' && /[0-9]$/.test(k)) ||
    used.some(
      (u) =>
        u.key.toLowerCase() === k.toLowerCase() ||
        (u.role === 'prefix' && new RegExp(`^${escapeRegex(u.key)}[0-9]+$`, 'i').test(k)) ||
        (role === 'prefix' && new RegExp(`^${escapeRegex(k)}[0-9]+$`, 'i').test(u.key)),
    );
  const rename = (old: string, role: KeyRole): string => {
    const hit = assigned.get(`${role}:${old}`);
    if (hit !== undefined) return hit;
    for (let attempt = 0; attempt < 200; attempt++) {
      const k = fresh(old, attempt, role);
      if (!clashes(k, role)) {
        assigned.set(`${role}:${old}`, k);
        used.push({ key: k, role });
        return k;
      }
    }
    throw new Error(`drift: no free key for ${old}`);
  };
  return params.map((p): ParamSpec => {
    if (p.kind !== 'numbered') return { ...p, name: rename(p.name, 'key') };
    const prefix = rename(p.prefix, 'prefix');
    const out: ParamSpec = { ...p, prefix };
    if (p.singleKey !== undefined)
      out.singleKey = p.singleKey === p.prefix ? prefix : rename(p.singleKey, 'key');
    return out;
  });
}

/** Carries renamed keys into `singleKeyWith` (which names other keys of the same tool). */
function renameCompanions(before: readonly ParamSpec[], after: ParamSpec[]): ParamSpec[] {
  const map = new Map<string, string>();
  before.forEach((p, i) => {
    const q = after[i] as ParamSpec;
    if (p.kind !== 'numbered' && q.kind !== 'numbered') map.set(p.name, q.name);
  });
  return after.map((p) =>
    p.kind === 'numbered' && p.singleKeyWith
      ? { ...p, singleKeyWith: p.singleKeyWith.map((k) => map.get(k) ?? k) }
      : p,
  );
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function keysOf(params: readonly ParamSpec[]): string[] {
  return params.flatMap((p) => (p.kind === 'numbered' ? [p.prefix, p.singleKey ?? p.prefix] : [p.name]));
}

/** A key not yet used by the tool (ignoring case): the candidate, else the candidate with a qualifier. */
function freeKey(params: readonly ParamSpec[], candidate: string): string {
  const taken = new Set(keysOf(params).map((k) => k.toLowerCase()));
  if (!taken.has(candidate.toLowerCase())) return candidate;
  for (const q of QUALIFIERS) if (!taken.has(`${candidate}${q}`.toLowerCase())) return `${candidate}${q}`;
  for (let n = 2; ; n++) if (!taken.has(`${candidate}X${n}`.toLowerCase())) return `${candidate}X${n}`;
}

// ---------------------------------------------------------------------------------------------------------------
// The generator

interface Draft {
  base: SurfaceTool;
  kernel: KernelToolName;
  name: string;
  params: ParamSpec[];
}

/** Chooses the drafts a kind changes: each with probability p, at least one when any is eligible. */
function choose<T>(items: readonly T[], p: number, rng: Rng): T[] {
  const chosen = items.filter(() => rng.chance(p));
  if (chosen.length === 0 && items.length > 0) chosen.push(rng.pick(items));
  return chosen;
}

function applySplit(drafts: Draft[], rng: Rng): void {
  const eligible = drafts.filter((d) => {
    const s = SPLITTABLE[d.kernel];
    return s !== undefined && d.params.some((p) => p.kind === 'rename' && p.kernel === s.param);
  });
  for (const d of choose(eligible, 0.7, rng)) {
    const s = SPLITTABLE[d.kernel] as { param: string; joiner: string };
    d.params = d.params.map((p): ParamSpec => {
      if (p.kind !== 'rename' || p.kernel !== s.param) return p;
      const prefix = stripTrailingDigits(p.name) || s.param;
      return {
        kind: 'numbered',
        prefix,
        kernel: s.param,
        joiner: s.joiner,
        singleKey: prefix,
        singleKeyWith: [],
        description: '',
      };
    });
  }
}

function structuredKey(kernel: KernelToolName, rng: Rng): string {
  const head = rng.pick(STRUCTURED_KEY_HEADS[kernel] ?? ['Input']);
  return styleName([head, rng.pick(STRUCTURED_KEY_TAILS)], rng.pick(NAME_STYLES), rng);
}

function applyStructured(drafts: Draft[], rng: Rng): void {
  let changed = false;
  // Structured → plain keys named after the labels.
  for (const d of drafts) {
    if (!isDomain(d.kernel) || !d.params.some((p) => p.kind === 'structured')) continue;
    const plain = d.params.filter((p) => p.kind !== 'structured');
    const out: ParamSpec[] = [];
    for (const p of d.params) {
      if (p.kind !== 'structured') {
        out.push(p);
        continue;
      }
      for (const slot of p.slots) {
        const name = freeKey([...plain, ...out], slot.label);
        out.push({ kind: 'rename', name, kernel: slot.kernel, description: '' });
      }
    }
    d.params = out;
    changed = true;
  }
  // A lone string → a one-slot structured string.
  const eligible = drafts.filter((d) => {
    const k = WRAPPABLE[d.kernel];
    return k !== undefined && d.params.some((p) => p.kind === 'rename' && p.kernel === k);
  });
  const chosen = eligible.filter(() => rng.chance(0.5));
  if (!changed && chosen.length === 0 && eligible.length > 0) chosen.push(rng.pick(eligible));
  for (const d of chosen) {
    const kernelParam = WRAPPABLE[d.kernel] as string;
    const label = rng.pick(SLOT_LABELS[kernelParam] ?? ['Value']);
    const others = d.params.filter((p) => !(p.kind === 'rename' && p.kernel === kernelParam));
    const key = freeKey(others, structuredKey(d.kernel, rng));
    d.params = d.params.map(
      (p): ParamSpec =>
        p.kind === 'rename' && p.kernel === kernelParam
          ? { kind: 'structured', name: key, slots: [{ label, kernel: kernelParam }], description: '' }
          : p,
    );
  }
}

function graphLabels(kernelParams: readonly string[], rng: Rng, avoid: readonly string[] = []): string[] {
  const pair = rng.pick(NODE_PAIR_LABELS);
  return kernelParams.map((k) => {
    if (k === 'Node1') return pair[0];
    if (k === 'Node2') return pair[1];
    const options = (SLOT_LABELS[k] ?? [k]).filter((l) => !avoid.includes(l));
    return rng.pick(options.length > 0 ? options : [`${k}Label`]);
  });
}

function applyMerge(drafts: Draft[], rng: Rng): void {
  const plainGraphParams = (d: Draft) =>
    d.params.filter((p): p is Extract<ParamSpec, { kind: 'rename' }> => p.kind === 'rename');
  const eligible = drafts.filter((d) => {
    if (!GRAPH_TOOLS.includes(d.kernel)) return false;
    const plain = plainGraphParams(d).length;
    const structured = d.params.some((p) => p.kind === 'structured');
    return plain >= 2 || (plain >= 1 && structured);
  });
  for (const d of choose(eligible, 0.6, rng)) {
    const plain = plainGraphParams(d);
    const existing = d.params.find(
      (p): p is Extract<ParamSpec, { kind: 'structured' }> => p.kind === 'structured',
    );
    if (existing) {
      // Take the remaining plain parameters into the structured string, in front of its slots.
      const avoid = existing.slots.map((s) => s.label);
      const labels = graphLabels(
        plain.map((p) => p.kernel),
        rng,
        avoid,
      );
      const slots = [
        ...plain.map((p, i) => ({ label: labels[i] as string, kernel: p.kernel })),
        ...existing.slots,
      ];
      d.params = d.params
        .filter((p) => !plain.includes(p as Extract<ParamSpec, { kind: 'rename' }>))
        .map((p) => (p === existing ? { ...existing, slots, description: '' } : p));
      continue;
    }
    // EdgeCheck: both nodes, or the graph and both nodes.
    const merged =
      d.kernel === 'EdgeCheck' && plain.length === 3 && rng.chance(0.5)
        ? plain.filter((p) => p.kernel !== 'GraphName')
        : plain;
    const labels = graphLabels(
      merged.map((p) => p.kernel),
      rng,
    );
    const others = d.params.filter((p) => !merged.includes(p as Extract<ParamSpec, { kind: 'rename' }>));
    const spec: ParamSpec = {
      kind: 'structured',
      name: freeKey(others, structuredKey(d.kernel, rng)),
      slots: merged.map((p, i) => ({ label: labels[i] as string, kernel: p.kernel })),
      description: '',
    };
    const first = d.params.findIndex((p) => merged.includes(p as Extract<ParamSpec, { kind: 'rename' }>));
    const out = [...others];
    out.splice(Math.min(first, out.length), 0, spec);
    d.params = out;
  }
}

function applyPrefixes(drafts: Draft[], rng: Rng): void {
  for (const d of drafts) {
    const code = CODE_LANGUAGE[d.kernel];
    if (!code) continue;
    const r = rng.fork(d.kernel);
    d.params = d.params.map((p): ParamSpec => {
      if ((p.kind !== 'rename' && p.kind !== 'prefixed') || p.kernel !== code.param) return p;
      const old = p.kind === 'prefixed' ? p.prefix : null;
      const options = CODE_PREFIXES.map((t) => t.replace('{lang}', code.lang)).filter((x) => x !== old);
      const trim = p.kind === 'prefixed' ? p.trim : code.trim;
      return {
        kind: 'prefixed',
        name: p.name,
        kernel: p.kernel,
        prefix: r.pick(options),
        trim,
        description: '',
      };
    });
  }
}

function applyRenameParams(drafts: Draft[], root: Rng): void {
  const fresh = (kernel: KernelToolName) => (old: string, attempt: number) => {
    const words = splitWords(old);
    const stem = words.filter((w) => !/^[0-9]+$/.test(w)).join(' ');
    const rng = root.fork(`rename-params/name/${stem.toLowerCase()}/${attempt}`);
    let out = words.map((w) => {
      if (/^[0-9]+$/.test(w)) return w;
      if (attempt === 0) return paramWord(root, w);
      const syn = synonymsOf(w);
      return syn.length > 0 ? rng.pick(syn) : canonicalWord(w);
    });
    const heads = CODE_HEADS[kernel];
    const code = CODE_LANGUAGE[kernel];
    const language = code ? [code.lang, ...synonymsOf(code.lang)].map((l) => l.toLowerCase()) : [];
    if (heads && code && words.length === 1 && language.includes(old.toLowerCase())) {
      // A key that is only the language (`SQL`) gets a head noun: `SQLStatement`.
      out = [rng.chance(0.5) ? code.lang : (out[0] as string), rng.pick(heads)];
    }
    // Past a few attempts (keys that keep colliding), a qualifier word makes the key new.
    if (normalisedWords(out.join(' ')) === normalisedWords(old) || attempt >= 20)
      out.push(rng.pick(QUALIFIERS));
    return styleName(out, rng.pick(NAME_STYLES), rng);
  };
  for (const d of drafts) {
    if (!isDomain(d.kernel)) continue;
    const before = d.params;
    let params = renameCompanions(before, renameKeys(before, fresh(d.kernel)));
    // Labels of structured strings: the same word map, always PascalCase (they read like names).
    params = params.map((p): ParamSpec => {
      if (p.kind !== 'structured') return p;
      const labels: string[] = [];
      const slots = p.slots.map((s) => {
        let label = '';
        for (let attempt = 0; attempt < 200; attempt++) {
          const rng = root.fork(`rename-params/label/${s.label}/${attempt}`);
          const words = splitWords(s.label).map((w) =>
            /^[0-9]+$/.test(w) ? w : attempt === 0 ? paramWord(root, w) : rng.pick([w, ...synonymsOf(w)]),
          );
          if (normalisedWords(words.join(' ')) === normalisedWords(s.label)) words.push(rng.pick(QUALIFIERS));
          label = styleName(words, 'PascalCase', rng);
          if (!labels.some((l) => l.toLowerCase() === label.toLowerCase())) break;
        }
        labels.push(label);
        return { ...s, label };
      });
      return { ...p, slots };
    });
    d.params = params;
  }
}

function applyFlags(drafts: Draft[], rng: Rng): void {
  const eligible = drafts.filter((d) => isDomain(d.kernel));
  for (const d of choose(eligible, 0.35, rng)) {
    const taken = keysOf(d.params).map((k) => k.toLowerCase());
    const prefixes = d.params.flatMap((p) => (p.kind === 'numbered' ? [p.prefix.toLowerCase()] : []));
    let name = '';
    for (let attempt = 0; attempt < 200; attempt++) {
      name = styleName(rng.pick(FLAG_NAMES), rng.pick(NAME_STYLES), rng);
      const lower = name.toLowerCase();
      if (
        !taken.includes(lower) &&
        !prefixes.some((p) => new RegExp(`^${escapeRegex(p)}[0-9]+$`).test(lower))
      )
        break;
    }
    const accepted = [...rng.pick(FLAG_VALUES)];
    d.params = [
      ...d.params.map((p) =>
        p.kind === 'numbered' && p.singleKey !== undefined
          ? { ...p, singleKeyWith: [...(p.singleKeyWith ?? []), name] }
          : p,
      ),
      { kind: 'flag', name, accepted, optional: false, description: '' },
    ];
  }
}

function applySpecialKeys(drafts: Draft[], root: Rng): void {
  const fresh = (old: string, attempt: number) => {
    const words = splitWords(old);
    if (wordGaps(words) === 0) return old;
    for (let a = attempt; ; a++) {
      const name = joinSpecial(words, root.fork(`special-chars/key/${old}/${a}`));
      if (name !== old) return name;
    }
  };
  for (const d of drafts) {
    if (!isDomain(d.kernel)) continue;
    d.params = renameCompanions(d.params, renameKeys(d.params, fresh));
  }
}

function applyToolNames(drafts: Draft[], base: Surface, kinds: readonly DriftKind[], root: Rng): void {
  const rename = kinds.includes('rename-tool');
  const special = kinds.includes('special-chars');
  if (!rename && !special) return;
  const taken = new Set([...base.tools, ...base.retired].map((t) => t.name.toLowerCase()));
  for (const d of drafts) {
    if (!isDomain(d.kernel)) continue;
    let name = '';
    for (let attempt = 0; ; attempt++) {
      if (attempt >= 200) throw new Error(`drift: no free name for ${d.base.name}`);
      if (rename) {
        const rng = root.fork(`rename-tool/${d.kernel}/${attempt}`);
        const words = renamedToolWords(d.base.name, rng);
        const style: NameStyle = rng.pick(NAME_STYLES);
        name = special
          ? joinSpecial(caseWords(words, style), root.fork(`special-chars/tool/${d.kernel}/${attempt}`))
          : joinWords(caseWords(words, style), styleJoiners(style, words.length, rng));
        if (normalisedWords(name) === normalisedWords(d.base.name)) continue;
      } else {
        name = joinSpecial(splitWords(d.base.name), root.fork(`special-chars/tool/${d.kernel}/${attempt}`));
      }
      const lower = name.toLowerCase();
      if (
        name !== d.base.name &&
        EXPOSED_NAME.test(name) &&
        !taken.has(lower) &&
        !builtinClash(name, d.kernel)
      )
        break;
    }
    taken.add(name.toLowerCase());
    d.name = name;
  }
}

function wrapResponse(base: ResponseFormat, rng: Rng): ResponseFormat {
  for (;;) {
    const [success, failure] = rng.pick(RESPONSE_STATES);
    const format: ResponseFormat = {
      kind: 'wrapped',
      stateKey: rng.pick(RESPONSE_STATE_KEYS),
      messageKey: rng.pick(RESPONSE_MESSAGE_KEYS),
      success,
      failure,
    };
    if (
      base.kind !== 'wrapped' ||
      base.stateKey !== format.stateKey ||
      base.messageKey !== format.messageKey
    ) {
      return format;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Documentation of changed tools

function quoteValue(v: string | boolean): string {
  return typeof v === 'string' ? `"${v}"` : String(v);
}

function acceptedText(accepted: readonly (string | boolean)[]): string {
  const parts = accepted.map(quoteValue);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} or ${parts.at(-1)}`;
}

function structuredGrammar(kernel: KernelToolName, spec: Extract<ParamSpec, { kind: 'structured' }>): string {
  return spec.slots.map((s) => `${s.label}[<${slotWording(kernel, s.kernel)[1]}>]`).join(', ');
}

function describeParam(kernel: KernelToolName, p: ParamSpec): ParamSpec {
  switch (p.kind) {
    case 'rename':
      return { ...p, description: kernelParamText(kernel, p.kernel) };
    case 'ignored':
      return p;
    case 'flag':
      return {
        ...p,
        description: p.optional
          ? `Optional; when given it must be ${acceptedText(p.accepted)}.`
          : `Required; must be ${acceptedText(p.accepted)}.`,
      };
    case 'numbered': {
      const item = SPLITTABLE[kernel]?.item ?? 'One value';
      return {
        ...p,
        description: `${item} per key; the keys are ${p.prefix}1, ${p.prefix}2, … in this order.`,
      };
    }
    case 'structured': {
      const nouns = p.slots.map((s) => `the ${slotWording(kernel, s.kernel)[0]}`);
      const list =
        nouns.length <= 1 ? nouns.join('') : `${nouns.slice(0, -1).join(', ')} and ${nouns.at(-1)}`;
      const text = `${list.charAt(0).toUpperCase()}${list.slice(1)} as "${structuredGrammar(kernel, p)}" (no space before the last "[").`;
      return { ...p, description: text };
    }
    case 'prefixed':
      return {
        ...p,
        description: `${kernelParamText(kernel, p.kernel)} It must start with the literal "${p.prefix}".`,
      };
  }
}

function describeTool(kernel: KernelToolName, params: readonly ParamSpec[], fallback: string): string {
  if (!isDomain(kernel)) return fallback;
  const ref = (kernelParam: string): string => {
    for (const p of params) {
      if ((p.kind === 'rename' || p.kind === 'prefixed') && p.kernel === kernelParam) return p.name;
      if (p.kind === 'numbered' && p.kernel === kernelParam) return `${p.prefix}1, ${p.prefix}2, ...`;
      if (p.kind === 'structured') {
        const slot = p.slots.find((s) => s.kernel === kernelParam);
        if (slot) return `${slot.label} of ${p.name}`;
      }
    }
    return kernelParam;
  };
  const clauses: string[] = [];
  for (const p of params) {
    if (p.kind === 'structured') clauses.push(`${p.name} is written as "${structuredGrammar(kernel, p)}"`);
    if (p.kind === 'prefixed') clauses.push(`${p.name} must start with "${p.prefix}"`);
    if (p.kind === 'ignored') clauses.push(`${p.name} must be given`);
    if (p.kind === 'flag') {
      clauses.push(
        p.optional
          ? `${p.name}, when given, must be ${quoteValue(p.accepted[0] ?? '')}`
          : `${p.name} must be ${quoteValue(p.accepted[0] ?? '')}`,
      );
    }
  }
  const listed = params.some((p) => p.kind === 'numbered' && p.kernel === 'condition');
  const sentence =
    kernel === 'FilterDB' && !listed
      ? `which filters the loaded database by the conditions in ${ref('condition')} (each a column, a relation such as =, > or <= and a value; several separated by ", " and applied in order) and returns the filtered database`
      : SENTENCES[kernel](ref);
  return clauses.length > 0 ? `${sentence}; ${clauses.join('; ')}.` : `${sentence}.`;
}

function withoutDescriptions(params: readonly ParamSpec[]): string {
  return JSON.stringify(params.map(({ description: _, ...rest }) => rest));
}

/** The kernel call a tool's example stands for (P_c's example when the tool's own does not resolve). */
function exampleCall(
  surface: Surface,
  tool: SurfaceTool,
): { tool: KernelToolName; args: Record<string, unknown> } {
  const resolved = resolveCall(
    { ...surface, tools: [{ ...tool, lifecycle: { status: 'active' } }] },
    tool.name,
    tool.example,
  );
  if (resolved.kind === 'call') return { tool: tool.kernel, args: { ...resolved.call.args } };
  const pc = PC_SURFACE.tools.find((t) => t.kernel === tool.kernel);
  return { tool: tool.kernel, args: { ...(pc?.example ?? {}) } };
}

/** An old signature (`FilterDB[condition]`) as a tool shell that deprecationMessage writes back unchanged. */
function signatureShell(signature: string, kernel: KernelToolName): SurfaceTool {
  const m = /^([^[]*)\[(.*)\]$/s.exec(signature);
  const name = m ? (m[1] as string) : signature;
  const inner = m ? (m[2] as string) : '';
  const params: ParamSpec[] = (inner === '' ? [] : inner.split(', ')).map((n) => ({
    kind: 'rename',
    name: n,
    kernel: n,
    description: '',
  }));
  return {
    kernel,
    name,
    params,
    keyMismatch: 'param-error',
    description: '',
    example: {},
    lifecycle: { status: 'active' },
  };
}

/** The tool a retired name's message names as deprecated: from the message, else P_c's tool of that name. */
function retiredShell(entry: RetiredName): SurfaceTool {
  const m = /^Error: ([^\n]*?) is deprecated and will be removed in future releases\. Use /.exec(
    entry.message,
  );
  if (m) return signatureShell(m[1] as string, entry.kernel);
  const pc = PC_SURFACE.tools.find((t) => t.name === entry.name && t.kernel === entry.kernel);
  return pc ?? signatureShell(entry.name, entry.kernel);
}

// ---------------------------------------------------------------------------------------------------------------

/** The default id: `{base}-drift-{hash}` (a lower-case slug). */
export function driftSurfaceId(base: Surface, seed: Seed, kinds: readonly DriftKind[]): string {
  const [h] = hash128(`${base.id}\u0000${String(seed)}\u0000${kinds.join(',')}`);
  return `${base.id}-drift-${h.toString(16).padStart(8, '0')}`;
}

/** Derives a drifted surface from `base` (see the module header). */
export function generateSurface(base: Surface, options: DriftOptions): Surface {
  const kinds = normalizeDriftKinds(options.kinds);
  const has = (k: DriftKind) => kinds.includes(k);
  const root = new Rng(`surface-drift/${String(options.seed)}`);

  // One tool per kernel tool: the one the base serves it with; the base's other tools for it are retired.
  const primaries: SurfaceTool[] = [];
  const others: SurfaceTool[] = [];
  for (const t of base.tools) {
    if (toolForKernel(base, t.kernel) === t) primaries.push(t);
    else others.push(t);
  }
  const drafts: Draft[] = primaries.map((t) => ({
    base: t,
    kernel: t.kernel,
    name: t.name,
    params: structuredClone(t.params),
  }));

  if (has('split-params')) applySplit(drafts, root.fork('split-params'));
  if (has('structured-params')) applyStructured(drafts, root.fork('structured-params'));
  if (has('merge-params')) applyMerge(drafts, root.fork('merge-params'));
  if (has('prefixes')) applyPrefixes(drafts, root.fork('prefixes'));
  if (has('rename-params')) applyRenameParams(drafts, root);
  if (has('flags')) applyFlags(drafts, root.fork('flags'));
  if (has('special-chars')) applySpecialKeys(drafts, root);
  applyToolNames(drafts, base, kinds, root);

  // Tools, with placeholder examples for the changed ones (filled in below by translation).
  const changedParams = new Set<KernelToolName>();
  const tools: SurfaceTool[] = drafts.map((d) => {
    const reshaped = withoutDescriptions(d.params) !== withoutDescriptions(d.base.params);
    const renamed = d.name !== d.base.name;
    if (reshaped) changedParams.add(d.kernel);
    const params = reshaped
      ? d.params.map((p) => describeParam(d.kernel, p))
      : structuredClone(d.base.params);
    return {
      kernel: d.kernel,
      name: d.name,
      params,
      keyMismatch: reshaped || renamed ? 'param-error' : d.base.keyMismatch,
      description: reshaped ? describeTool(d.kernel, params, d.base.description) : d.base.description,
      example: structuredClone(d.base.example),
      lifecycle: { status: 'active' },
    };
  });

  const response = has('wrap-response')
    ? wrapResponse(base.response, root.fork('wrap-response'))
    : base.response;
  const id = options.id ?? driftSurfaceId(base, options.seed, kinds);
  const surface: Surface = {
    id,
    title: options.title ?? `${base.title}, drifted (seed ${String(options.seed)})`,
    description: `Generated from ${base.id} with seed ${String(options.seed)}: ${
      kinds.length > 0 ? kinds.map((k) => KIND_SUMMARIES[k]).join('; ') : 'no drift'
    }.`,
    derivedFrom: base.id,
    drift: { seed: String(options.seed), kinds: [...kinds] },
    tools,
    retired: [],
    response: structuredClone(response),
    messages: { ...base.messages },
  };

  for (const tool of tools) {
    if (!changedParams.has(tool.kernel)) continue;
    const baseTool = primaries.find((t) => t.kernel === tool.kernel) as SurfaceTool;
    const call = exampleCall(base, baseTool);
    // Untrimmed code after a prefix reads better with a space (the kernel gets the space, which SQL ignores).
    for (const p of tool.params) {
      if (p.kind !== 'prefixed' || p.trim) continue;
      const code = call.args[p.kernel];
      if (typeof code === 'string' && !/^\s/.test(code)) call.args[p.kernel] = ` ${code}`;
    }
    const translated = translateCall(surface, call);
    if (!translated.ok) throw new Error(`drift: example of ${tool.name}: ${translated.reason}`);
    tool.example = translated.args;
  }

  // UpdateTool's example introduces the database loader; keep it pointing at the served one.
  const loadDb = tools.find((t) => t.kernel === 'LoadDB');
  const updateTool = tools.find((t) => t.kernel === 'UpdateTool');
  const baseLoadDb = primaries.find((t) => t.kernel === 'LoadDB');
  if (
    loadDb &&
    updateTool &&
    baseLoadDb &&
    (loadDb.name !== baseLoadDb.name || changedParams.has('LoadDB'))
  ) {
    const key = updateTool.params.find((p) => p.kind === 'rename')?.name;
    if (key !== undefined) {
      updateTool.example = {
        [key]: `${toolCallText(loadDb)}, which is an updated version of ${baseLoadDb.name} and loads a database.`,
      };
    }
  }

  // Lifecycle: renamed tools and the base's duplicates retire; the base's retired names follow their successor.
  const served = (kernel: KernelToolName) => tools.find((t) => t.kernel === kernel);
  const retired: RetiredName[] = [];
  for (const entry of base.retired) {
    const successor = served(entry.kernel);
    if (!successor) continue;
    const before = base.tools.find((t) => t.name === entry.successor);
    const unchanged =
      before !== undefined &&
      before.name === successor.name &&
      JSON.stringify(before.params) === JSON.stringify(successor.params) &&
      JSON.stringify(before.example) === JSON.stringify(successor.example);
    retired.push(
      unchanged
        ? { ...entry }
        : {
            name: entry.name,
            kernel: entry.kernel,
            successor: successor.name,
            message: deprecationMessage(retiredShell(entry), successor),
          },
    );
  }
  for (const old of [...primaries, ...others]) {
    const successor = served(old.kernel);
    if (!successor || successor.name === old.name) continue;
    retired.push({
      name: old.name,
      kernel: old.kernel,
      successor: successor.name,
      message: deprecationMessage(old, successor),
    });
  }
  surface.retired = retired;

  const problems = driftProblems(surface);
  if (problems.length > 0)
    throw new Error(`drift: generated surface ${id} is invalid: ${problems.join('; ')}`);
  return surface;
}

// ---------------------------------------------------------------------------------------------------------------
// describeDrift

/** How one kernel parameter is sent. */
export type ParamCarrier =
  | { kind: 'key'; key: string }
  | { kind: 'numbered'; prefix: string; joiner: string; singleKey?: string }
  | { kind: 'structured'; key: string; label: string; labels: string[] }
  | { kind: 'prefixed'; key: string; prefix: string; trim: boolean };

export interface FlagInfo {
  name: string;
  accepted: (string | boolean)[];
  optional: boolean;
}

export interface ToolDrift {
  kernel: KernelToolName;
  /** The name on the base and on the other surface (null when that surface does not serve the kernel tool). */
  from: string | null;
  to: string | null;
  renamed: boolean;
  /** Kernel parameters sent differently (a different key, shape, label or prefix). */
  params: { kernelParam: string; from: ParamCarrier | null; to: ParamCarrier | null }[];
  flags: { added: FlagInfo[]; removed: FlagInfo[] };
  /** Required parameters whose value is ignored (`return_num`). */
  ignored: { added: string[]; removed: string[] };
  /** Literal prefixes of code parameters that appeared, changed or went away. */
  prefixes: { kernelParam: string; from: string | null; to: string | null }[];
  keyMismatch: { from: SurfaceTool['keyMismatch']; to: SurfaceTool['keyMismatch'] } | null;
}

export interface RetiredRef {
  name: string;
  kernel: KernelToolName;
  successor: string;
}

export interface SurfaceDrift {
  base: string;
  surface: string;
  /** The generator's record of the other surface, when it was generated. */
  drift: { seed: string; kinds: string[] } | null;
  renamedTools: { kernel: KernelToolName; from: string; to: string }[];
  /** Every kernel tool whose tool differs in any of the ways ToolDrift lists, in kernel order of the base. */
  tools: ToolDrift[];
  response: { from: ResponseFormat; to: ResponseFormat } | null;
  lifecycle: {
    /** Names retired on the other surface that the base did not have retired. */
    retired: RetiredRef[];
    /** Names retired on the base that the other surface no longer has retired. */
    unretired: RetiredRef[];
    /** Retired on both, with another successor. */
    redirected: { name: string; from: string; to: string }[];
    /** Served tools (matched by kernel tool) whose lifecycle differs. */
    tools: { kernel: KernelToolName; name: string; from: Lifecycle; to: Lifecycle }[];
  };
}

function carriers(tool: SurfaceTool | undefined): Map<string, ParamCarrier> {
  const out = new Map<string, ParamCarrier>();
  for (const p of tool?.params ?? []) {
    switch (p.kind) {
      case 'rename':
        out.set(p.kernel, { kind: 'key', key: p.name });
        break;
      case 'numbered': {
        const c: ParamCarrier = { kind: 'numbered', prefix: p.prefix, joiner: p.joiner };
        if (p.singleKey !== undefined) c.singleKey = p.singleKey;
        out.set(p.kernel, c);
        break;
      }
      case 'structured':
        for (const s of p.slots) {
          out.set(s.kernel, {
            kind: 'structured',
            key: p.name,
            label: s.label,
            labels: p.slots.map((x) => x.label),
          });
        }
        break;
      case 'prefixed':
        out.set(p.kernel, { kind: 'prefixed', key: p.name, prefix: p.prefix, trim: p.trim });
        break;
      default:
        break;
    }
  }
  return out;
}

function flagsOf(tool: SurfaceTool | undefined): FlagInfo[] {
  return (tool?.params ?? []).flatMap((p) =>
    p.kind === 'flag' ? [{ name: p.name, accepted: [...p.accepted], optional: p.optional }] : [],
  );
}

function toolDrift(
  kernel: KernelToolName,
  a: SurfaceTool | undefined,
  b: SurfaceTool | undefined,
): ToolDrift {
  const ca = carriers(a);
  const cb = carriers(b);
  const kernelParams = [...new Set([...ca.keys(), ...cb.keys()])];
  const params = kernelParams
    .map((k) => ({ kernelParam: k, from: ca.get(k) ?? null, to: cb.get(k) ?? null }))
    .filter((c) => JSON.stringify(c.from) !== JSON.stringify(c.to));
  const prefixes = kernelParams
    .map((k) => {
      const pa = ca.get(k);
      const pb = cb.get(k);
      return {
        kernelParam: k,
        from: pa?.kind === 'prefixed' ? pa.prefix : null,
        to: pb?.kind === 'prefixed' ? pb.prefix : null,
      };
    })
    .filter((p) => p.from !== p.to);
  const fa = flagsOf(a);
  const fb = flagsOf(b);
  const sameFlag = (x: FlagInfo) => (y: FlagInfo) => JSON.stringify(x) === JSON.stringify(y);
  const ignoredOf = (t: SurfaceTool | undefined) =>
    (t?.params ?? []).flatMap((p) => (p.kind === 'ignored' ? [p.name] : []));
  const ia = ignoredOf(a);
  const ib = ignoredOf(b);
  return {
    kernel,
    from: a?.name ?? null,
    to: b?.name ?? null,
    renamed: a !== undefined && b !== undefined && a.name !== b.name,
    params,
    flags: {
      added: fb.filter((f) => !fa.some(sameFlag(f))),
      removed: fa.filter((f) => !fb.some(sameFlag(f))),
    },
    ignored: { added: ib.filter((n) => !ia.includes(n)), removed: ia.filter((n) => !ib.includes(n)) },
    prefixes,
    keyMismatch:
      a && b && a.keyMismatch !== b.keyMismatch ? { from: a.keyMismatch, to: b.keyMismatch } : null,
  };
}

function isEmptyDrift(d: ToolDrift): boolean {
  return (
    d.from === d.to &&
    d.params.length === 0 &&
    d.flags.added.length === 0 &&
    d.flags.removed.length === 0 &&
    d.ignored.added.length === 0 &&
    d.ignored.removed.length === 0 &&
    d.prefixes.length === 0 &&
    d.keyMismatch === null
  );
}

/**
 * What changed from `base` to `other` (any two surfaces; the API serves it as
 * `GET /v1/surfaces/:id/diff?against=pc`): tools are matched by kernel tool (the tool that serves it, as
 * translateCall picks it), then their names, the way each kernel parameter is sent, flags, ignored parameters,
 * prefixes and key-mismatch answers are compared; plus the response format and the lifecycle (retired names and
 * tool lifecycles).
 */
export function describeDrift(base: Surface, other: Surface): SurfaceDrift {
  const kernels: KernelToolName[] = [];
  for (const t of [...base.tools, ...other.tools]) if (!kernels.includes(t.kernel)) kernels.push(t.kernel);
  const tools = kernels
    .map((k) => toolDrift(k, toolForKernel(base, k), toolForKernel(other, k)))
    .filter((d) => !isEmptyDrift(d));
  const ref = (r: RetiredName): RetiredRef => ({ name: r.name, kernel: r.kernel, successor: r.successor });
  const lifecycleTools: SurfaceDrift['lifecycle']['tools'] = [];
  for (const k of kernels) {
    const a = toolForKernel(base, k);
    const b = toolForKernel(other, k);
    if (a && b && JSON.stringify(a.lifecycle) !== JSON.stringify(b.lifecycle)) {
      lifecycleTools.push({ kernel: k, name: b.name, from: { ...a.lifecycle }, to: { ...b.lifecycle } });
    }
  }
  return {
    base: base.id,
    surface: other.id,
    drift: other.drift ? { seed: other.drift.seed, kinds: [...other.drift.kinds] } : null,
    renamedTools: tools.flatMap((d) =>
      d.renamed ? [{ kernel: d.kernel, from: d.from as string, to: d.to as string }] : [],
    ),
    tools,
    response:
      JSON.stringify(base.response) === JSON.stringify(other.response)
        ? null
        : { from: structuredClone(base.response), to: structuredClone(other.response) },
    lifecycle: {
      retired: other.retired.filter((r) => !base.retired.some((x) => x.name === r.name)).map(ref),
      unretired: base.retired.filter((r) => !other.retired.some((x) => x.name === r.name)).map(ref),
      redirected: other.retired.flatMap((r) => {
        const was = base.retired.find((x) => x.name === r.name);
        return was && was.successor !== r.successor
          ? [{ name: r.name, from: was.successor, to: r.successor }]
          : [];
      }),
      tools: lifecycleTools,
    },
  };
}
