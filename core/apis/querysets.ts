/**
 * Query sets for an imported API (issue 22 §5): queries with their gold calls, validated against the API's
 * operations. Formats (detected, or named by `opts.format`):
 * - `restbench`: RestBench's `[{query, solution: ["GET /search/person", …]}]` — gold *paths* of route templates;
 * - `draft`: DRAFT's test files `[{query, "relevant APIs": [...], api_list, query_id}]`; relevant APIs are DRAFT
 *   tool names (`GET_person_person_id_movie_credits`: method and path segments joined by `_`) or ToolBench
 *   `[tool, api]` pairs; the candidate APIs of `api_list` are kept as operation names in `meta.candidates` (the
 *   toolPool aid's `candidates` setting);
 * - `ste`: STE's `tool_test.json` (`{api: [{query, action, action_input}]}`, or the flat list) — call level: the
 *   gold tool and its arguments (`action_input` is JSON text);
 * - `toolalpaca`: ToolAlpaca's eval file (10 APIs, each with `Instructions` and `Golden_Answers`): the entry
 *   describing this API is chosen by `opts.entry` (index or `Name`), else by title, else by its functions;
 * - `calls`: a generic call-level list `[{query, calls: [{tool, args}], answer?}]` (or `{query, tool, args}`).
 *
 * The benchmark files' known slips are handled, not fixed in the data (`data/apis/README.md`): gold entries are
 * trimmed; a RestBench route differing from the document's only in a parameter's name maps to that operation with
 * a warning; repeated gold entries are kept (they count for the ordered Correct Path Rate); ToolAlpaca's
 * `getDetails` (ask the user) is kept in `meta.userQuestions`, `[Optional]` steps are marked `optional`, and gold
 * arguments that are not JSON (placeholders such as `${ip from getDetails}`) are kept as `argsText`.
 *
 * Problems name the item: `line` is the item's position in the set (index + 1; 0 for the file as a whole) and
 * `pointer` the JSON pointer of the offending value in the input.
 */

import { isJsonObject, type JsonObject, jsonPointer } from './json.ts';
import { matchGoldRoute, parseGoldCall } from './scoring.ts';
import type { ApiCatalog, ApiOperation, HttpMethod, ImportWarning } from './types.ts';

export interface GoldCall {
  /** The base operation (`ApiOperation.name`). */
  operation: string;
  method?: HttpMethod;
  /** The document's path template of the operation. */
  path?: string;
  /** Gold arguments (call-level sets), when they are JSON. */
  args?: Record<string, unknown>;
  /** Gold arguments as the file writes them when they are not JSON (ToolAlpaca placeholders). */
  argsText?: string;
  /** A step the gold marks optional (ToolAlpaca `[Optional]`). */
  optional?: boolean;
}

export interface QueryItem {
  /** 0-based position in the set. */
  index: number;
  query: string;
  gold: { path: GoldCall[]; answer?: unknown };
  meta?: Record<string, unknown>;
}

export type QuerySetFormat = 'restbench' | 'draft' | 'ste' | 'toolalpaca' | 'calls';

export interface QuerySet {
  format: QuerySetFormat;
  items: QueryItem[];
  warnings: ImportWarning[];
}

export interface QuerySetProblem {
  pointer: string;
  /** The item's position + 1 (0: the file as a whole). */
  line: number;
  reason: string;
}

export interface QuerySetOptions {
  format?: QuerySetFormat;
  /** ToolAlpaca: which entry of the eval file (index or `Name`). */
  entry?: number | string;
}

export type QuerySetResult = { ok: true; set: QuerySet } | { ok: false; problems: QuerySetProblem[] };

/** Reading stops after this many problems (the answer names the first ones). */
const MAX_PROBLEMS = 50;

class Collector {
  readonly problems: QuerySetProblem[] = [];
  readonly warnings: ImportWarning[] = [];

  problem(pointer: string, line: number, reason: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ pointer, line, reason });
  }

  warn(pointer: string, message: string, operation?: string): void {
    this.warnings.push({ pointer, message, ...(operation ? { operation } : {}) });
  }
}

