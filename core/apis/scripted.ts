/**
 * A scripted client for imported APIs: it plays a gold call path (`GET /search/person`, then
 * `GET /person/{person_id}/movie_credits`) the way a careful agent that knows the surface would — each call's
 * arguments taken from the query and from the ids in earlier answers — translated onto any surface (drift
 * included). It is what shows that a query set's gold paths can be played on the mock, drifted or not, and it is
 * the baseline a benchmark compares agents with. It never reads the mock's state: only what answers show.
 *
 * Arguments of a base operation:
 * - a path or required parameter named like a value an earlier answer showed (`person_id`, `personId`,
 *   `season_number`) takes the most recent such value;
 * - else an id parameter (`company_id`) takes the `id` of the first object under a property naming its
 *   resource (`production_companies`), else of the first item of the last answer's list, else the last answer's
 *   own `id`;
 * - a search parameter (`query`, `q`) takes `text` (the query of the item, or what the caller passes);
 * - anything else required takes its schema's first enum value, default or example, else a simple valid value.
 */
import type { ApiCatalog, ApiOperation, ApiParam, JsonSchema } from './types.ts';
import { isValidJson } from './validate.ts';

export interface ScriptedStep {
  operation: string;
  args: Record<string, unknown>;
}

/** Every value of a key (recursively), most recent answer last. */
function valuesOf(body: unknown, test: (key: string) => boolean, out: unknown[] = []): unknown[] {
  if (Array.isArray(body)) for (const item of body) valuesOf(item, test, out);
  else if (body !== null && typeof body === 'object') {
    for (const [k, v] of Object.entries(body)) {
      if (test(k) && (typeof v === 'string' || typeof v === 'number')) out.push(v);
      valuesOf(v, test, out);
    }
  }
  return out;
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

function singularNoun(name: string): string {
  const w =
    name
      .toLowerCase()
      .replace(/(_id|id)$/i, '')
      .split(/[^a-z0-9]+/)
      .filter(Boolean)
      .pop() ?? '';
  if (w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  return w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

/** The `id` of the first object under a property whose name contains `noun` (`production_companies` ⊃ company). */
function idUnder(body: unknown, noun: string): unknown {
  if (Array.isArray(body)) {
    for (const item of body) {
      const v = idUnder(item, noun);
      if (v !== undefined) return v;
    }
    return undefined;
  }
  if (body === null || typeof body !== 'object') return undefined;
  for (const [k, v] of Object.entries(body)) {
    const key = norm(k);
    if (
      noun !== '' &&
      (key.includes(noun) || key.includes(`${noun}s`) || key.includes(noun.replace(/y$/, 'ies')))
    ) {
      const first = Array.isArray(v) ? v[0] : v;
      if (first && typeof first === 'object' && 'id' in first) return (first as { id: unknown }).id;
    }
  }
  for (const v of Object.values(body)) {
    if (v && typeof v === 'object') {
      const found = idUnder(v, noun);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The `id` of the first item of the first list of objects in an answer, else its own `id`. */
function firstItemId(body: unknown): unknown {
  const queue: unknown[] = [body];
  while (queue.length > 0) {
    const v = queue.shift();
    if (Array.isArray(v)) {
      const first = v.find((x) => x && typeof x === 'object' && 'id' in x);
      if (first) return (first as { id: unknown }).id;
    } else if (v && typeof v === 'object') queue.push(...Object.values(v));
  }
  return body && typeof body === 'object' && 'id' in body ? (body as { id: unknown }).id : undefined;
}

function simpleValue(schema: JsonSchema): unknown {
  if (typeof schema !== 'object') return 'x';
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'example';
  }
}

const SEARCH_PARAMS = new Set(['query', 'q', 'search', 'keyword', 'keywords', 'term', 'text']);

/**
 * What to search for in a query: its longest run of capitalised words after the first word ("Sofia Coppola" in
 * "give me the number of movies directed by Sofia Coppola"), else the whole query.
 */
export function searchText(query: string): string {
  const words = query
    .replace(/[?.!,;:"“”]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const joiner = (w: string) => /^(of|the|and|in|a|de|la|von|van)$/.test(w);
  let best: string[] = [];
  let run: string[] = [];
  for (const [i, w] of words.entries()) {
    if (i > 0 && /^[A-Z0-9]/.test(w)) run.push(w);
    else if (run.length > 0 && joiner(w)) run.push(w);
    else run = [];
    const trimmed = [...run];
    while (trimmed.length > 0 && joiner(trimmed[trimmed.length - 1] as string)) trimmed.pop();
    if (trimmed.length > best.length) best = trimmed;
  }
  return best.length > 0 ? best.join(' ') : query;
}

/** The value as the parameter's schema types it (`"42"` → 42 for an integer), if it then fits the schema. */
function fitted(p: ApiParam, v: unknown): { value: unknown } | null {
  const type = typeof p.schema === 'object' ? (p.schema as { type?: unknown }).type : undefined;
  let value = v;
  if ((type === 'integer' || type === 'number') && typeof v === 'string' && /^\d+$/.test(v))
    value = Number(v);
  if (type === 'string' && typeof v === 'number') value = String(v);
  return isValidJson(p.schema, value) ? { value } : null;
}

/** One earlier answer: the operation that gave it (name, and path when it has one) and its body. */
export interface ScriptedAnswer {
  operation: string;
  body: unknown;
}

function argFor(p: ApiParam, answers: readonly ScriptedAnswer[], text: string): unknown {
  const key = norm(p.name);
  for (let i = answers.length - 1; i >= 0; i--) {
    for (const v of valuesOf(answers[i]?.body, (k) => norm(k) === key)) {
      const f = fitted(p, v);
      if (f) return f.value;
    }
  }
  if (
    /(_id|Id|ID)$/.test(p.name) ||
    (p.in === 'path' && !/(_number|_num|Number|_index|Index)$/.test(p.name))
  ) {
    const noun = singularNoun(p.name);
    // An object under a property naming the resource (any answer); else the first list item of an answer of an
    // operation about the resource (`/movie/{id}/reviews` for `review_id`); else of the latest answer.
    const about = (a: ScriptedAnswer) => norm(a.operation).includes(noun);
    const passes: [(a: ScriptedAnswer) => boolean, (body: unknown) => unknown][] = [
      [() => true, (b) => idUnder(b, noun)],
      [about, firstItemId],
      [() => true, firstItemId],
    ];
    for (const [which, pick] of passes) {
      for (let i = answers.length - 1; i >= 0; i--) {
        const a = answers[i] as ScriptedAnswer;
        if (!which(a)) continue;
        const v = pick(a.body);
        const f = v === undefined ? null : fitted(p, v);
        if (f) return f.value;
      }
    }
  }
  if (SEARCH_PARAMS.has(p.name.toLowerCase())) return searchText(text);
  return simpleValue(p.schema);
}

/** The base arguments of the next gold call, given the answers so far (base-shaped or surface-shaped bodies). */
export function scriptedArgs(
  op: ApiOperation,
  answers: readonly ScriptedAnswer[],
  text: string,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const p of op.params) {
    if (!p.required && p.in !== 'path') continue;
    args[p.name] = argFor(p, answers, text);
  }
  if (op.body && !op.body.flattened && op.body.required) args.body = simpleValue(op.body.schema);
  return args;
}

/** Plays a path of base operations with `call` (which answers a body); returns the steps it took. */
export async function playPath(
  catalog: ApiCatalog,
  path: readonly string[],
  text: string,
  call: (operation: string, args: Record<string, unknown>) => Promise<unknown>,
): Promise<ScriptedStep[]> {
  const answers: ScriptedAnswer[] = [];
  const steps: ScriptedStep[] = [];
  for (const name of path) {
    const op = catalog.operations.find((o) => o.name === name);
    if (!op) throw new Error(`no operation ${name}`);
    const args = scriptedArgs(op, answers, text);
    steps.push({ operation: name, args });
    answers.push({ operation: `${name} ${op.path ?? ''}`, body: await call(name, args) });
  }
  return steps;
}
