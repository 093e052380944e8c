/**
 * `re.search` for FilterDB's `categories=<pattern>` (pandas `str.contains`, spec §3.3 5): a parser for the
 * common subset of Python's regular-expression syntax and a Pike-VM matcher whose running time is linear in the
 * text for any pattern, so an agent cannot stall a Worker with a catastrophic pattern such as `(a+)+$` or
 * `(.*)*x`.
 *
 * Supported: literals and escapes (`\d \D \w \W \s \S \b \B \A \Z`, `\n \t \r \f \v \a \0 \xhh \uhhhh
 * \Uhhhhhhhh`, escaped punctuation), classes `[...]` with ranges/negation, `.`, `^`, `$`, groups `(...)`,
 * `(?:...)`, `(?P<name>...)`, comments `(?#...)`, flags `i`, `m`, `s` (global at the start, or scoped
 * `(?i:...)`), alternation, and all quantifiers (`* + ? {m} {m,} {,n} {m,n}`, lazy or greedy — irrelevant for
 * "is there a match").
 *
 * Deliberate differences from ToolQA-D: back-references, look-arounds, atomic groups, possessive quantifiers,
 * conditionals, `\N{…}` and the `a`/`L`/`u`/`x` flags are rejected like a syntax error (FilterDB then answers
 * "we have failed when conducting …" where Python might have matched), and so are patterns that would compile to
 * more than 20,000 VM instructions (huge counted repetitions).
 */
import { isPyWhitespace } from './python-text.ts';

export class RegexSyntaxError extends Error {}

type CharTest = (cp: number) => boolean;

type AssertKind = 'bol' | 'eol' | 'bos' | 'eos' | 'word' | 'nonword';

type Node =
  | { t: 'char'; test: CharTest }
  | { t: 'assert'; kind: AssertKind; multiline: boolean }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; alts: Node[] }
  | { t: 'group'; body: Node }
  | { t: 'rep'; body: Node; min: number; max: number };

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
}

const WORD_RE = /[\p{L}\p{N}_]/u;
const DIGIT_RE = /\p{Nd}/u;

