/**
 * What an observation tells the simulated policy, read from its text like a model would: whether the call was
 * rejected before reaching the tool (deprecated tool, unknown tool, bad parameters, unreadable JSON or output),
 * what a deprecation message announces (the replacement, its signature and param example, spec §4.6), and whether
 * a tool result looks like an error message. Observations wrapped in a JSON object of a state and a message
 * (`{"status": "ok", "Output": "…"}`) are unwrapped first.
 */
import { PyDict } from '../util/python-format.ts';
import { pyJsonLoads } from '../world/kernel/json-decode.ts';

export type Entries = readonly (readonly [string, unknown])[];

export interface Deprecation {
  /** The old tool as the message writes it (`LoadDB[DBName]`) and its name. */
  oldSignature: string;
  oldName: string;
  /** The replacement's name (null when the message leaves it out). */
  replacement: string | null;
  /** The replacement's parameters as its signature writes them. */
  params: string[];
  /** The param example (null when absent or unreadable). */
  example: Entries | null;
}

export type ObservationKind =
  | { kind: 'deprecated'; deprecation: Deprecation }
  | { kind: 'invalid-action' }
  | { kind: 'filtered' }
  | { kind: 'argument-error' }
  | { kind: 'param-error' }
  | { kind: 'finish'; correct: boolean }
  | { kind: 'update-tool'; ok: boolean }
  /** The tool ran; `error` when the text reads like an error message. */
  | { kind: 'result'; error: boolean };

/** Whether a kind means the call never reached a tool. */
export function isRejection(kind: ObservationKind): boolean {
  return (
    kind.kind === 'deprecated' ||
    kind.kind === 'invalid-action' ||
    kind.kind === 'filtered' ||
    kind.kind === 'argument-error' ||
    kind.kind === 'param-error'
  );
}

const STATE_KEY = /^(state|status|outcome|result)$/i;

/** The message inside a `{"<state>": "…", "<message>": "…"}` wrapper, or the observation itself. */
export function unwrapObservation(observation: string): string {
  const t = observation.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return observation;
  const r = pyJsonLoads(t);
  if (!r.ok || !(r.value instanceof PyDict) || r.value.entries.length !== 2) return observation;
  const [a, b] = r.value.entries as [readonly [string, unknown], readonly [string, unknown]];
  if (typeof a[1] !== 'string' || typeof b[1] !== 'string') return observation;
  if (STATE_KEY.test(a[0]) && !STATE_KEY.test(b[0])) return b[1];
  if (STATE_KEY.test(b[0]) && !STATE_KEY.test(a[0])) return a[1];
  return observation;
}

/** Decodes a JSON object leniently (raw line breaks in strings; single quotes as a model might write them). */
export function readJsonObject(text: string): Entries | null {
  const direct = pyJsonLoads(text);
  if (direct.ok && direct.value instanceof PyDict) return direct.value.entries;
  const requoted = pyJsonLoads(text.replace(/'/g, '"'));
  if (requoted.ok && requoted.value instanceof PyDict) return requoted.value.entries;
  return null;
}

const DEPRECATED =
  /^Error: ([\s\S]+?) is deprecated and will be removed in future releases\. Use ([\s\S]*) instead\.$/;
const USE = /^([^\s[\],]*)(?:\[([^\]]*)\])?(?:, param example: ?([\s\S]*))?$/;

export function parseDeprecation(text: string): Deprecation | null {
  const m = DEPRECATED.exec(text.trim());
  if (!m) return null;
  const oldSignature = m[1] as string;
  const use = USE.exec((m[2] as string).trim());
  const oldName = oldSignature.replace(/\[[\s\S]*$/, '').trim();
  if (!use) return { oldSignature, oldName, replacement: null, params: [], example: null };
  const name = (use[1] as string).trim();
  const inner = (use[2] ?? '').trim();
  const exampleText = (use[3] ?? '').trim();
  return {
    oldSignature,
    oldName,
    replacement: name === '' ? null : name,
    params: inner === '' ? [] : inner.split(/\s*,\s*/),
    example: exampleText.startsWith('{') ? readJsonObject(exampleText) : null,
  };
}

/**
 * An imported API's retirement notice (`retiredMessage` in core/apis/surface/tools.ts) — the same facts as a kernel
 * deprecation message in the API's words: `getPerson (GET /person/{person_id}) is deprecated and was removed on
 * 2026-03-01. Use fetchPerson[personId, language] (GET /v2/people/{personId}) instead.` (or `is no longer served`,
 * or `will be removed on …`). The successor's route is dropped; its signature lists its parameters. No param
 * example: the API's notices carry none.
 */
const API_RETIRED =
  /^([\s\S]+?) is deprecated and (?:is no longer served|(?:was|will be) removed on \S+?)\.(?: Use ([\s\S]+?) instead\.)?$/;
const API_USE = /^([^\s[\],()]+)(?:\[([^\]]*)\])?$/;

export function parseApiRetirement(observation: string): Deprecation | null {
  const m = API_RETIRED.exec(unwrapObservation(observation).trim());
  if (!m) return null;
  const oldSignature = (m[1] as string).trim();
  const oldName = oldSignature.replace(/[\s[(][\s\S]*$/, '');
  const use = API_USE.exec((m[2] ?? '').replace(/\s*\([A-Z]+ [^)]*\)\s*$/, '').trim());
  if (!use) return { oldSignature, oldName, replacement: null, params: [], example: null };
  const inner = (use[2] ?? '').trim();
  return {
    oldSignature,
    oldName,
    replacement: use[1] as string,
    params: inner === '' ? [] : inner.split(/\s*,\s*/),
    example: null,
  };
}

const PARAM_ERROR =
  /^(There is something wrong with (the arguments you send for|your command you send|the params you send|the SQL command you send|the Python command you send)|expected string or bytes-like object)/;

const TOOL_ERROR = [
  /Please modify (it|the condition)\.$/,
  /Please make changes\.$/,
  /Please try another query\.$/,
  /Please change another (database|graph) for query\.$/,
  /^Please first load the relevant database/,
  /^we have failed when conducting/,
  /^We don't have the graph data named/,
  /^You should print the variable/,
  /^[A-Z]\w*(Error|Exception)\b/,
  /^An error occurred:/,
  /^some error iccurs when using/,
];

export function classifyObservation(observation: string): ObservationKind {
  const text = unwrapObservation(observation).trim();
  const deprecation = parseDeprecation(text);
  if (deprecation) return { kind: 'deprecated', deprecation };
  if (text.startsWith('Invalid Action.')) return { kind: 'invalid-action' };
  if (/^Yo(ur|u) action is filtered/.test(text)) return { kind: 'filtered' };
  if (text.startsWith('argument error:')) return { kind: 'argument-error' };
  if (PARAM_ERROR.test(text)) return { kind: 'param-error' };
  if (
    text === 'Answer is CORRECT' ||
    text === 'Answer is INCORRECT' ||
    text.startsWith('Answer is recorded')
  ) {
    return { kind: 'finish', correct: text === 'Answer is CORRECT' };
  }
  if (text === 'The description for the new tool has been updated successfully.') {
    return { kind: 'update-tool', ok: true };
  }
  if (text.startsWith('Tool update failed.')) return { kind: 'update-tool', ok: false };
  return { kind: 'result', error: TOOL_ERROR.some((re) => re.test(text)) };
}