export function parseQuerySet(
  input: unknown,
  catalog: ApiCatalog,
  opts: QuerySetOptions = {},
): QuerySetResult {
  const format = opts.format ?? detectFormat(input);
  if (format === null) {
    return {
      ok: false,
      problems: [
        {
          pointer: '',
          line: 0,
          reason:
            'not a query set: expected RestBench ([{query, solution}]), DRAFT ([{query, "relevant APIs"}]), STE tool_test ({api: [{query, action, action_input}]}), a ToolAlpaca eval file or a call list ([{query, calls}])',
        },
      ],
    };
  }
  const c = new Collector();
  const items = READERS[format](input, catalog, c, opts);
  if (c.problems.length > 0) return { ok: false, problems: c.problems };
  if (items.length === 0)
    return { ok: false, problems: [{ pointer: '', line: 0, reason: 'the query set has no items' }] };
  return { ok: true, set: { format, items, warnings: c.warnings } };
}

function detectFormat(input: unknown): QuerySetFormat | null {
  if (Array.isArray(input)) {
    const first = input.find(isJsonObject);
    if (!first) return null;
    if ('solution' in first) return 'restbench';
    if ('relevant APIs' in first) return 'draft';
    if ('Golden_Answers' in first || 'Instructions' in first) return 'toolalpaca';
    if ('action' in first && 'action_input' in first) return 'ste';
    if ('calls' in first || 'tool' in first) return 'calls';
    return null;
  }
  if (isJsonObject(input)) {
    const lists = Object.values(input);
    if (
      lists.length > 0 &&
      lists.every((l) => Array.isArray(l) && l.every((x) => isJsonObject(x) && 'action' in x))
    )
      return 'ste';
  }
  return null;
}

type Reader = (input: unknown, catalog: ApiCatalog, c: Collector, opts: QuerySetOptions) => QueryItem[];

const READERS: Record<QuerySetFormat, Reader> = {
  restbench: readRestBench,
  draft: readDraft,
  ste: readSte,
  toolalpaca: readToolAlpaca,
  calls: readCalls,
};

// ---- RestBench ----------------------------------------------------------------------------------------------

function readRestBench(input: unknown, catalog: ApiCatalog, c: Collector): QueryItem[] {
  return listItems(input, c, (raw, at, i, query) => {
    const solution = raw.solution;
    if (!Array.isArray(solution)) {
      c.problem(
        `${at}/solution`,
        i + 1,
        'the gold "solution" must be a list of calls such as "GET /search/person"',
      );
      return null;
    }
    const path: GoldCall[] = [];
    solution.forEach((entry, j) => {
      const where = `${at}/solution/${j}`;
      if (typeof entry !== 'string') {
        c.problem(where, i + 1, 'a gold call is a string such as "GET /search/person"');
        return;
      }
      const text = entry.trim();
      if (text !== entry) c.warn(where, `whitespace around the gold call "${text}" trimmed`);
      const call = goldRoute(text, catalog);
      if (typeof call === 'string') {
        c.problem(where, i + 1, call);
        return;
      }
      if (call.renamed) {
        c.warn(
          where,
          `gold call "${text}" names a parameter differently from the document: read as ${call.method.toUpperCase()} ${call.operation.path}`,
          call.operation.name,
        );
      }
      path.push(goldOf(call.operation));
    });
    return { index: i, query, gold: { path } };
  });
}

function goldRoute(
  text: string,
  catalog: ApiCatalog,
): { operation: ApiOperation; method: HttpMethod; renamed: boolean } | string {
  const parsed = parseGoldCall(text);
  if (!parsed) return `"${text}" is not a gold call ("METHOD /path", e.g. "GET /search/person")`;
  const hit = matchGoldRoute(catalog, parsed.method, parsed.path);
  if (!hit) return `unknown gold path "${text}": no operation of the API has this method and path`;
  return { operation: hit.operation, method: parsed.method, renamed: hit.renamed };
}

// ---- DRAFT --------------------------------------------------------------------------------------------------

/** DRAFT's tool name for an HTTP operation: `GET /person/{person_id}/movie_credits` → `GET_person_person_id_movie_credits`. */
export function draftToolName(method: string, path: string): string {
  const segments = path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => s.replace(/[{}]/g, ''));
  return [method.toUpperCase(), ...segments].join('_');
}