export function isPyWordChar(cp: number): boolean {
  if (cp < 0x80) {
    return (
      (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f
    );
  }
  return WORD_RE.test(String.fromCodePoint(cp));
}

function isPyDigit(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x30 && cp <= 0x39;
  return DIGIT_RE.test(String.fromCodePoint(cp));
}

function simpleCase(cp: number, upper: boolean): number {
  const s = String.fromCodePoint(cp);
  const t = upper ? s.toUpperCase() : s.toLowerCase();
  const c = t.codePointAt(0) as number;
  return t.length === String.fromCodePoint(c).length ? c : cp;
}

function caseless(test: CharTest): CharTest {
  return (cp) => test(cp) || test(simpleCase(cp, false)) || test(simpleCase(cp, true));
}

const MAX_REPEAT = 0xffffffff;
const MAX_PROGRAM = 20_000;

class Parser {
  private pos = 0;
  private readonly cps: number[];

  constructor(pattern: string) {
    this.cps = Array.from(pattern, (ch) => ch.codePointAt(0) as number);
  }

  private peek(offset = 0): number | undefined {
    return this.cps[this.pos + offset];
  }

  private peekChar(offset = 0): string | undefined {
    const c = this.peek(offset);
    return c === undefined ? undefined : String.fromCodePoint(c);
  }

  private fail(message: string): never {
    throw new RegexSyntaxError(`${message} at position ${this.pos}`);
  }

  parse(): { node: Node; flags: Flags } {
    const flags: Flags = { i: false, m: false, s: false };
    // Global inline flags are only accepted at the very start (Python 3.11).
    while (this.peekChar() === '(' && this.peekChar(1) === '?') {
      let k = 2;
      let letters = '';
      while (/^[aiLmsux]$/.test(this.peekChar(k) ?? '')) letters += this.peekChar(k++) as string;
      if (letters.length === 0 || this.peekChar(k) !== ')') break;
      this.pos += k + 1;
      for (const l of letters) {
        if (l === 'i' || l === 'm' || l === 's') flags[l] = true;
        else this.fail(`unsupported flag ${l}`);
      }
    }
    const node = this.alternation(flags);
    if (this.pos < this.cps.length) {
      if (this.peekChar() === ')') this.fail('unbalanced parenthesis');
      this.fail('unexpected end of pattern');
    }
    return { node, flags };
  }

  private alternation(flags: Flags): Node {
    const alts: Node[] = [this.sequence(flags)];
    while (this.peekChar() === '|') {
      this.pos++;
      alts.push(this.sequence(flags));
    }
    return alts.length === 1 ? (alts[0] as Node) : { t: 'alt', alts };
  }

  private sequence(flags: Flags): Node {
    const items: Node[] = [];
    for (;;) {
      const ch = this.peekChar();
      if (ch === undefined || ch === '|' || ch === ')') break;
      if (ch === '*' || ch === '+' || ch === '?') this.quantify(items, ch);
      else if (ch === '{' && this.tryBraces(items)) {
        // quantifier applied
      } else items.push(this.atom(flags));
    }
    return items.length === 1 ? (items[0] as Node) : { t: 'seq', items };
  }

  private applyRepeat(items: Node[], min: number, max: number): void {
    const prev = items[items.length - 1];
    if (prev === undefined || prev.t === 'assert') this.fail('nothing to repeat');
    if (prev.t === 'rep') this.fail('multiple repeat');
    if (this.peekChar() === '?') this.pos++;
    else if (this.peekChar() === '+') this.fail('possessive quantifiers are not supported');
    items[items.length - 1] = { t: 'rep', body: prev, min, max };
  }

  private quantify(items: Node[], ch: string): void {
    this.pos++;
    if (ch === '*') this.applyRepeat(items, 0, MAX_REPEAT);
    else if (ch === '+') this.applyRepeat(items, 1, MAX_REPEAT);
    else this.applyRepeat(items, 0, 1);
  }

  /** `{m,n}` forms; anything else makes `{` a literal (Python's rule). */
  private tryBraces(items: Node[]): boolean {
    const here = this.pos;
    this.pos++;
    if (this.peekChar() === '}') {
      this.pos = here;
      return false;
    }
    let lo = '';
    let hi = '';
    while (/[0-9]/.test(this.peekChar() ?? '')) lo += this.nextChar();
    let hasComma = false;
    if (this.peekChar() === ',') {
      hasComma = true;
      this.pos++;
      while (/[0-9]/.test(this.peekChar() ?? '')) hi += this.nextChar();
    }
    if (this.peekChar() !== '}') {
      this.pos = here;
      return false;
    }
    this.pos++;
    const min = lo ? Number(lo) : 0;
    const max = hasComma ? (hi ? Number(hi) : MAX_REPEAT) : min;
    if (min >= MAX_REPEAT || (max !== MAX_REPEAT && max >= MAX_REPEAT))
      this.fail('the repetition number is too large');
    if (max < min) this.fail('min repeat greater than max repeat');
    this.applyRepeat(items, min, max);
    return true;
  }

  private nextChar(): string {
    const c = this.peekChar();
    if (c === undefined) this.fail('unexpected end of pattern');
    this.pos++;
    return c;
  }

  private literal(cp: number, flags: Flags): Node {
    const test: CharTest = (c) => c === cp;
    return { t: 'char', test: flags.i ? caseless(test) : test };
  }

  private atom(flags: Flags): Node {
    const ch = this.nextChar();
    switch (ch) {
      case '.':
        return { t: 'char', test: flags.s ? () => true : (c) => c !== 0x0a };
      case '^':
        return { t: 'assert', kind: 'bol', multiline: flags.m };
      case '$':
        return { t: 'assert', kind: 'eol', multiline: flags.m };
      case '[':
        return this.charClass(flags);
      case '(':
        return this.group(flags);
      case '\\':
        return this.escape(flags);
      default:
        return this.literal(ch.codePointAt(0) as number, flags);
    }
  }

  private group(flags: Flags): Node {
    let inner = flags;
    if (this.peekChar() === '?') {
      this.pos++;
      const k = this.nextChar();
      if (k === ':') {
        // non-capturing
      } else if (k === 'P' && this.peekChar() === '<') {
        this.pos++;
        let name = '';
        while (this.peekChar() !== '>' && this.peekChar() !== undefined) name += this.nextChar();
        if (this.peekChar() !== '>') this.fail('missing >, unterminated name');
        this.pos++;
        if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) this.fail(`bad character in group name '${name}'`);
      } else if (k === '#') {
        while (this.peekChar() !== ')' && this.peekChar() !== undefined) this.pos++;
        if (this.peekChar() !== ')') this.fail('missing ), unterminated comment');
        this.pos++;
        return { t: 'seq', items: [] };
      } else if (/[aiLmsux-]/.test(k)) {
        this.pos--;
        inner = this.scopedFlags(flags);
      } else {
        this.fail(`unsupported group construct (?${k}`);
      }
    }
    const body = this.alternation(inner);
    if (this.peekChar() !== ')') this.fail('missing ), unterminated subpattern');
    this.pos++;
    return { t: 'group', body };
  }

  private scopedFlags(flags: Flags): Flags {
    const out = { ...flags };
    let on = true;
    for (;;) {
      const c = this.nextChar();
      if (c === ':') return out;
      if (c === '-' && on) {
        on = false;
        continue;
      }
      if (c === 'i' || c === 'm' || c === 's') out[c] = on;
      else if (c === ')') this.fail('global flags not at the start of the expression');
      else this.fail(`unsupported flag ${c}`);
    }
  }

  private hexEscape(digits: number, esc: string): number {
    let v = '';
    for (let k = 0; k < digits; k++) {
      const c = this.peekChar();
      if (c === undefined || !/[0-9a-fA-F]/.test(c)) this.fail(`incomplete escape \\${esc}${v}`);
      v += c;
      this.pos++;
    }
    const cp = Number.parseInt(v, 16);
    if (cp > 0x10ffff) this.fail(`bad escape \\${esc}${v}`);
    return cp;
  }

  /** Escapes valid both inside and outside classes; returns a code point or a class test. */
  private commonEscape(c: string, inClass: boolean): number | CharTest {
    switch (c) {
      case 'd':
        return isPyDigit;
      case 'D':
        return (cp) => !isPyDigit(cp);
      case 'w':
        return isPyWordChar;
      case 'W':
        return (cp) => !isPyWordChar(cp);
      case 's':
        return isPyWhitespace;
      case 'S':
        return (cp) => !isPyWhitespace(cp);
      case 'n':
        return 0x0a;
      case 't':
        return 0x09;
      case 'r':
        return 0x0d;
      case 'f':
        return 0x0c;
      case 'v':
        return 0x0b;
      case 'a':
        return 0x07;
      case 'x':
        return this.hexEscape(2, 'x');
      case 'u':
        return this.hexEscape(4, 'u');
      case 'U':
        return this.hexEscape(8, 'U');
      case '0': {
        let v = '';
        while (v.length < 2 && /[0-7]/.test(this.peekChar() ?? '')) v += this.nextChar();
        return Number.parseInt(`0${v}`, 8);
      }
      default:
        if (/[0-9]/.test(c)) {
          if (inClass) this.fail(`bad escape \\${c}`);
          this.fail('back-references are not supported');
        }
        if (/[A-Za-z]/.test(c)) this.fail(`bad escape \\${c}`);
        return c.codePointAt(0) as number;
    }
  }

  private escape(flags: Flags): Node {
    const c = this.nextChar();
    switch (c) {
      case 'A':
        return { t: 'assert', kind: 'bos', multiline: false };
      case 'Z':
        return { t: 'assert', kind: 'eos', multiline: false };
      case 'b':
        return { t: 'assert', kind: 'word', multiline: false };
      case 'B':
        return { t: 'assert', kind: 'nonword', multiline: false };
      default: {
        const e = this.commonEscape(c, false);
        if (typeof e === 'number') return this.literal(e, flags);
        return { t: 'char', test: flags.i ? caseless(e) : e };
      }
    }
  }

  private charClass(flags: Flags): Node {
    const start = this.pos;
    let negate = false;
    if (this.peekChar() === '^') {
      negate = true;
      this.pos++;
    }
    const tests: CharTest[] = [];
    const ranges: [number, number][] = [];
    let first = true;
    for (;;) {
      const c = this.peekChar();
      if (c === undefined) {
        this.pos = start - 1;
        this.fail('unterminated character set');
      }
      if (c === ']' && !first) {
        this.pos++;
        break;
      }
      first = false;
      this.pos++;
      let lo: number | CharTest;
      if (c === '\\') {
        const e = this.nextChar();
        lo = e === 'b' ? 0x08 : this.commonEscape(e, true);
      } else {
        lo = c.codePointAt(0) as number;
      }
      if (this.peekChar() === '-' && this.peekChar(1) !== ']' && this.peekChar(1) !== undefined) {
        this.pos++;
        const d = this.nextChar();
        let hi: number | CharTest;
        if (d === '\\') {
          const e = this.nextChar();
          hi = e === 'b' ? 0x08 : this.commonEscape(e, true);
        } else {
          hi = d.codePointAt(0) as number;
        }
        if (typeof lo !== 'number' || typeof hi !== 'number') this.fail('bad character range');
        if (hi < lo) this.fail('bad character range');
        ranges.push([lo, hi]);
      } else if (typeof lo === 'number') {
        ranges.push([lo, lo]);
      } else {
        tests.push(lo);
      }
    }
    const inSet: CharTest = (cp) => {
      for (const [a, b] of ranges) if (cp >= a && cp <= b) return true;
      for (const t of tests) if (t(cp)) return true;
      return false;
    };
    const member = flags.i ? caseless(inSet) : inSet;
    return { t: 'char', test: negate ? (cp) => !member(cp) : member };
  }
}

