/**
 * Python 3.11 tokenizer for the sandbox: NAME / NUMBER / STRING / OP tokens plus NEWLINE, INDENT, DEDENT and EOF,
 * with CPython's rules for implicit line joining inside brackets, backslash continuation, blank/comment lines and
 * tab stops of 8. Tokenizer failures carry CPython's exact messages (`'(' was never closed`, `unterminated string
 * literal (detected at line 1)`, `unindent does not match any outer indentation level`, ...).
 *
 * An unclosed bracket at end of input is not an error here: like CPython, the parser decides (it reports
 * "'(' was never closed" when it fails at the end of the input).
 */

import { PySyntaxError } from './syntax-error.ts';

export type TokenKind = 'NAME' | 'NUMBER' | 'STRING' | 'OP' | 'NEWLINE' | 'INDENT' | 'DEDENT' | 'EOF';

export interface Token {
  readonly kind: TokenKind;
  /** Source text of the token (for STRING: the whole literal including prefix and quotes). */
  readonly value: string;
  readonly line: number;
  /** 0-based column (in UTF-16 code units of the line). */
  readonly col: number;
  /** Offsets into the source: [start, end). */
  readonly start: number;
  readonly end: number;
  readonly endLine: number;
  /** Bracket nesting level when the token was read (after an opening bracket: level of its contents). */
  readonly level: number;
}

export interface LexResult {
  readonly tokens: Token[];
  /** A tokenizer error found while scanning; tokens stop where it occurred. */
  readonly error: PySyntaxError | null;
  /** Brackets still open at end of input (innermost last), with the line each was opened on. */
  readonly openBrackets: readonly { readonly ch: string; readonly line: number }[];
}

const OPERATORS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '!=',
  '%=',
  '&=',
  '**',
  '*=',
  '+=',
  '-=',
  '->',
  '//',
  '/=',
  ':=',
  '<<',
  '<=',
  '==',
  '>=',
  '>>',
  '@=',
  '^=',
  '|=',
  '%',
  '&',
  '(',
  ')',
  '*',
  '+',
  ',',
  '-',
  '.',
  '/',
  ':',
  ';',
  '<',
  '=',
  '>',
  '@',
  '[',
  ']',
  '^',
  '{',
  '|',
  '}',
  '~',
];

const MAX_NESTING = 200;
/** CPython lets a number run into these keywords (`1if x else 2`), with only a warning. */
const KEYWORD_AFTER_NUMBER = /^(?:and|els|for|if|in|is|not|or)/;
const ID_START = /[\p{L}\p{Nl}_]/u;
const ID_CONTINUE = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_]/u;
const STRING_PREFIXES = new Set(['r', 'u', 'f', 'b', 'br', 'rb', 'fr', 'rf']);
const CLOSING: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

function isPrintableChar(cp: number): boolean {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return false;
  if (cp === 0xa0 || cp === 0xad || cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200f)) return false;
  if (cp >= 0x2028 && cp <= 0x202f) return false;
  if (cp === 0x205f || cp === 0x3000 || cp === 0xfeff) return false;
  return true;
}

