/**
 * Decoding of the ReAct `Action Input` the way ToolQA-D does it: CPython 3.11 `json.loads(text, strict=False)`
 * (C scanner), including its error messages and `line/column/char` positions, which the agent sees verbatim as
 * `argument error: <message>`.
 *
 * Decoded values are Python-typed (`PyInt` vs `PyFloat`, `PyDict` keeping key order with the last value of a
 * duplicate key in the first key's position), because later steps depend on it: v1/v2 parameter checks are
 * positional over key order, and Finish compares `str(answer)` (`12323` vs `12323.0`).
 *
 * Deliberate differences from ToolQA-D:
 * - A JSON value that is not an object (only reachable by direct API callers: the ReAct parser always hands over
 *   text that starts with `{`) is rejected with `argument error: the action input must be a JSON object, not
 *   <type>`. The original would crash with an AttributeError on `.keys()`.
 * - Nesting deeper than 900 levels yields CPython's RecursionError text; the exact depth at which CPython gives up
 *   depends on its stack and is not reproduced.
 */
import { PyDict, PyFloat, PyInt, type PyRenderable } from '../../util/python-format.ts';
import { argumentError } from './messages.ts';
import { pyTypeName } from './python-text.ts';

export type JsonDecodeResult = { ok: true; value: PyRenderable } | { ok: false; message: string };

const MAX_DEPTH = 900;

class JsonError extends Error {
  constructor(
    readonly msg: string,
    readonly pos: number,
  ) {
    super(msg);
  }
}

class RecursionLimit extends Error {
  constructor(readonly container: 'object' | 'array') {
    super('recursion');
  }
}

/** Stops the scan like CPython's StopIteration(idx): "no value starts here". */
class NoValue extends Error {
  constructor(readonly pos: number) {
    super('no value');
  }
}

const isWs = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

class Scanner {
  private depth = 0;
  constructor(
    private readonly s: string,
    /** CPython's `strict=True` (the default of `json.loads`): control characters inside strings are errors. */
    private readonly strict = false,
  ) {}

  skipWs(i: number): number {
    const s = this.s;
    while (i < s.length && isWs(s.charCodeAt(i))) i++;
    return i;
  }

  /** Returns [value, end index]. */
  value(i: number): [PyRenderable, number] {
    const s = this.s;
    if (i >= s.length) throw new NoValue(i);
    const c = s[i];
    if (c === '"') return this.string(i + 1);
    if (c === '{') return this.nested('object', () => this.object(i + 1));
    if (c === '[') return this.nested('array', () => this.array(i + 1));
    if (c === 'n' && s.startsWith('null', i)) return [null, i + 4];
    if (c === 't' && s.startsWith('true', i)) return [true, i + 4];
    if (c === 'f' && s.startsWith('false', i)) return [false, i + 5];
    if (c === 'N' && s.startsWith('NaN', i)) return [new PyFloat(Number.NaN), i + 3];
    if (c === 'I' && s.startsWith('Infinity', i)) return [new PyFloat(Number.POSITIVE_INFINITY), i + 8];
    if (c === '-' && s.startsWith('-Infinity', i)) return [new PyFloat(Number.NEGATIVE_INFINITY), i + 9];
    return this.number(i);
  }

  private nested(container: 'object' | 'array', f: () => [PyRenderable, number]): [PyRenderable, number] {
    this.depth++;
    try {
      if (this.depth > MAX_DEPTH) throw new RecursionLimit(container);
      return f();
    } finally {
      this.depth--;
    }
  }

  private number(start: number): [PyRenderable, number] {
    const s = this.s;
    const n = s.length;
    let i = start;
    if (s.charCodeAt(i) === 0x2d) {
      i++;
      if (i >= n) throw new NoValue(start);
    }
    const first = s.charCodeAt(i);
    if (first >= 0x31 && first <= 0x39) {
      i++;
      while (i < n && isDigit(s.charCodeAt(i))) i++;
    } else if (first === 0x30) {
      i++;
    } else {
      throw new NoValue(start);
    }
    let isFloat = false;
    if (i + 1 < n && s[i] === '.' && isDigit(s.charCodeAt(i + 1))) {
      isFloat = true;
      i += 2;
      while (i < n && isDigit(s.charCodeAt(i))) i++;
    }
    if (i < n && (s[i] === 'e' || s[i] === 'E')) {
      const eStart = i;
      i++;
      if (i < n && (s[i] === '-' || s[i] === '+')) i++;
      while (i < n && isDigit(s.charCodeAt(i))) i++;
      if (isDigit(s.charCodeAt(i - 1))) isFloat = true;
      else i = eStart;
    }
    const text = s.slice(start, i);
    if (isFloat) return [new PyFloat(Number(text)), i];
    const asNumber = Number(text);
    return [new PyInt(Number.isSafeInteger(asNumber) ? asNumber : BigInt(text)), i];
  }