function readDraft(input: unknown, catalog: ApiCatalog, c: Collector): QueryItem[] {
  const byName = new Map<string, ApiOperation>();
  for (const op of catalog.operations) {
    byName.set(op.name, op);
    if (op.operationId) byName.set(op.operationId, op);
    if (op.method && op.path) byName.set(draftToolName(op.method, op.path), op);
  }
  return listItems(input, c, (raw, _at, i, query) => {
    const relevant = raw['relevant APIs'];
    if (!Array.isArray(relevant)) {
      c.problem(jsonPointer(String(i), 'relevant APIs'), i + 1, 'the gold "relevant APIs" must be a list');
      return null;
    }
    const path: GoldCall[] = [];
    relevant.forEach((entry, j) => {
      const where = jsonPointer(String(i), 'relevant APIs', j);
      let op: ApiOperation | undefined;
      let label: string;
      if (Array.isArray(entry) && entry.length === 2 && entry.every((e) => typeof e === 'string')) {
        const [tool, api] = entry as [string, string];
        label = `${tool} / ${api}`;
        op = catalog.operations.find((o) => o.tags?.[0] === tool && o.operationId === api);
      } else if (typeof entry === 'string') {
        label = entry.trim();
        op = byName.get(label);
      } else {
        c.problem(where, i + 1, 'a relevant API is a tool name or a [tool, api] pair');
        return;
      }
      if (!op) {
        c.problem(where, i + 1, `unknown relevant API "${label}": no operation of the API has this name`);
        return;
      }
      path.push(goldOf(op));
    });
    const id = raw.query_id;
    // The candidate APIs of the item (`api_list`: RestBench's 5-candidate setting), as operation names.
    const candidates: string[] = [];
    if (Array.isArray(raw.api_list))
      raw.api_list.forEach((entry, j) => {
        const name = isJsonObject(entry) && typeof entry.tool_name === 'string' ? entry.tool_name.trim() : '';
        const op = byName.get(name);
        if (op) candidates.push(op.name);
        else
          c.warn(jsonPointer(String(i), 'api_list', j), `candidate API "${name}" is no operation of the API`);
      });
    const meta = {
      ...(id !== undefined ? { queryId: id } : {}),
      ...(candidates.length > 0 ? { candidates } : {}),
    };
    return { index: i, query, gold: { path }, ...(Object.keys(meta).length > 0 ? { meta } : {}) };
  });
}

// ---- STE ----------------------------------------------------------------------------------------------------

function readSte(input: unknown, catalog: ApiCatalog, c: Collector): QueryItem[] {
  const entries: { raw: unknown; pointer: string; api?: string }[] = [];
  if (Array.isArray(input)) {
    for (const [i, raw] of input.entries()) entries.push({ raw, pointer: `/${i}` });
  } else if (isJsonObject(input)) {
    for (const [api, list] of Object.entries(input)) {
      if (!Array.isArray(list)) {
        c.problem(jsonPointer(api), 0, `the queries of "${api}" must be a list`);
        continue;
      }
      for (const [n, raw] of list.entries()) entries.push({ raw, pointer: jsonPointer(api, n), api });
    }
  }
  const items: QueryItem[] = [];
  entries.forEach(({ raw, pointer, api }, k) => {
    const query = queryOf(raw, pointer, k, c);
    if (query === null) return;
    const r = raw as JsonObject;
    const call = callOf(
      r.action,
      r.action_input,
      `${pointer}/action`,
      `${pointer}/action_input`,
      k,
      catalog,
      c,
    );
    if (!call) return;
    const candidates = Array.isArray(r.API_name_list) ? r.API_name_list : undefined;
    items.push({
      index: k,
      query,
      gold: { path: [call] },
      meta: { ...(api !== undefined ? { api } : {}), ...(candidates ? { candidates } : {}) },
    });
  });
  return items;
}

// ---- ToolAlpaca ---------------------------------------------------------------------------------------------

/** ToolAlpaca's "ask the user" action: part of its agent, not an API call. */
const ASK_USER = 'getDetails';