/** Tokenizes `src`. Never throws: tokenizer errors are returned in `error`. */
export function tokenize(src: string): LexResult {
  const tokens: Token[] = [];
  const indents: number[] = [0];
  const altIndents: number[] = [0];
  const brackets: { ch: string; line: number; col: number }[] = [];
  let pos = 0;
  let line = 1;
  let lineStart = 0;
  let atLineStart = true;
  const n = src.length;

  const push = (
    kind: TokenKind,
    value: string,
    start: number,
    end: number,
    startLine: number,
    col: number,
  ) => {
    tokens.push({ kind, value, line: startLine, col, start, end, endLine: line, level: brackets.length });
  };
  const fail = (
    msg: string,
    errLine: number,
    kind: 'SyntaxError' | 'IndentationError' | 'TabError' = 'SyntaxError',
  ) => {
    // The parser still runs over the tokens read so far; end them so it terminates.
    push('EOF', '', pos, pos, line, 0);
    return { tokens, error: new PySyntaxError(kind, msg, errLine), openBrackets: [] } as LexResult;
  };

  while (pos < n) {
    if (atLineStart && brackets.length === 0) {
      // Measure indentation with tab stops of 8 (col) and of 1 (altcol); CPython raises TabError when the two
      // measures disagree about the nesting.
      let col = 0;
      let altcol = 0;
      let p = pos;
      while (p < n) {
        const c = src[p];
        if (c === ' ') {
          col++;
          altcol++;
        } else if (c === '\t') {
          col = (Math.floor(col / 8) + 1) * 8;
          altcol++;
        } else if (c === '\f') {
          col = 0;
          altcol = 0;
        } else break;
        p++;
      }
      const c = src[p];
      if (p >= n) {
        pos = p;
        break;
      }
      if (c === '#' || c === '\n' || c === '\r') {
        // Blank or comment-only line: no tokens, no indentation change.
        while (p < n && src[p] !== '\n' && src[p] !== '\r') p++;
        if (p < n) {
          p += src[p] === '\r' && src[p + 1] === '\n' ? 2 : 1;
          line++;
          lineStart = p;
        }
        pos = p;
        continue;
      }
      const top = indents[indents.length - 1] as number;
      const altTop = altIndents[altIndents.length - 1] as number;
      if (col > top) {
        if (altcol <= altTop)
          return fail('inconsistent use of tabs and spaces in indentation', line, 'TabError');
        indents.push(col);
        altIndents.push(altcol);
        push('INDENT', src.slice(pos, p), pos, p, line, 0);
      } else if (col < top) {
        while (col < (indents[indents.length - 1] as number)) {
          indents.pop();
          altIndents.pop();
          push('DEDENT', '', p, p, line, col);
        }
        if (col !== indents[indents.length - 1]) {
          return fail('unindent does not match any outer indentation level', line, 'IndentationError');
        }
        if (altcol !== altIndents[altIndents.length - 1]) {
          return fail('inconsistent use of tabs and spaces in indentation', line, 'TabError');
        }
      } else if (altcol !== altTop) {
        return fail('inconsistent use of tabs and spaces in indentation', line, 'TabError');
      }
      pos = p;
      atLineStart = false;
    }
    const c = src[pos] as string;
    if (c === ' ' || c === '\t' || c === '\f') {
      pos++;
      continue;
    }
    if (c === '#') {
      while (pos < n && src[pos] !== '\n' && src[pos] !== '\r') pos++;
      continue;
    }
    if (c === '\\') {
      const nx = src[pos + 1];
      if (nx === '\n' || nx === '\r') {
        pos += nx === '\r' && src[pos + 2] === '\n' ? 3 : 2;
        line++;
        lineStart = pos;
        if (pos >= n) return fail('unexpected EOF while parsing', line - 1);
        continue;
      }
      return fail('unexpected character after line continuation character', line);
    }
    if (c === '\n' || c === '\r') {
      const len = c === '\r' && src[pos + 1] === '\n' ? 2 : 1;
      if (brackets.length === 0) {
        push('NEWLINE', '\n', pos, pos + len, line, pos - lineStart);
        atLineStart = true;
      }
      pos += len;
      line++;
      lineStart = pos;
      continue;
    }
    const col = pos - lineStart;
    const startLine = line;
    // Identifiers and string prefixes.
    const cp = src.codePointAt(pos) as number;
    const ch = String.fromCodePoint(cp);
    if (ID_START.test(ch)) {
      let p = pos + ch.length;
      while (p < n) {
        const q = src.codePointAt(p) as number;
        const qc = String.fromCodePoint(q);
        if (!ID_CONTINUE.test(qc)) break;
        p += qc.length;
      }
      const word = src.slice(pos, p);
      if ((src[p] === '"' || src[p] === "'") && STRING_PREFIXES.has(word.toLowerCase())) {
        const r = scanString(src, pos, p, line);
        if ('error' in r) return fail(r.error, r.line);
        const lines = countNewlines(src, pos, r.end);
        line += lines.count;
        if (lines.count) lineStart = lines.lastLineStart;
        push('STRING', src.slice(pos, r.end), pos, r.end, startLine, col);
        pos = r.end;
        continue;
      }
      push('NAME', word, pos, p, line, col);
      pos = p;
      continue;
    }
    if (c === '"' || c === "'") {
      const r = scanString(src, pos, pos, line);
      if ('error' in r) return fail(r.error, r.line);
      const lines = countNewlines(src, pos, r.end);
      line += lines.count;
      if (lines.count) lineStart = lines.lastLineStart;
      push('STRING', src.slice(pos, r.end), pos, r.end, startLine, col);
      pos = r.end;
      continue;
    }
    if (
      (c >= '0' && c <= '9') ||
      (c === '.' && src[pos + 1] !== undefined && /[0-9]/.test(src[pos + 1] as string))
    ) {
      const r = scanNumber(src, pos);
      if ('error' in r) return fail(r.error, line);
      push('NUMBER', src.slice(pos, r.end), pos, r.end, line, col);
      pos = r.end;
      continue;
    }
    let op: string | undefined;
    for (const o of OPERATORS) {
      if (src.startsWith(o, pos)) {
        op = o;
        break;
      }
    }
    if (op === undefined) {
      if (c === '!') return fail('invalid syntax', line);
      if (c === '$' || c === '?' || c === '`') return fail('invalid syntax', line);
      const hex = cp.toString(16).toUpperCase().padStart(4, '0');
      if (!isPrintableChar(cp)) return fail(`invalid non-printable character U+${hex}`, line);
      return fail(`invalid character '${ch}' (U+${hex})`, line);
    }
    if (op === '(' || op === '[' || op === '{') {
      if (brackets.length >= MAX_NESTING) return fail('too many nested parentheses', line);
      push('OP', op, pos, pos + 1, line, col);
      brackets.push({ ch: op, line, col });
    } else if (op === ')' || op === ']' || op === '}') {
      const open = brackets[brackets.length - 1];
      if (!open) return fail(`unmatched '${op}'`, line);
      if (open.ch !== CLOSING[op]) {
        if (open.line !== line) {
          return fail(
            `closing parenthesis '${op}' does not match opening parenthesis '${open.ch}' on line ${open.line}`,
            line,
          );
        }
        return fail(`closing parenthesis '${op}' does not match opening parenthesis '${open.ch}'`, line);
      }
      brackets.pop();
      push('OP', op, pos, pos + 1, line, col);
    } else {
      push('OP', op, pos, pos + op.length, line, col);
    }
    pos += op.length;
  }
  // With brackets still open CPython's tokenizer ends with an error token, not NEWLINE/DEDENT: the parser then
  // fails at end of input and reports the unclosed bracket.
  if (brackets.length === 0) {
    const last = tokens[tokens.length - 1];
    if (last && last.kind !== 'NEWLINE' && last.kind !== 'DEDENT' && last.kind !== 'INDENT') {
      push('NEWLINE', '', n, n, line, pos - lineStart);
    }
    for (let i = indents.length - 1; i > 0; i--) push('DEDENT', '', n, n, line, 0);
  }
  push('EOF', '', n, n, line, pos - lineStart);
  return { tokens, error: null, openBrackets: brackets.map((b) => ({ ch: b.ch, line: b.line })) };
}

