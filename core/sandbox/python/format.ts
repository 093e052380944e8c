/**
 * Python string formatting: the format-spec mini-language (`format()`, f-strings, `str.format`) and printf-style
 * `%` formatting, with CPython 3.11's rounding (exact, half-even) and error messages.
 */

import { pyFloatRepr } from '../../util/python-format.ts';
import { floatToInt, formatExp, formatFixed, formatGeneral, toFloat } from './numeric.ts';
import {
  custom,
  isInt,
  type Kwargs,
  keyError,
  overflowError,
  PyDict,
  PyTuple,
  type PyValue,
  pyErr,
  type Runtime,
  toBig,
  typeError,
  typeName,
  valueError,
} from './objects.ts';
import { intToStr } from './repr.ts';

interface Spec {
  fill: string;
  align: '<' | '>' | '^' | '=' | null;
  sign: '+' | '-' | ' ' | null;
  z: boolean;
  alt: boolean;
  zero: boolean;
  width: number;
  grouping: ',' | '_' | null;
  precision: number | null;
  type: string;
}

const SPEC_RE = /^(?:(.)?([<>=^]))?([+\- ])?(z)?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([a-zA-Z%])?$/su;

function parseSpec(spec: string, v: PyValue): Spec {
  const m = SPEC_RE.exec(spec);
  if (!m) throw valueError(`Invalid format specifier '${spec}' for object of type '${typeName(v)}'`);
  const s: Spec = {
    fill: m[1] ?? ' ',
    align: (m[2] as Spec['align']) ?? null,
    sign: (m[3] as Spec['sign']) ?? null,
    z: m[4] !== undefined,
    alt: m[5] !== undefined,
    zero: m[6] !== undefined,
    width: m[7] ? Number(m[7]) : 0,
    grouping: (m[8] as Spec['grouping']) ?? null,
    precision: m[9] !== undefined ? Number(m[9]) : null,
    type: m[10] ?? '',
  };
  if (s.width > 100_000_000 || (s.precision ?? 0) > 100_000_000)
    throw valueError('Too many decimal digits in format string');
  if (s.zero && m[2] === undefined) {
    s.fill = '0';
    s.align = '=';
  }
  if (s.grouping) {
    const ok = s.grouping === ',' ? 'defgEFG%' : 'defgEFG%boxX';
    if (s.type !== '' && !ok.includes(s.type)) {
      throw valueError(`Cannot specify '${s.grouping}' with '${s.type}'.`);
    }
  }
  return s;
}

function pad(body: string, sign: string, s: Spec, defaultAlign: '<' | '>'): string {
  const align = s.align ?? defaultAlign;
  const len = [...body].length + sign.length;
  const n = Math.max(0, s.width - len);
  if (n === 0) return sign + body;
  const fill = s.fill.repeat(n);
  switch (align) {
    case '<':
      return sign + body + fill;
    case '>':
      return fill + sign + body;
    case '=':
      return sign + fill + body;
    default: {
      const left = Math.floor(n / 2);
      return s.fill.repeat(left) + sign + body + s.fill.repeat(n - left);
    }
  }
}

function group(intDigits: string, sep: string, every: number): string {
  let out = '';
  for (let i = intDigits.length; i > 0; i -= every) {
    const part = intDigits.slice(Math.max(0, i - every), i);
    out = out ? `${part}${sep}${out}` : part;
  }
  return out;
}

/** Pads/zero-fills a number: sign, optional prefix, digits (integer part grouped), fraction/exponent tail. */
function finishNumber(
  neg: boolean,
  prefix: string,
  intPart: string,
  tail: string,
  s: Spec,
  every = 3,
): string {
  const sign = neg ? '-' : s.sign === '+' ? '+' : s.sign === ' ' ? ' ' : '';
  let digits = intPart;
  if (s.grouping) digits = group(intPart, s.grouping, every);
  if (s.align === '=' && s.fill === '0' && s.grouping && /^\d+$/.test(intPart)) {
    // Zero padding participates in grouping ('{:010,}'.format(1234) == '00,001,234').
    const target = s.width - sign.length - prefix.length - tail.length;
    let raw = intPart;
    while (group(raw, s.grouping, every).length < target) raw = `0${raw}`;
    digits = group(raw, s.grouping, every);
    return sign + prefix + digits + tail;
  }
  const body = digits + tail;
  if (s.align === '=') {
    return pad(body, sign + prefix, s, '>');
  }
  return pad(prefix + body, sign, s, '>');
}