  /** `begin` is the index just after the opening quote. */
  string(begin: number): [string, number] {
    const s = this.s;
    const n = s.length;
    const quote = begin - 1;
    let out = '';
    let i = begin;
    for (;;) {
      let j = i;
      while (j < n && s[j] !== '"' && s[j] !== '\\' && !(this.strict && s.charCodeAt(j) < 0x20)) j++;
      if (j >= n) throw new JsonError('Unterminated string starting at', quote);
      if (this.strict && s.charCodeAt(j) < 0x20) throw new JsonError('Invalid control character at', j);
      out += s.slice(i, j);
      if (s[j] === '"') return [out, j + 1];
      // backslash at j
      if (j + 1 >= n) throw new JsonError('Unterminated string starting at', quote);
      const esc = s[j + 1];
      if (esc !== 'u') {
        const simple: Record<string, string> = {
          '"': '"',
          '\\': '\\',
          '/': '/',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
        };
        const ch = simple[esc as string];
        if (ch === undefined) throw new JsonError('Invalid \\escape', j);
        out += ch;
        i = j + 2;
        continue;
      }
      // \uXXXX: CPython's C scanner demands the four digits end before the last character of the document.
      const u = j + 1;
      let end = u + 5;
      if (end >= n) throw new JsonError('Invalid \\uXXXX escape', u);
      let c = 0;
      for (let k = u + 1; k < end; k++) {
        const h = hexValue(s.charCodeAt(k));
        if (h < 0) throw new JsonError('Invalid \\uXXXX escape', end - 5);
        c = (c << 4) | h;
      }
      if (c >= 0xd800 && c <= 0xdbff && end + 6 < n && s[end] === '\\' && s[end + 1] === 'u') {
        let c2 = 0;
        const end2 = end + 6;
        for (let k = end + 2; k < end2; k++) {
          const h = hexValue(s.charCodeAt(k));
          if (h < 0) throw new JsonError('Invalid \\uXXXX escape', end2 - 5);
          c2 = (c2 << 4) | h;
        }
        if (c2 >= 0xdc00 && c2 <= 0xdfff) {
          out += String.fromCharCode(c, c2);
          end = end2;
        } else {
          out += String.fromCharCode(c);
        }
      } else {
        out += String.fromCharCode(c);
      }
      i = end;
    }
  }

  private object(start: number): [PyDict, number] {
    const s = this.s;
    const n = s.length;
    const entries = new Map<string, PyRenderable>();
    let i = this.skipWs(start);
    if (i >= n || s[i] !== '}') {
      for (;;) {
        if (i >= n || s[i] !== '"')
          throw new JsonError('Expecting property name enclosed in double quotes', i);
        const [key, afterKey] = this.string(i + 1);
        i = this.skipWs(afterKey);
        if (i >= n || s[i] !== ':') throw new JsonError("Expecting ':' delimiter", i);
        i = this.skipWs(i + 1);
        const [val, afterVal] = this.value(i);
        entries.set(key, val);
        i = this.skipWs(afterVal);
        if (i < n && s[i] === '}') break;
        if (i >= n || s[i] !== ',') throw new JsonError("Expecting ',' delimiter", i);
        i = this.skipWs(i + 1);
      }
    }
    return [new PyDict([...entries]), i + 1];
  }

  private array(start: number): [PyRenderable[], number] {
    const s = this.s;
    const n = s.length;
    const items: PyRenderable[] = [];
    let i = this.skipWs(start);
    if (i >= n || s[i] !== ']') {
      for (;;) {
        const [val, afterVal] = this.value(i);
        items.push(val);
        i = this.skipWs(afterVal);
        if (i < n && s[i] === ']') break;
        if (i >= n || s[i] !== ',') throw new JsonError("Expecting ',' delimiter", i);
        i = this.skipWs(i + 1);
      }
    }
    return [items, i + 1];
  }
}

/** Python's `JSONDecodeError` text: positions count code points, lines and columns are 1-based. */
function formatError(s: string, msg: string, unitPos: number): string {
  let pos = 0;
  let lineno = 1;
  let lastNl = -1;
  for (let i = 0; i < unitPos && i < s.length; i++) {
    const c = s.charCodeAt(i);
    const isPairTail = c >= 0xdc00 && c <= 0xdfff && i > 0 && isHigh(s.charCodeAt(i - 1));
    if (isPairTail) continue;
    if (c === 0x0a) {
      lineno++;
      lastNl = pos;
    }
    pos++;
  }
  return `${msg}: line ${lineno} column ${pos - lastNl} (char ${pos})`;
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/**
 * CPython `json.loads(text, strict=False)` (`{ strict: true }`: plain `json.loads(text)`); on failure `message` is
 * the exception text.
 */
export function pyJsonLoads(text: string, opts: { strict?: boolean } = {}): JsonDecodeResult {
  if (text.startsWith('\ufeff')) {
    return { ok: false, message: formatError(text, 'Unexpected UTF-8 BOM (decode using utf-8-sig)', 0) };
  }
  const scanner = new Scanner(text, opts.strict ?? false);
  try {
    const start = scanner.skipWs(0);
    const [value, end] = scanner.value(start);
    const after = scanner.skipWs(end);
    if (after !== text.length) return { ok: false, message: formatError(text, 'Extra data', after) };
    return { ok: true, value };
  } catch (e) {
    if (e instanceof NoValue) return { ok: false, message: formatError(text, 'Expecting value', e.pos) };
    if (e instanceof JsonError) return { ok: false, message: formatError(text, e.msg, e.pos) };
    if (e instanceof RecursionLimit) {
      return {
        ok: false,
        message: `maximum recursion depth exceeded while decoding a JSON ${e.container} from a unicode string`,
      };
    }
    throw e;
  }
}

export type ActionInputResult = { ok: true; params: PyDict } | { ok: false; observation: string };

/** §3.0 step 2: decode the Action Input text into a parameter dict, or the `argument error: …` observation. */
export function decodeActionInput(text: string): ActionInputResult {
  const r = pyJsonLoads(text);
  if (!r.ok) return { ok: false, observation: argumentError(r.message) };
  if (!(r.value instanceof PyDict)) {
    return {
      ok: false,
      observation: argumentError(`the action input must be a JSON object, not ${pyTypeName(r.value)}`),
    };
  }
  return { ok: true, params: r.value };
}

/** The decoded parameters as a plain record (key order is not preserved for integer-like keys). */
export function paramsToRecord(params: PyDict): Record<string, PyRenderable> {
  const out: Record<string, PyRenderable> = {};
  for (const [k, v] of params.entries) out[k] = v;
  return out;
}