function countNewlines(src: string, from: number, to: number): { count: number; lastLineStart: number } {
  let count = 0;
  let lastLineStart = from;
  for (let i = from; i < to; i++) {
    const c = src[i];
    if (c === '\n' || (c === '\r' && src[i + 1] !== '\n')) {
      count++;
      lastLineStart = i + 1;
    }
  }
  return { count, lastLineStart };
}

function scanString(
  src: string,
  _tokStart: number,
  quotePos: number,
  line: number,
): { end: number } | { error: string; line: number } {
  const q = src[quotePos] as string;
  const triple = src.startsWith(q.repeat(3), quotePos);
  let p = quotePos + (triple ? 3 : 1);
  let curLine = line;
  while (p < src.length) {
    const c = src[p];
    if (c === '\\') {
      const nx = src[p + 1];
      if (nx === '\n' || nx === '\r') curLine++;
      p += nx === '\r' && src[p + 2] === '\n' ? 3 : 2;
      continue;
    }
    if (c === '\n' || c === '\r') {
      if (!triple) return { error: `unterminated string literal (detected at line ${line})`, line };
      if (!(c === '\r' && src[p + 1] === '\n')) curLine++;
      p++;
      continue;
    }
    if (c === q) {
      if (!triple) return { end: p + 1 };
      if (src.startsWith(q.repeat(3), p)) return { end: p + 3 };
    }
    p++;
  }
  if (triple) {
    const detected = src.endsWith('\n') || src.endsWith('\r') ? curLine - 1 : curLine;
    return { error: `unterminated triple-quoted string literal (detected at line ${detected})`, line };
  }
  return { error: `unterminated string literal (detected at line ${line})`, line };
}