function formatInt(n: bigint, s: Spec, v: PyValue): string {
  if ('eEfFgG%'.includes(s.type) && s.type !== '') return formatFloat(toFloat(n), s, v);
  if (!'bcdoxXn'.includes(s.type) && s.type !== '') {
    throw valueError(`Unknown format code '${s.type}' for object of type '${typeName(v)}'`);
  }
  if (s.precision !== null) throw valueError('Precision not allowed in integer format specifier');
  if (s.type === 'c') {
    if (s.sign) throw valueError("Sign not allowed with integer format specifier 'c'");
    if (n < 0n || n > 0x10ffffn) throw overflowError('%c arg not in range(0x110000)');
    return pad(String.fromCodePoint(Number(n)), '', s, '<');
  }
  const neg = n < 0n;
  const a = neg ? -n : n;
  let digits: string;
  let prefix = '';
  let every = 3;
  switch (s.type) {
    case 'b':
      digits = a.toString(2);
      prefix = s.alt ? '0b' : '';
      every = 4;
      break;
    case 'o':
      digits = a.toString(8);
      prefix = s.alt ? '0o' : '';
      every = 4;
      break;
    case 'x':
      digits = a.toString(16);
      prefix = s.alt ? '0x' : '';
      every = 4;
      break;
    case 'X':
      digits = a.toString(16).toUpperCase();
      prefix = s.alt ? '0X' : '';
      every = 4;
      break;
    default:
      digits = intToStr(a);
  }
  return finishNumber(neg, prefix, digits, '', s, every);
}

function formatFloat(x: number, s: Spec, v: PyValue): string {
  if (s.type !== '' && !'eEfFgGn%'.includes(s.type)) {
    throw valueError(`Unknown format code '${s.type}' for object of type '${typeName(v)}'`);
  }
  let neg = x < 0 || Object.is(x, -0);
  if (Number.isNaN(x)) neg = false;
  const upper = s.type === 'E' || s.type === 'F' || s.type === 'G';
  let body: string;
  let suffix = '';
  if (!Number.isFinite(x)) {
    body = Number.isNaN(x) ? 'nan' : 'inf';
    if (upper) body = body.toUpperCase();
    if (s.type === '%') suffix = '%';
    return finishNumber(neg, '', body + suffix, '', { ...s, grouping: null });
  }
  const a = Math.abs(x);
  switch (s.type) {
    case 'f':
    case 'F':
      body = formatFixed(a, s.precision ?? 6);
      if (s.alt && !body.includes('.')) body += '.';
      break;
    case 'e':
    case 'E':
      body = formatExp(a, s.precision ?? 6, upper);
      if (s.alt && !body.includes('.')) body = body.replace(/[eE]/, (m) => `.${m}`);
      break;
    case 'g':
    case 'G':
    case 'n':
      body = formatGeneral(a, s.precision ?? 6, s.alt, upper);
      break;
    case '%':
      body = formatFixed(a * 100, s.precision ?? 6);
      suffix = '%';
      break;
    default:
      body = s.precision === null ? pyFloatRepr(a) : formatGeneral(a, s.precision, s.alt, false, true);
  }
  // 'z' turns negative zero (after rounding) into zero.
  if (s.z && neg && !/[1-9]/.test(body.replace(/[eE][+-]\d+$/, ''))) neg = false;
  // Split integer part from the rest for grouping.
  const m = /^(\d+)(.*)$/s.exec(body) as RegExpExecArray;
  return finishNumber(neg, '', m[1] as string, (m[2] as string) + suffix, s);
}

function formatStr(str: string, s: Spec, v: PyValue): string {
  if (s.type !== '' && s.type !== 's') {
    throw valueError(`Unknown format code '${s.type}' for object of type '${typeName(v)}'`);
  }
  if (s.sign) throw valueError('Sign not allowed in string format specifier');
  if (s.alt) throw valueError('Alternate form (#) not allowed in string format specifier');
  if (s.align === '=') throw valueError("'=' alignment not allowed in string format specifier");
  let body = str;
  if (s.precision !== null) body = [...str].slice(0, s.precision).join('');
  return pad(body, '', s, '<');
}

