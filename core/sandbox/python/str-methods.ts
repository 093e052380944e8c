/** Methods of Python `str`, with CPython 3.11 semantics and messages. */

import { bind, type MethodImpl, noKwargs } from './args.ts';
import { strFormat } from './format.ts';
import { isPyWhitespace, stripPyWhitespace } from './numeric.ts';
import {
  isInt,
  type Kwargs,
  PyDict,
  PyList,
  PyTuple,
  type PyValue,
  type Runtime,
  toBig,
  typeError,
  typeName,
  valueError,
} from './objects.ts';
import { iterate } from './ops.ts';
import { cpArray, cpLength, hasAstral } from './text.ts';

function strArg(fname: string, v: PyValue | undefined, pos: number): string {
  if (typeof v !== 'string')
    throw typeError(`${fname}() argument ${pos} must be str, not ${typeName(v ?? null)}`);
  return v;
}

function optChars(fname: string, v: PyValue | undefined): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw typeError(`${fname} arg must be None or str`);
  return v;
}

function optIndex(v: PyValue | undefined): number | null {
  if (v === undefined || v === null) return null;
  if (!isInt(v)) throw typeError('slice indices must be integers or None or have an __index__ method');
  const b = toBig(v);
  if (b > BigInt(Number.MAX_SAFE_INTEGER)) return Number.MAX_SAFE_INTEGER;
  if (b < -BigInt(Number.MAX_SAFE_INTEGER)) return -Number.MAX_SAFE_INTEGER;
  return Number(b);
}

/** Resolves (start, end) like CPython's find/count: clamped to [0, len]. */
function range2(len: number, start: number | null, end: number | null): [number, number] {
  let a = start ?? 0;
  let b = end ?? len;
  if (a < 0) a = Math.max(0, a + len);
  if (b < 0) b = Math.max(0, b + len);
  if (b > len) b = len;
  return [a, b];
}

/** Code-point view of a string for index arithmetic. */
interface View {
  s: string;
  len: number;
  /** Converts a code-point index to a UTF-16 index. */
  toUnit(i: number): number;
  /** Converts a UTF-16 index to a code-point index. */
  toCp(u: number): number;
}

function view(s: string): View {
  if (!hasAstral(s)) return { s, len: s.length, toUnit: (i) => i, toCp: (u) => u };
  const cps = cpArray(s);
  const units: number[] = [];
  let u = 0;
  for (const c of cps) {
    units.push(u);
    u += c.length;
  }
  units.push(u);
  return {
    s,
    len: cps.length,
    toUnit: (i) => units[Math.min(i, cps.length)] as number,
    toCp: (unit) => units.indexOf(unit),
  };
}

function findImpl(
  self: string,
  sub: string,
  start: number | null,
  end: number | null,
  reverse: boolean,
): number {
  const v = view(self);
  const [a, b] = range2(v.len, start, end);
  if (b - a < cpLength(sub) || a > v.len) return sub === '' && a <= v.len && a <= b ? (reverse ? b : a) : -1;
  const ua = v.toUnit(a);
  const ub = v.toUnit(b);
  const hay = self.slice(ua, ub);
  const idx = reverse ? hay.lastIndexOf(sub) : hay.indexOf(sub);
  return idx < 0 ? -1 : v.toCp(ua + idx);
}

function countImpl(self: string, sub: string, start: number | null, end: number | null): number {
  const v = view(self);
  const [a, b] = range2(v.len, start, end);
  if (a > b) return 0;
  if (sub === '') return b - a + 1;
  const hay = self.slice(v.toUnit(a), v.toUnit(b));
  let n = 0;
  for (let i = hay.indexOf(sub); i >= 0; i = hay.indexOf(sub, i + sub.length)) n++;
  return n;
}