type Inst =
  | { op: 'char'; test: CharTest }
  | { op: 'split'; a: number; b: number }
  | { op: 'jmp'; to: number }
  | { op: 'assert'; kind: AssertKind; multiline: boolean }
  | { op: 'match' };

class Compiler {
  readonly prog: Inst[] = [];

  private emit(inst: Inst): number {
    if (this.prog.length >= MAX_PROGRAM) throw new RegexSyntaxError('pattern too complex');
    this.prog.push(inst);
    return this.prog.length - 1;
  }

  compile(node: Node): void {
    switch (node.t) {
      case 'char':
        this.emit({ op: 'char', test: node.test });
        return;
      case 'assert':
        this.emit({ op: 'assert', kind: node.kind, multiline: node.multiline });
        return;
      case 'group':
        this.compile(node.body);
        return;
      case 'seq':
        for (const item of node.items) this.compile(item);
        return;
      case 'alt': {
        const jumps: number[] = [];
        for (let k = 0; k < node.alts.length - 1; k++) {
          const split = this.emit({ op: 'split', a: 0, b: 0 });
          (this.prog[split] as { a: number }).a = this.prog.length;
          this.compile(node.alts[k] as Node);
          jumps.push(this.emit({ op: 'jmp', to: 0 }));
          (this.prog[split] as { b: number }).b = this.prog.length;
        }
        this.compile(node.alts[node.alts.length - 1] as Node);
        for (const j of jumps) (this.prog[j] as { to: number }).to = this.prog.length;
        return;
      }
      case 'rep': {
        for (let k = 0; k < node.min; k++) this.compile(node.body);
        if (node.max === MAX_REPEAT) {
          const split = this.emit({ op: 'split', a: 0, b: 0 });
          (this.prog[split] as { a: number }).a = this.prog.length;
          this.compile(node.body);
          this.emit({ op: 'jmp', to: split });
          (this.prog[split] as { b: number }).b = this.prog.length;
        } else {
          const splits: number[] = [];
          for (let k = node.min; k < node.max; k++) {
            const split = this.emit({ op: 'split', a: 0, b: 0 });
            (this.prog[split] as { a: number }).a = this.prog.length;
            splits.push(split);
            this.compile(node.body);
          }
          for (const s of splits) (this.prog[s] as { b: number }).b = this.prog.length;
        }
        return;
      }
    }
  }
}