/** `format(value, spec)`. */
export function formatValue(v: PyValue, spec: string, rt: Runtime): string {
  if (spec === '') return rt.str(v);
  if (typeof v === 'string') return formatStr(v, parseSpec(spec, v), v);
  if (typeof v === 'bigint' || typeof v === 'boolean') return formatInt(toBig(v), parseSpec(spec, v), v);
  if (typeof v === 'number') return formatFloat(v, parseSpec(spec, v), v);
  const c = custom(v);
  if (c?.pyFormat) return c.pyFormat(rt, spec);
  throw typeError(`unsupported format string passed to ${typeName(v)}.__format__`);
}

// ------------------------------------------------------------------------------------------------ str.format

/** `template.format(*args, **kwargs)`. */
export function strFormat(
  template: string,
  args: readonly PyValue[],
  kwargs: Kwargs | null,
  rt: Runtime,
): string {
  const state = { auto: 0, mode: 'none' as 'none' | 'auto' | 'manual' };
  return renderTemplate(template, args, kwargs, rt, state, 0);
}

function renderTemplate(
  template: string,
  args: readonly PyValue[],
  kwargs: Kwargs | null,
  rt: Runtime,
  state: { auto: number; mode: 'none' | 'auto' | 'manual' },
  depth: number,
): string {
  if (depth > 2) throw valueError('Max string recursion exceeded');
  let out = '';
  let i = 0;
  while (i < template.length) {
    const c = template[i] as string;
    if (c === '{') {
      if (template[i + 1] === '{') {
        out += '{';
        i += 2;
        continue;
      }
      // Find the matching '}' (nested braces allowed in the spec).
      let j = i + 1;
      let d = 1;
      while (j < template.length) {
        const cj = template[j];
        if (cj === '{') d++;
        else if (cj === '}') {
          d--;
          if (d === 0) break;
        } else if (cj === '[' && d === 1) {
          // Keys inside [] may contain braces? CPython scans to ']' first.
          const close = template.indexOf(']', j);
          if (close >= 0) j = close;
        }
        j++;
      }
      if (j >= template.length) {
        throw valueError(d > 1 ? "unmatched '{' in format spec" : "expected '}' before end of string");
      }
      out += renderField(template.slice(i + 1, j), args, kwargs, rt, state, depth);
      i = j + 1;
      continue;
    }
    if (c === '}') {
      if (template[i + 1] === '}') {
        out += '}';
        i += 2;
        continue;
      }
      throw valueError("Single '}' encountered in format string");
    }
    out += c;
    i++;
  }
  return out;
}

function renderField(
  field: string,
  args: readonly PyValue[],
  kwargs: Kwargs | null,
  rt: Runtime,
  state: { auto: number; mode: 'none' | 'auto' | 'manual' },
  depth: number,
): string {
  // Split field_name [!conversion] [:spec], respecting [] in the field name.
  let k = 0;
  while (k < field.length && field[k] !== '!' && field[k] !== ':') {
    if (field[k] === '[') {
      const close = field.indexOf(']', k);
      k = close < 0 ? field.length : close + 1;
    } else k++;
  }
  const name = field.slice(0, k);
  let conversion: string | null = null;
  let spec = '';
  if (field[k] === '!') {
    conversion = field[k + 1] ?? '';
    if (field.length > k + 2 && field[k + 2] !== ':') {
      throw valueError("expected ':' after conversion specifier");
    }
    k += 2;
  }
  if (field[k] === ':') spec = field.slice(k + 1);
  let value = lookupField(name, args, kwargs, rt, state);
  if (conversion !== null) {
    if (conversion === 'r') value = rt.repr(value);
    else if (conversion === 's') value = rt.str(value);
    else if (conversion === 'a') value = asciiRepr(rt.repr(value));
    else throw valueError(`Unknown conversion specifier ${conversion}`);
  }
  if (spec.includes('{')) spec = renderTemplate(spec, args, kwargs, rt, state, depth + 1);
  return formatValue(value, spec, rt);
}