function splitWhitespace(s: string, maxsplit: number): string[] {
  const out: string[] = [];
  let i = 0;
  const n = s.length;
  while (i < n) {
    while (i < n && isPyWhitespace(s[i] as string)) i++;
    if (i >= n) break;
    if (maxsplit >= 0 && out.length === maxsplit) {
      out.push(stripPyWhitespace(s.slice(i), false, true));
      return out;
    }
    let j = i;
    while (j < n && !isPyWhitespace(s[j] as string)) j++;
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}

function rsplitWhitespace(s: string, maxsplit: number): string[] {
  const out: string[] = [];
  let i = s.length;
  while (i > 0) {
    while (i > 0 && isPyWhitespace(s[i - 1] as string)) i--;
    if (i <= 0) break;
    if (maxsplit >= 0 && out.length === maxsplit) {
      out.push(stripPyWhitespace(s.slice(0, i), true, false));
      break;
    }
    let j = i;
    while (j > 0 && !isPyWhitespace(s[j - 1] as string)) j--;
    out.push(s.slice(j, i));
    i = j;
  }
  return out.reverse();
}

function splitSep(s: string, sep: string, maxsplit: number): string[] {
  if (sep === '') throw valueError('empty separator');
  if (maxsplit < 0) return s.split(sep);
  const out: string[] = [];
  let start = 0;
  while (out.length < maxsplit) {
    const i = s.indexOf(sep, start);
    if (i < 0) break;
    out.push(s.slice(start, i));
    start = i + sep.length;
  }
  out.push(s.slice(start));
  return out;
}

function rsplitSep(s: string, sep: string, maxsplit: number): string[] {
  if (sep === '') throw valueError('empty separator');
  if (maxsplit < 0) return s.split(sep);
  const out: string[] = [];
  let end = s.length;
  while (out.length < maxsplit) {
    const i = s.lastIndexOf(sep, end - sep.length);
    if (i < 0 || end - sep.length < 0) break;
    out.push(s.slice(i + sep.length, end));
    end = i;
  }
  out.push(s.slice(0, end));
  return out.reverse();
}

function stripChars(s: string, chars: string | null, left: boolean, right: boolean): string {
  if (chars === null) return stripPyWhitespace(s, left, right);
  const set = new Set(cpArray(chars));
  const cps = cpArray(s);
  let a = 0;
  let b = cps.length;
  if (left) while (a < b && set.has(cps[a] as string)) a++;
  if (right) while (b > a && set.has(cps[b - 1] as string)) b--;
  return cps.slice(a, b).join('');
}

const LINE_BREAKS = new Set(['\n', '\r', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029']);

function splitlines(s: string, keepends: boolean): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < s.length) {
    const c = s[i] as string;
    if (LINE_BREAKS.has(c)) {
      let end = i + 1;
      if (c === '\r' && s[i + 1] === '\n') end = i + 2;
      out.push(s.slice(start, keepends ? end : i));
      start = end;
      i = end;
    } else i++;
  }
  if (start < s.length) out.push(s.slice(start));
  return out;
}

const isCased = (ch: string) => ch.toLowerCase() !== ch.toUpperCase();
const isUpperCh = (ch: string) => isCased(ch) && ch === ch.toUpperCase() && ch !== ch.toLowerCase();
const isLowerCh = (ch: string) => isCased(ch) && ch === ch.toLowerCase() && ch !== ch.toUpperCase();

function title(s: string): string {
  let out = '';
  let prevCased = false;
  for (const ch of s) {
    if (isCased(ch)) {
      out += prevCased ? ch.toLowerCase() : ch.toUpperCase();
      prevCased = true;
    } else {
      out += ch;
      prevCased = /\p{L}/u.test(ch) && !isCased(ch) ? prevCased : false;
    }
  }
  return out;
}

function istitle(s: string): boolean {
  let cased = false;
  let prevCased = false;
  for (const ch of s) {
    if (isUpperCh(ch)) {
      if (prevCased) return false;
      prevCased = true;
      cased = true;
    } else if (isLowerCh(ch)) {
      if (!prevCased) return false;
      prevCased = true;
      cased = true;
    } else prevCased = false;
  }
  return cased;
}

function allChars(s: string, re: RegExp): boolean {
  if (s === '') return false;
  for (const ch of s) if (!re.test(ch)) return false;
  return true;
}

function fill(v: PyValue | undefined): string {
  if (v === undefined) return ' ';
  if (typeof v !== 'string' || cpLength(v) !== 1) {
    throw typeError('The fill character must be exactly one character long');
  }
  return v;
}

function widthArg(v: PyValue | undefined): number {
  if (!isInt(v ?? null))
    throw typeError(`'${typeName(v ?? null)}' object cannot be interpreted as an integer`);
  return Number(toBig(v as bigint));
}

function affix(fname: string, v: PyValue | undefined): string[] {
  if (typeof v === 'string') return [v];
  if (v instanceof PyTuple) {
    return v.items.map((x) => {
      if (typeof x !== 'string') {
        throw typeError(`tuple for ${fname} must only contain str, not ${typeName(x)}`);
      }
      return x;
    });
  }
  throw typeError(`${fname} first arg must be str or a tuple of str, not ${typeName(v ?? null)}`);
}

function replaceImpl(s: string, old: string, rep: string, count: number, rt: Runtime): string {
  if (count < 0) {
    const r = s.split(old).join(rep);
    rt.alloc(Math.ceil(r.length / 4));
    if (old === '') return rep + cpArray(s).join(rep) + (s === '' ? '' : rep);
    return r;
  }
  if (old === '') {
    const cps = cpArray(s);
    let out = '';
    let n = 0;
    for (let i = 0; i <= cps.length; i++) {
      if (n < count) {
        out += rep;
        n++;
      }
      if (i < cps.length) out += cps[i];
    }
    return out;
  }
  let out = '';
  let start = 0;
  let n = 0;
  while (n < count) {
    const i = s.indexOf(old, start);
    if (i < 0) break;
    out += s.slice(start, i) + rep;
    start = i + old.length;
    n++;
  }
  return out + s.slice(start);
}

const list = (xs: string[]): PyList => new PyList(xs);

export const STR_METHODS: ReadonlyMap<string, MethodImpl> = new Map<string, MethodImpl>([
  [
    'split',
    (rt, self, args, kw) => {
      const [sep, max] = bind('str.split', args, kw, ['sep', 'maxsplit'], 0);
      const s = self as string;
      const maxsplit = max === undefined ? -1 : widthArg(max);
      rt.step(Math.ceil(s.length / 32));
      if (sep === undefined || sep === null) return list(splitWhitespace(s, maxsplit));
      if (typeof sep !== 'string') throw typeError(`must be str or None, not ${typeName(sep)}`);
      const parts = splitSep(s, sep, maxsplit);
      rt.alloc(parts.length);
      return list(parts);
    },
  ],
  [
    'rsplit',
    (rt, self, args, kw) => {
      const [sep, max] = bind('str.rsplit', args, kw, ['sep', 'maxsplit'], 0);
      const s = self as string;
      const maxsplit = max === undefined ? -1 : widthArg(max);
      rt.step(Math.ceil(s.length / 32));
      if (sep === undefined || sep === null) return list(rsplitWhitespace(s, maxsplit));
      if (typeof sep !== 'string') throw typeError(`must be str or None, not ${typeName(sep)}`);
      return list(rsplitSep(s, sep, maxsplit));
    },
  ],
  [
    'splitlines',
    (_rt, self, args, kw) => {
      const [keep] = bind('str.splitlines', args, kw, ['keepends'], 0);
      return list(splitlines(self as string, keep !== undefined && keep !== false && keep !== 0n));
    },
  ],
  [
    'join',
    (rt, self, args, kw) => {
      noKwargs('str.join', kw);
      if (args.length !== 1) throw typeError(`str.join() takes exactly one argument (${args.length} given)`);
      const it = args[0] as PyValue;
      let iter: Iterator<PyValue>;
      try {
        iter = iterate(it, rt);
      } catch {
        throw typeError('can only join an iterable');
      }
      const parts: string[] = [];
      let total = 0;
      for (let r = iter.next(), i = 0; !r.done; r = iter.next(), i++) {
        rt.step(1);
        if (typeof r.value !== 'string') {
          throw typeError(`sequence item ${i}: expected str instance, ${typeName(r.value)} found`);
        }
        parts.push(r.value);
        total += r.value.length + (self as string).length;
        if (total > rt.maxSequenceLength) throw typeError('join result too large');
      }
      rt.alloc(Math.ceil(total / 4));
      return parts.join(self as string);
    },
  ],
  [
    'strip',
    (_rt, self, args, kw) =>
      stripChars(
        self as string,
        optChars('strip', bind('str.strip', args, kw, ['chars'], 0, { keywords: false })[0]),
        true,
        true,
      ),
  ],
  [
    'lstrip',
    (_rt, self, args, kw) =>
      stripChars(
        self as string,
        optChars('lstrip', bind('str.lstrip', args, kw, ['chars'], 0, { keywords: false })[0]),
        true,
        false,
      ),
  ],
  [
    'rstrip',
    (_rt, self, args, kw) =>
      stripChars(
        self as string,
        optChars('rstrip', bind('str.rstrip', args, kw, ['chars'], 0, { keywords: false })[0]),
        false,
        true,
      ),
  ],
  [
    'replace',
    (rt, self, args, kw) => {
      const [old, rep, count] = bind('str.replace', args, kw, ['old', 'new', 'count'], 2, {
        keywords: false,
      });
      const o = strArg('replace', old, 1);
      const r = strArg('replace', rep, 2);
      rt.step(Math.ceil((self as string).length / 32));
      return replaceImpl(self as string, o, r, count === undefined ? -1 : widthArg(count), rt);
    },
  ],
  [
    'lower',
    (_rt, self, args, kw) => {
      bind('str.lower', args, kw, [], 0);
      return (self as string).toLowerCase();
    },
  ],
  [
    'upper',
    (_rt, self, args, kw) => {
      bind('str.upper', args, kw, [], 0);
      return (self as string).toUpperCase();
    },
  ],
  [
    'casefold',
    (_rt, self, args, kw) => {
      bind('str.casefold', args, kw, [], 0);
      return (self as string).toLowerCase();
    },
  ],
  [
    'title',
    (_rt, self, args, kw) => {
      bind('str.title', args, kw, [], 0);
      return title(self as string);
    },
  ],
  [
    'capitalize',
    (_rt, self, args, kw) => {
      bind('str.capitalize', args, kw, [], 0);
      const cps = cpArray(self as string);
      if (!cps.length) return '';
      return (cps[0] as string).toUpperCase() + cps.slice(1).join('').toLowerCase();
    },
  ],
  [
    'swapcase',
    (_rt, self, args, kw) => {
      bind('str.swapcase', args, kw, [], 0);
      let out = '';
      for (const ch of self as string)
        out += isUpperCh(ch) ? ch.toLowerCase() : isLowerCh(ch) ? ch.toUpperCase() : ch;
      return out;
    },
  ],
  [
    'startswith',
    (_rt, self, args, kw) => {
      const [p, start, end] = bind('str.startswith', args, kw, ['prefix', 'start', 'end'], 1, {
        keywords: false,
      });
      const v = view(self as string);
      const [a, b] = range2(v.len, optIndex(start), optIndex(end));
      if (a > v.len) return false;
      const sub = (self as string).slice(v.toUnit(a), v.toUnit(Math.max(a, b)));
      return affix('startswith', p).some((x) => sub.startsWith(x) && b - a >= cpLength(x));
    },
  ],
  [
    'endswith',
    (_rt, self, args, kw) => {
      const [p, start, end] = bind('str.endswith', args, kw, ['suffix', 'start', 'end'], 1, {
        keywords: false,
      });
      const v = view(self as string);
      const [a, b] = range2(v.len, optIndex(start), optIndex(end));
      if (a > v.len) return false;
      const sub = (self as string).slice(v.toUnit(a), v.toUnit(Math.max(a, b)));
      return affix('endswith', p).some((x) => sub.endsWith(x) && b - a >= cpLength(x));
    },
  ],
  ...(['find', 'rfind', 'index', 'rindex'] as const).map(
    (name) =>
      [
        name,
        ((_rt, self, args, kw) => {
          const [sub, start, end] = bind(`str.${name}`, args, kw, ['sub', 'start', 'end'], 1, {
            keywords: false,
          });
          if (typeof sub !== 'string') throw typeError(`must be str, not ${typeName(sub ?? null)}`);
          const r = findImpl(self as string, sub, optIndex(start), optIndex(end), name.startsWith('r'));
          if (r < 0 && name.endsWith('index')) throw valueError('substring not found');
          return BigInt(r);
        }) as MethodImpl,
      ] as const,
  ),
  [
    'count',
    (rt, self, args, kw) => {
      const [sub, start, end] = bind('str.count', args, kw, ['sub', 'start', 'end'], 1, { keywords: false });
      if (typeof sub !== 'string') throw typeError(`must be str, not ${typeName(sub ?? null)}`);
      rt.step(Math.ceil((self as string).length / 32));
      return BigInt(countImpl(self as string, sub, optIndex(start), optIndex(end)));
    },
  ],
  ['format', (rt, self, args, kw) => strFormat(self as string, args, kw, rt)],
  [
    'format_map',
    (rt, self, args, kw) => {
      const [m] = bind('str.format_map', args, kw, ['mapping'], 1, { keywords: false });
      if (!(m instanceof PyDict)) throw typeError(`'${typeName(m ?? null)}' object is not subscriptable`);
      const kwm: Kwargs = new Map();
      for (const [k, v] of m.entries()) if (typeof k === 'string') kwm.set(k, v);
      return strFormat(self as string, [], kwm, rt);
    },
  ],
  [
    'isdigit',
    (_rt, self) => allChars(self as string, /\p{Nd}|[\u00b2\u00b3\u00b9\u2070-\u2079\u2080-\u2089]/u),
  ],
  ['isdecimal', (_rt, self) => allChars(self as string, /\p{Nd}/u)],
  ['isnumeric', (_rt, self) => allChars(self as string, /\p{N}/u)],
  ['isalpha', (_rt, self) => allChars(self as string, /\p{L}/u)],
  ['isalnum', (_rt, self) => allChars(self as string, /[\p{L}\p{N}]/u)],
  ['isspace', (_rt, self) => (self as string) !== '' && [...(self as string)].every(isPyWhitespace)],
  ['isascii', (_rt, self) => /^[\x00-\x7f]*$/.test(self as string)],
  [
    'isidentifier',
    (_rt, self) => /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u.test(self as string),
  ],
  ['isprintable', (_rt, self) => !/[\x00-\x1f\x7f-\xa0\xad]/.test(self as string)],
  [
    'isupper',
    (_rt, self) => {
      let cased = false;
      for (const ch of self as string) {
        if (isLowerCh(ch)) return false;
        if (isUpperCh(ch)) cased = true;
      }
      return cased;
    },
  ],
  [
    'islower',
    (_rt, self) => {
      let cased = false;
      for (const ch of self as string) {
        if (isUpperCh(ch)) return false;
        if (isLowerCh(ch)) cased = true;
      }
      return cased;
    },
  ],
  ['istitle', (_rt, self) => istitle(self as string)],
  ...(['center', 'ljust', 'rjust'] as const).map(
    (name) =>
      [
        name,
        ((rt, self, args, kw) => {
          const [w, f] = bind(`str.${name}`, args, kw, ['width', 'fillchar'], 1, { keywords: false });
          const width = widthArg(w);
          const ch = fill(f);
          const s = self as string;
          const n = width - cpLength(s);
          if (n <= 0) return s;
          rt.alloc(Math.ceil(n / 4));
          if (width > rt.maxSequenceLength) throw typeError('width too large');
          if (name === 'ljust') return s + ch.repeat(n);
          if (name === 'rjust') return ch.repeat(n) + s;
          // CPython centers with the extra fill on the left when both n and width are odd.
          const left = Math.floor(n / 2) + (n & width & 1);
          return ch.repeat(left) + s + ch.repeat(n - left);
        }) as MethodImpl,
      ] as const,
  ),
  [
    'zfill',
    (_rt, self, args, kw) => {
      const [w] = bind('str.zfill', args, kw, ['width'], 1, { keywords: false });
      const width = widthArg(w);
      const s = self as string;
      const n = width - cpLength(s);
      if (n <= 0) return s;
      if (s[0] === '+' || s[0] === '-') return s[0] + '0'.repeat(n) + s.slice(1);
      return '0'.repeat(n) + s;
    },
  ],
  ...(['partition', 'rpartition'] as const).map(
    (name) =>
      [
        name,
        ((_rt, self, args, kw) => {
          noKwargs(`str.${name}`, kw);
          if (args.length !== 1)
            throw typeError(`str.${name}() takes exactly one argument (${args.length} given)`);
          const sep = args[0] as PyValue;
          if (typeof sep !== 'string') throw typeError(`must be str, not ${typeName(sep)}`);
          if (sep === '') throw valueError('empty separator');
          const s = self as string;
          const i = name === 'partition' ? s.indexOf(sep) : s.lastIndexOf(sep);
          if (i < 0) return name === 'partition' ? new PyTuple([s, '', '']) : new PyTuple(['', '', s]);
          return new PyTuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
        }) as MethodImpl,
      ] as const,
  ),
  [
    'removeprefix',
    (_rt, self, args, kw) => {
      const [p] = bind('str.removeprefix', args, kw, ['prefix'], 1, { keywords: false });
      const pre = strArg('removeprefix', p, 1);
      const s = self as string;
      return pre && s.startsWith(pre) ? s.slice(pre.length) : s;
    },
  ],
  [
    'removesuffix',
    (_rt, self, args, kw) => {
      const [p] = bind('str.removesuffix', args, kw, ['suffix'], 1, { keywords: false });
      const suf = strArg('removesuffix', p, 1);
      const s = self as string;
      return suf && s.endsWith(suf) ? s.slice(0, s.length - suf.length) : s;
    },
  ],
  [
    'expandtabs',
    (_rt, self, args, kw) => {
      const [t] = bind('str.expandtabs', args, kw, ['tabsize'], 0);
      const size = t === undefined ? 8 : widthArg(t);
      let out = '';
      let col = 0;
      for (const ch of self as string) {
        if (ch === '\t') {
          const n = size > 0 ? size - (col % size) : 0;
          out += ' '.repeat(n);
          col += n;
        } else {
          out += ch;
          col = ch === '\n' || ch === '\r' ? 0 : col + 1;
        }
      }
      return out;
    },
  ],
]);