/** A compiled pattern: `search(text)` is true when `re.search(pattern, text)` would find a match. */
export interface PySearchRegex {
  search(text: string): boolean;
}

/** Compiles a Python pattern; throws RegexSyntaxError for invalid or unsupported patterns. */
export function compilePySearch(pattern: string): PySearchRegex {
  if (!/[.^$*+?{}[\]\\|()]/.test(pattern)) return { search: (text) => text.includes(pattern) };
  const { node } = new Parser(pattern).parse();
  const compiler = new Compiler();
  compiler.compile(node);
  compiler.prog.push({ op: 'match' });
  const prog = compiler.prog;
  return { search: (text) => pikeSearch(prog, text) };
}

function assertHolds(kind: AssertKind, multiline: boolean, cps: readonly number[], pos: number): boolean {
  const n = cps.length;
  switch (kind) {
    case 'bos':
      return pos === 0;
    case 'eos':
      return pos === n;
    case 'bol':
      return pos === 0 || (multiline && cps[pos - 1] === 0x0a);
    case 'eol':
      return pos === n || (multiline ? cps[pos] === 0x0a : pos === n - 1 && cps[pos] === 0x0a);
    case 'word':
    case 'nonword': {
      const before = pos > 0 && isPyWordChar(cps[pos - 1] as number);
      const after = pos < n && isPyWordChar(cps[pos] as number);
      return (before !== after) === (kind === 'word');
    }
  }
}