function lookupField(
  name: string,
  args: readonly PyValue[],
  kwargs: Kwargs | null,
  rt: Runtime,
  state: { auto: number; mode: 'none' | 'auto' | 'manual' },
): PyValue {
  const m = /^([^.[]*)(.*)$/s.exec(name) as RegExpExecArray;
  const first = m[1] as string;
  let rest = m[2] as string;
  let value: PyValue;
  if (first === '') {
    if (state.mode === 'manual') {
      throw valueError('cannot switch from manual field specification to automatic field numbering');
    }
    state.mode = 'auto';
    const idx = state.auto++;
    if (idx >= args.length)
      throw pyErr('IndexError', `Replacement index ${idx} out of range for positional args tuple`);
    value = args[idx] as PyValue;
  } else if (/^\d+$/.test(first)) {
    if (state.mode === 'auto') {
      throw valueError('cannot switch from automatic field numbering to manual field specification');
    }
    state.mode = 'manual';
    const idx = Number(first);
    if (idx >= args.length)
      throw pyErr('IndexError', `Replacement index ${idx} out of range for positional args tuple`);
    value = args[idx] as PyValue;
  } else {
    const v = kwargs?.get(first);
    if (v === undefined) throw keyError(first);
    value = v;
  }
  while (rest) {
    if (rest[0] === '.') {
      const mm = /^\.([^.[]+)(.*)$/s.exec(rest);
      if (!mm) throw valueError('Empty attribute in format string');
      value = rt.getAttr(value, mm[1] as string);
      rest = mm[2] as string;
    } else if (rest[0] === '[') {
      const close = rest.indexOf(']');
      if (close < 0) throw valueError("Missing ']' in format string");
      const key = rest.slice(1, close);
      if (key === '') throw valueError('Empty attribute in format string');
      const keyValue: PyValue = /^\d+$/.test(key) ? BigInt(key) : key;
      value = rt.getItem(value, keyValue);
      rest = rest.slice(close + 1);
    } else {
      throw valueError("Only '.' or '[' may follow ']' in format field specifier");
    }
  }
  return value;
}

export function asciiRepr(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) out += ch;
    else if (cp <= 0xff) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp <= 0xffff) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return out;
}

// ------------------------------------------------------------------------------------------------ % formatting

/** `template % args` (printf-style). */
export function percentFormat(template: string, args: PyValue, rt: Runtime): string {
  const isMapping = args instanceof PyDict;
  const items: readonly PyValue[] = args instanceof PyTuple ? args.items : [args];
  let argIndex = 0;
  let usedMapping = false;
  const nextArg = (): PyValue => {
    if (argIndex >= items.length) throw typeError('not enough arguments for format string');
    return items[argIndex++] as PyValue;
  };
  let out = '';
  let i = 0;
  const n = template.length;
  while (i < n) {
    const c = template[i] as string;
    if (c !== '%') {
      out += c;
      i++;
      continue;
    }
    i++;
    if (i >= n) throw valueError('incomplete format');
    let value: PyValue | undefined;
    if (template[i] === '(') {
      if (!isMapping) throw typeError('format requires a mapping');
      let depth = 1;
      let j = i + 1;
      while (j < n && depth > 0) {
        if (template[j] === '(') depth++;
        else if (template[j] === ')') depth--;
        j++;
      }
      if (depth > 0) throw valueError('incomplete format key');
      const key = template.slice(i + 1, j - 1);
      const v = (args as PyDict).get(key);
      if (v === undefined) throw keyError(key);
      value = v;
      usedMapping = true;
      i = j;
    }
    const flags = { minus: false, plus: false, space: false, alt: false, zero: false };
    while (i < n && '-+ #0'.includes(template[i] as string)) {
      const f = template[i];
      if (f === '-') flags.minus = true;
      else if (f === '+') flags.plus = true;
      else if (f === ' ') flags.space = true;
      else if (f === '#') flags.alt = true;
      else flags.zero = true;
      i++;
    }
    let width = 0;
    if (template[i] === '*') {
      const w = nextArg();
      if (!isInt(w)) throw typeError('* wants int');
      width = Number(toBig(w));
      if (width < 0) {
        flags.minus = true;
        width = -width;
      }
      i++;
    } else {
      while (i < n && /\d/.test(template[i] as string)) width = width * 10 + Number(template[i++]);
    }
    let precision: number | null = null;
    if (template[i] === '.') {
      i++;
      if (template[i] === '*') {
        const p = nextArg();
        if (!isInt(p)) throw typeError('* wants int');
        precision = Math.max(0, Number(toBig(p)));
        i++;
      } else {
        precision = 0;
        while (i < n && /\d/.test(template[i] as string)) precision = precision * 10 + Number(template[i++]);
      }
    }
    while (i < n && 'hlL'.includes(template[i] as string)) i++;
    if (i >= n) throw valueError('incomplete format');
    const type = template[i] as string;
    i++;
    if (type === '%') {
      out += '%';
      continue;
    }
    if (value === undefined) value = nextArg();
    out += percentOne(type, value, flags, width, precision, rt, i - 1);
  }
  // A dict argument may go unused ('%s' % {} formats the dict; 'x' % {} is fine), as in CPython.
  if (!usedMapping && !isMapping && argIndex < items.length) {
    throw typeError('not all arguments converted during string formatting');
  }
  return out;
}