function scanNumber(src: string, pos: number): { end: number } | { error: string } {
  const rest = src.slice(pos, pos + 2).toLowerCase();
  const isIdChar = (ch: string | undefined) => ch !== undefined && ID_CONTINUE.test(ch);
  if (rest === '0x' || rest === '0o' || rest === '0b') {
    const kind = rest[1] as string;
    const digitRe = kind === 'x' ? /[0-9a-fA-F]/ : kind === 'o' ? /[0-7]/ : /[01]/;
    const name = kind === 'x' ? 'hexadecimal' : kind === 'o' ? 'octal' : 'binary';
    let p = pos + 2;
    let digits = 0;
    while (p < src.length) {
      const c = src[p] as string;
      if (c === '_' && digitRe.test(src[p + 1] ?? '')) {
        p++;
        continue;
      }
      if (!digitRe.test(c)) break;
      digits++;
      p++;
    }
    if (digits === 0 || isIdChar(src[p])) {
      if (digits > 0 && /[0-9]/.test(src[p] ?? ''))
        return { error: `invalid digit '${src[p]}' in ${name} literal` };
      return { error: `invalid ${name} literal` };
    }
    return { end: p };
  }
  let p = pos;
  const readDigits = (): boolean => {
    let any = false;
    while (p < src.length) {
      const c = src[p] as string;
      if (c >= '0' && c <= '9') {
        any = true;
        p++;
      } else if (c === '_' && any && /[0-9]/.test(src[p + 1] ?? '')) {
        p++;
      } else break;
    }
    return any;
  };
  const intStart = p;
  const hasInt = readDigits();
  let isFloat = false;
  if (src[p] === '.') {
    isFloat = true;
    p++;
    readDigits();
  }
  if (src[p] === 'e' || src[p] === 'E') {
    const save = p;
    p++;
    const signed = src[p] === '+' || src[p] === '-';
    if (signed) p++;
    if (readDigits()) isFloat = true;
    else if (signed) return { error: 'invalid decimal literal' };
    else p = save; // `1else`: the keyword check below decides
  }
  if (src[p] === 'j' || src[p] === 'J') p++;
  if (isIdChar(src[p]) && !KEYWORD_AFTER_NUMBER.test(src.slice(p, p + 3)))
    return { error: 'invalid decimal literal' };
  if (!isFloat && hasInt) {
    const digits = src.slice(intStart, p).replace(/_/g, '');
    if (digits.length > 1 && digits[0] === '0' && /[1-9]/.test(digits)) {
      return {
        error:
          'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers',
      };
    }
  }
  return { end: p };
}

/**
 * Decodes the body of a (non-f) string literal: escapes unless raw. Unknown escapes are kept verbatim, as CPython
 * does (with a DeprecationWarning).
 */
export function decodeEscapes(body: string, raw: boolean): string {
  if (raw) return body.replace(/\r\n?/g, '\n');
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '\r') {
      out += '\n';
      if (body[i + 1] === '\n') i++;
      continue;
    }
    if (c !== '\\') {
      out += c;
      continue;
    }
    const nx = body[i + 1];
    if (nx === undefined) {
      out += '\\';
      continue;
    }
    i++;
    switch (nx) {
      case '\n':
        break;
      case '\r':
        if (body[i + 1] === '\n') i++;
        break;
      case '\\':
        out += '\\';
        break;
      case "'":
        out += "'";
        break;
      case '"':
        out += '"';
        break;
      case 'a':
        out += '\x07';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x': {
        const hex = body.slice(i + 1, i + 3);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new EscapeError(`truncated \\xXX escape`, i - 1);
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 2;
        break;
      }
      case 'u':
      case 'U': {
        const len = nx === 'u' ? 4 : 8;
        const hex = body.slice(i + 1, i + 1 + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) {
          throw new EscapeError(`truncated \\${nx}${'X'.repeat(len)} escape`, i - 1);
        }
        const cp = Number.parseInt(hex, 16);
        if (cp > 0x10ffff) throw new EscapeError('illegal Unicode character', i - 1);
        out += String.fromCodePoint(cp);
        i += len;
        break;
      }
      case 'N': {
        // Character names are not supported (no Unicode name table); CPython reports unknown names like this.
        const close = body[i + 1] === '{' ? body.indexOf('}', i + 1) : -1;
        if (close < 0) throw new EscapeError('malformed \\N character escape', i - 1, i);
        throw new EscapeError('unknown Unicode character name', i - 1, close);
      }
      default:
        if (nx >= '0' && nx <= '7') {
          let j = i;
          let oct = '';
          while (
            j < body.length &&
            oct.length < 3 &&
            (body[j] as string) >= '0' &&
            (body[j] as string) <= '7'
          ) {
            oct += body[j];
            j++;
          }
          out += String.fromCharCode(Number.parseInt(oct, 8));
          i = j - 1;
        } else {
          out += `\\${nx}`;
        }
    }
  }
  return out;
}

export class EscapeError extends Error {
  constructor(
    readonly reason: string,
    readonly position: number,
    readonly endPosition = position + 1,
  ) {
    super(reason);
  }
}