function readToolAlpaca(
  input: unknown,
  catalog: ApiCatalog,
  c: Collector,
  opts: QuerySetOptions,
): QueryItem[] {
  const entries = asList(input, c);
  const index = pickToolAlpacaEntry(entries, catalog, opts.entry);
  if (typeof index === 'string') {
    c.problem('', 0, index);
    return [];
  }
  const entry = entries[index] as JsonObject;
  const base = `/${index}`;
  const instructions = entry.Instructions;
  const answers = entry.Golden_Answers;
  if (!Array.isArray(instructions) || !Array.isArray(answers) || instructions.length !== answers.length) {
    c.problem(base, 0, 'a ToolAlpaca entry has as many "Instructions" as "Golden_Answers"');
    return [];
  }
  const items: QueryItem[] = [];
  instructions.forEach((query, k) => {
    if (typeof query !== 'string' || query.trim() === '') {
      c.problem(`${base}/Instructions/${k}`, k + 1, 'an instruction is a non-empty string');
      return;
    }
    const steps = answers[k];
    if (!Array.isArray(steps)) {
      c.problem(`${base}/Golden_Answers/${k}`, k + 1, 'a gold answer is a list of {Action, Action_Input}');
      return;
    }
    const path: GoldCall[] = [];
    const userQuestions: string[] = [];
    steps.forEach((step, m) => {
      const at = `${base}/Golden_Answers/${k}/${m}`;
      if (!isJsonObject(step) || typeof step.Action !== 'string') {
        c.problem(at, k + 1, 'a gold step is {Action, Action_Input}');
        return;
      }
      if (step.Action === ASK_USER) {
        const asked = parseArgs(step.Action_Input);
        userQuestions.push(
          typeof asked?.Question === 'string' ? asked.Question : String(step.Action_Input ?? ''),
        );
        return;
      }
      const optional = /^\[Optional\]\s*/i.test(step.Action);
      const call = callOf(
        step.Action.replace(/^\[Optional\]\s*/i, ''),
        step.Action_Input,
        `${at}/Action`,
        `${at}/Action_Input`,
        k,
        catalog,
        c,
      );
      if (call) path.push(optional ? { ...call, optional: true } : call);
    });
    items.push({
      index: k,
      query: query.trim(),
      gold: { path },
      meta: { api: entry.Name, ...(userQuestions.length > 0 ? { userQuestions } : {}) },
    });
  });
  return items;
}

function pickToolAlpacaEntry(
  entries: readonly unknown[],
  catalog: ApiCatalog,
  wanted: number | string | undefined,
): number | string {
  const names = entries.map((e) => (isJsonObject(e) && typeof e.Name === 'string' ? e.Name : '?'));
  const listed = names.join(', ');
  if (typeof wanted === 'number') {
    return Number.isInteger(wanted) && wanted >= 0 && wanted < entries.length
      ? wanted
      : `entry ${wanted} is not in the file (0–${entries.length - 1}: ${listed})`;
  }
  if (typeof wanted === 'string') {
    const i = names.indexOf(wanted);
    return i >= 0 ? i : `no entry is named "${wanted}" (the file has ${listed})`;
  }
  const title = normalTitle(catalog.title);
  const byTitle = entries.findIndex(
    (e) =>
      isJsonObject(e) && (normalTitle(String(e.Name)) === title || normalTitle(documentTitle(e)) === title),
  );
  if (byTitle >= 0) return byTitle;
  // Else the entry whose functions are all operations of this API.
  const ops = new Set(catalog.operations.flatMap((o) => [o.name, o.operationId ?? o.name]));
  const byFunctions = entries.findIndex(
    (e) =>
      isJsonObject(e) &&
      isJsonObject(e.Function_Projection) &&
      Object.keys(e.Function_Projection).length > 0 &&
      Object.keys(e.Function_Projection).every((f) => ops.has(f)),
  );
  if (byFunctions >= 0) return byFunctions;
  return `no entry of the ToolAlpaca file describes the API "${catalog.title}" (the file has ${listed}): name one with "entry"`;
}

function documentTitle(entry: JsonObject): string {
  if (typeof entry.Documentation !== 'string') return '';
  try {
    const doc = JSON.parse(entry.Documentation) as { info?: { title?: unknown } };
    return typeof doc.info?.title === 'string' ? doc.info.title : '';
  } catch {
    return '';
  }
}

function normalTitle(title: string): string {
  return title.trim().toLowerCase().replace(/\s+/g, ' ');
}

// ---- generic call lists -------------------------------------------------------------------------------------