function percentOne(
  type: string,
  v: PyValue,
  flags: { minus: boolean; plus: boolean; space: boolean; alt: boolean; zero: boolean },
  width: number,
  precision: number | null,
  rt: Runtime,
  index: number,
): string {
  const padTo = (body: string, sign: string, numeric: boolean): string => {
    const len = [...body].length + sign.length;
    if (len >= width) return sign + body;
    const fillN = width - len;
    if (flags.minus) return sign + body + ' '.repeat(fillN);
    if (flags.zero && numeric) return sign + '0'.repeat(fillN) + body;
    return ' '.repeat(fillN) + sign + body;
  };
  const signOf = (neg: boolean) => (neg ? '-' : flags.plus ? '+' : flags.space ? ' ' : '');
  switch (type) {
    case 's':
    case 'r':
    case 'a': {
      let s = type === 's' ? rt.str(v) : type === 'r' ? rt.repr(v) : asciiRepr(rt.repr(v));
      if (precision !== null) s = [...s].slice(0, precision).join('');
      return padTo(s, '', false);
    }
    case 'd':
    case 'i':
    case 'u': {
      let n: bigint;
      if (isInt(v)) n = toBig(v);
      else if (typeof v === 'number') n = floatToInt(v);
      else throw typeError(`%${type} format: a real number is required, not ${typeName(v)}`);
      let digits = intToStr(n < 0n ? -n : n);
      if (precision !== null) digits = digits.padStart(precision, '0');
      return padTo(digits, signOf(n < 0n), true);
    }
    case 'x':
    case 'X':
    case 'o': {
      if (!isInt(v)) throw typeError(`%${type} format: an integer is required, not ${typeName(v)}`);
      const n = toBig(v);
      const a = n < 0n ? -n : n;
      let digits = type === 'o' ? a.toString(8) : a.toString(16);
      if (type === 'X') digits = digits.toUpperCase();
      if (precision !== null) digits = digits.padStart(precision, '0');
      const prefix = flags.alt ? (type === 'o' ? '0o' : type === 'x' ? '0x' : '0X') : '';
      return padTo(digits, signOf(n < 0n) + prefix, true);
    }
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G': {
      let x: number;
      if (typeof v === 'number') x = v;
      else if (isInt(v)) x = toFloat(v);
      else throw typeError(`must be real number, not ${typeName(v)}`);
      const neg = x < 0 || Object.is(x, -0);
      const a = Math.abs(x);
      const p = precision ?? 6;
      let body: string;
      if (!Number.isFinite(x)) body = Number.isNaN(x) ? 'nan' : 'inf';
      else if (type === 'f' || type === 'F') body = formatFixed(a, p);
      else if (type === 'e' || type === 'E') body = formatExp(a, p, type === 'E');
      else body = formatGeneral(a, p, flags.alt, type === 'G');
      if (type === 'F' || type === 'E' || type === 'G') body = body.toUpperCase();
      if (flags.alt && (type === 'f' || type === 'F') && !body.includes('.')) body += '.';
      return padTo(body, signOf(neg && !Number.isNaN(x)), Number.isFinite(x));
    }
    case 'c': {
      let ch: string;
      if (typeof v === 'string') {
        if ([...v].length !== 1) throw typeError('%c requires int or char');
        ch = v;
      } else if (isInt(v)) {
        const n = toBig(v);
        if (n < 0n || n > 0x10ffffn) throw overflowError('%c arg not in range(0x110000)');
        ch = String.fromCodePoint(Number(n));
      } else throw typeError('%c requires int or char');
      return padTo(ch, '', false);
    }
  }
  const cp = type.codePointAt(0) as number;
  throw valueError(`unsupported format character '${type}' (0x${cp.toString(16)}) at index ${index}`);
}