function pikeSearch(prog: readonly Inst[], text: string): boolean {
  const cps = Array.from(text, (ch) => ch.codePointAt(0) as number);
  const n = cps.length;
  const mark = new Int32Array(prog.length).fill(-1);
  let clist: number[] = [];
  let nlist: number[] = [];
  const stack: number[] = [];

  // Adds the thread at `pc` and everything reachable by ε-moves at position `pos`; true when Match is reached.
  const add = (list: number[], pc0: number, pos: number): boolean => {
    stack.push(pc0);
    while (stack.length > 0) {
      const pc = stack.pop() as number;
      if (mark[pc] === pos) continue;
      mark[pc] = pos;
      const inst = prog[pc] as Inst;
      switch (inst.op) {
        case 'match':
          stack.length = 0;
          return true;
        case 'jmp':
          stack.push(inst.to);
          break;
        case 'split':
          stack.push(inst.b, inst.a);
          break;
        case 'assert':
          if (assertHolds(inst.kind, inst.multiline, cps, pos)) stack.push(pc + 1);
          break;
        case 'char':
          list.push(pc);
          break;
      }
    }
    return false;
  };

  for (let pos = 0; pos <= n; pos++) {
    if (add(clist, 0, pos)) return true;
    if (pos === n) break;
    const cp = cps[pos] as number;
    nlist.length = 0;
    for (const pc of clist) {
      const inst = prog[pc] as Inst & { op: 'char' };
      if (inst.test(cp) && add(nlist, pc + 1, pos + 1)) return true;
    }
    [clist, nlist] = [nlist, clist];
  }
  return false;
}