function readCalls(input: unknown, catalog: ApiCatalog, c: Collector): QueryItem[] {
  return listItems(input, c, (r, at, i, query) => {
    const steps: { step: JsonObject; at: string }[] = Array.isArray(r.calls)
      ? r.calls.map((step, j) => ({
          step: (isJsonObject(step) ? step : {}) as JsonObject,
          at: `${at}/calls/${j}`,
        }))
      : [{ step: r, at }];
    const path: GoldCall[] = [];
    for (const { step, at: where } of steps) {
      const key = ['tool', 'name', 'operation', 'action'].find((k) => typeof step[k] === 'string') ?? 'tool';
      const argsKey = ['args', 'arguments', 'action_input'].find((k) => step[k] !== undefined) ?? 'args';
      const call = callOf(step[key], step[argsKey], `${where}/${key}`, `${where}/${argsKey}`, i, catalog, c);
      if (call) path.push(call);
    }
    return { index: i, query, gold: { path, ...(r.answer !== undefined ? { answer: r.answer } : {}) } };
  });
}

// ---- shared -------------------------------------------------------------------------------------------------

/** A call-level gold step: the tool by name (or source name), its arguments checked against the operation. */
function callOf(
  tool: unknown,
  rawArgs: unknown,
  toolAt: string,
  argsAt: string,
  index: number,
  catalog: ApiCatalog,
  c: Collector,
): GoldCall | null {
  if (typeof tool !== 'string' || tool.trim() === '') {
    c.problem(toolAt, index + 1, 'the gold call names no tool');
    return null;
  }
  const name = tool.trim();
  const op =
    catalog.operations.find((o) => o.name === name) ?? catalog.operations.find((o) => o.operationId === name);
  if (!op) {
    c.problem(toolAt, index + 1, `unknown gold tool "${name}": no operation of the API has this name`);
    return null;
  }
  const call = goldOf(op);
  if (rawArgs === undefined || rawArgs === null || rawArgs === '') return call;
  const args = parseArgs(rawArgs);
  if (args === null) {
    c.warn(argsAt, 'gold arguments are not a JSON object: kept as text', op.name);
    return { ...call, argsText: typeof rawArgs === 'string' ? rawArgs : JSON.stringify(rawArgs) };
  }
  const known = new Set([
    ...op.params.map((p) => p.name),
    ...(op.body && !op.body.flattened ? ['body'] : []),
  ]);
  const unknown = Object.keys(args).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    c.warn(
      argsAt,
      `gold arguments ${unknown.map((k) => `"${k}"`).join(', ')} are not parameters of ${op.name}`,
      op.name,
    );
  }
  return { ...call, args };
}

function parseArgs(raw: unknown): Record<string, unknown> | null {
  if (isJsonObject(raw)) return raw;
  if (typeof raw !== 'string') return null;
  try {
    const value = JSON.parse(raw) as unknown;
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

function goldOf(op: ApiOperation): GoldCall {
  return {
    operation: op.name,
    ...(op.method ? { method: op.method } : {}),
    ...(op.path ? { path: op.path } : {}),
  };
}

function queryOf(raw: unknown, at: string, index: number, c: Collector): string | null {
  if (!isJsonObject(raw)) {
    c.problem(at, index + 1, 'an item is a JSON object');
    return null;
  }
  if (typeof raw.query !== 'string' || raw.query.trim() === '') {
    c.problem(`${at}/query`, index + 1, 'the item has no query');
    return null;
  }
  return raw.query.trim();
}

/** The items of a set that is a JSON list: each read with its pointer, index and query (no query: a problem). */
function listItems(
  input: unknown,
  c: Collector,
  read: (item: JsonObject, at: string, index: number, query: string) => QueryItem | null,
): QueryItem[] {
  const items: QueryItem[] = [];
  for (const [i, raw] of asList(input, c).entries()) {
    const at = `/${i}`;
    const query = queryOf(raw, at, i, c);
    if (query === null) continue;
    const item = read(raw as JsonObject, at, i, query);
    if (item) items.push(item);
  }
  return items;
}

function asList(input: unknown, c: Collector): unknown[] {
  if (Array.isArray(input)) return input;
  c.problem('', 0, 'the query set must be a JSON list');
  return [];
}
