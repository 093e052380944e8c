/**
 * Recursive-descent parser for the sandbox's Python subset, producing ./ast.ts nodes. It accepts the full
 * statement/expression grammar ToolQA-style code uses and reports syntax errors with CPython 3.11's messages and
 * line numbers for the common cases (generic `invalid syntax`, `expected ':'`, `'(' was never closed`,
 * `expected an indented block after 'if' statement on line N`, `invalid syntax. Perhaps you forgot a comma?`, ...).
 * Constructs CPython accepts but the sandbox does not run (class, with, async, match, complex literals) parse into
 * `Unsupported` nodes that fail only when executed, as a missing feature would at run time.
 */

import type {
  Alias,
  BinOpName,
  CmpOp,
  Comprehension,
  ExceptHandler,
  Expr,
  FPart,
  FunctionInfo,
  Keyword,
  Module,
  Param,
  Params,
  Pos,
  Stmt,
  StmtPos,
} from './ast.ts';
import { decodeEscapes, EscapeError, type Token, tokenize } from './lexer.ts';
import { AstTooDeep, PySyntaxError } from './syntax-error.ts';

const KEYWORDS = new Set([
  'False',
  'None',
  'True',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
]);

const AUG_OPS = new Set(['+=', '-=', '*=', '/=', '//=', '%=', '**=', '@=', '&=', '|=', '^=', '>>=', '<<=']);
/** Expression nesting CPython 3.11 still turns into an AST (`-` repeated 2990 times parses, 2991 does not). */
const MAX_EXPR_DEPTH = 2991;

/** Parses a module. Throws PySyntaxError. */
export function parseModule(src: string): Module {
  if (src.includes('\0'))
    throw new PySyntaxError('SyntaxError', 'source code string cannot contain null bytes', null);
  const lexed = tokenize(src);
  const p = new Parser(src, lexed.tokens, 0, 0, eofLineOf(src));
  let body: Stmt[] | null = null;
  let err: PySyntaxError | null = null;
  try {
    body = p.parseFile();
  } catch (e) {
    if (e instanceof RangeError) throw new AstTooDeep();
    if (!(e instanceof PySyntaxError)) throw e;
    err = e;
  }
  // CPython reports "unexpected indent" without scanning the rest of the input for tokenizer errors.
  if (err && err.kind === 'IndentationError' && err.msg === 'unexpected indent') throw err;
  if (lexed.error) throw lexed.error;
  if (err) {
    const open = lexed.openBrackets[lexed.openBrackets.length - 1];
    if (open && (p.failedAtEof || p.furthestLine() > open.line)) {
      throw new PySyntaxError('SyntaxError', `'${open.ch}' was never closed`, open.line);
    }
    throw err;
  }
  if (maxExprDepth(body as Stmt[]) > MAX_EXPR_DEPTH) throw new AstTooDeep();
  return { body: body as Stmt[], source: src };
}

/** Deepest chain of nested expressions (left-deep `1+1+...` chains are built iteratively by the parser). */
function maxExprDepth(stmts: readonly Stmt[]): number {
  let max = 0;
  const stack: [Expr, number][] = [];
  const pushStmt = (s: Stmt) => {
    for (const e of stmtExprs(s)) stack.push([e, 1]);
  };
  const stmtStack: Stmt[] = [...stmts];
  while (stmtStack.length) {
    const s = stmtStack.pop() as Stmt;
    pushStmt(s);
    switch (s.type) {
      case 'If':
      case 'While':
      case 'For':
        stmtStack.push(...s.body, ...s.orelse);
        break;
      case 'Try':
        stmtStack.push(...s.body, ...s.orelse, ...s.finalbody, ...s.handlers.flatMap((h) => h.body));
        break;
      case 'FunctionDef':
        stmtStack.push(...s.fn.body);
        break;
      default:
        break;
    }
  }
  while (stack.length) {
    const [e, d] = stack.pop() as [Expr, number];
    if (d > max) max = d;
    for (const c of childExprs(e)) stack.push([c, d + 1]);
  }
  return max;
}

function stmtExprs(s: Stmt): Expr[] {
  switch (s.type) {
    case 'Expr':
      return [s.value];
    case 'Assign':
      return [...s.targets, s.value];
    case 'AugAssign':
      return [s.target, s.value];
    case 'AnnAssign':
      return s.value ? [s.target, s.value] : [s.target];
    case 'If':
    case 'While':
      return [s.test];
    case 'For':
      return [s.target, s.iter];
    case 'Return':
      return s.value ? [s.value] : [];
    case 'Raise':
      return [s.exc, s.cause].filter((x): x is Expr => x !== null);
    case 'Assert':
      return [s.test, s.msg].filter((x): x is Expr => x !== null);
    case 'Delete':
      return [...s.targets];
    default:
      return [];
  }
}

function childExprs(e: Expr): Expr[] {
  switch (e.type) {
    case 'BinOp':
      return [e.left, e.right];
    case 'UnaryOp':
      return [e.operand];
    case 'BoolOp':
      return [...e.values];
    case 'Compare':
      return [e.left, ...e.comparators];
    case 'Call':
      return [e.func, ...e.args, ...e.keywords.map((k) => k.value)];
    case 'Attribute':
      return [e.value];
    case 'Subscript':
      return [e.value, e.index];
    case 'IfExp':
      return [e.test, e.body, e.orelse];
    case 'Starred':
      return [e.value];
    case 'NamedExpr':
      return [e.value];
    default:
      return [];
  }
}

/** Parses a standalone expression (used to re-create lambdas from their source). Throws PySyntaxError. */
export function parseExpression(src: string): Expr {
  const wrapped = `(${src}\n)`;
  const lexed = tokenize(wrapped);
  if (lexed.error) throw lexed.error;
  const p = new Parser(wrapped, lexed.tokens, 0, 0, eofLineOf(wrapped));
  const e = p.parseExpressionEntry();
  return e;
}

function eofLineOf(src: string): number {
  let lines = 1;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\n' || (c === '\r' && src[i + 1] !== '\n')) lines++;
  }
  return src.endsWith('\n') || src.endsWith('\r') ? Math.max(1, lines - 1) : lines;
}

type Ctx = { inBrackets: boolean };

class Parser {
  private i = 0;
  private furthest = 0;
  private lastEnd = 0;
  private depth = 0;
  failedAtEof = false;

  constructor(
    private readonly src: string,
    private readonly toks: readonly Token[],
    /** Offset added to positions (for f-string sub-expressions). */
    private readonly offsetBase: number,
    private readonly lineBase: number,
    private readonly eofLine: number,
  ) {}

  furthestLine(): number {
    const t = this.toks[Math.min(this.furthest, this.toks.length - 1)];
    if (!t) return 1;
    return t.kind === 'EOF' ? this.eofLine : t.line;
  }

  // ---------------------------------------------------------------------------------------------- token access

  private peek(k = 0): Token {
    const idx = Math.min(this.i + k, this.toks.length - 1);
    if (idx > this.furthest) this.furthest = idx;
    return this.toks[idx] as Token;
  }

  private next(): Token {
    const t = this.peek();
    if (this.i < this.toks.length - 1) this.i++;
    if (t.kind === 'NAME' || t.kind === 'OP' || t.kind === 'NUMBER' || t.kind === 'STRING')
      this.lastEnd = t.end;
    return t;
  }

  private isOp(v: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'OP' && t.value === v;
  }

  private isKw(v: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'NAME' && t.value === v;
  }

  private lineOf(t: Token): number {
    return (t.kind === 'EOF' ? this.eofLine : t.line) + this.lineBase;
  }

  private fail(
    msg = 'invalid syntax',
    t: Token = this.peek(),
    kind: 'SyntaxError' | 'IndentationError' = 'SyntaxError',
  ): never {
    if (t.kind === 'EOF') this.failedAtEof = true;
    if (t.kind === 'INDENT' && msg === 'invalid syntax')
      throw new PySyntaxError('IndentationError', 'unexpected indent', this.lineOf(t));
    throw new PySyntaxError(kind, msg, this.lineOf(t));
  }

  private expectOp(v: string, msg?: string): Token {
    if (!this.isOp(v)) this.fail(msg);
    return this.next();
  }

  private pos(t: Token): Pos {
    return {
      line: t.line + this.lineBase,
      col: t.col,
      start: t.start + this.offsetBase,
      end: this.lastEnd + this.offsetBase,
    };
  }

  private stmtPos(t: Token): StmtPos {
    const p = this.pos(t);
    return { ...p, endLine: this.lineAtOffset(this.lastEnd) };
  }

  /** Offsets just after each line break of `src` (built once: a scan per statement made parsing quadratic). */
  private lineBreaks: number[] | null = null;

  private lineAtOffset(off: number): number {
    if (!this.lineBreaks) {
      const breaks: number[] = [];
      const src = this.src;
      for (let k = 0; k < src.length; k++) {
        const c = src[k];
        if (c === '\n' || (c === '\r' && src[k + 1] !== '\n')) breaks.push(k + 1);
      }
      this.lineBreaks = breaks;
    }
    // Line = 1 + the number of breaks at offsets < off (a break at k counts when k < off, i.e. k + 1 <= off).
    const breaks = this.lineBreaks;
    let lo = 0;
    let hi = breaks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((breaks[mid] as number) <= Math.min(off, this.src.length)) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1 + this.lineBase;
  }

  private enter(): void {
    if (++this.depth > MAX_EXPR_DEPTH) throw new AstTooDeep();
  }

  private leave(): void {
    this.depth--;
  }

  // ---------------------------------------------------------------------------------------------- statements

  parseFile(): Stmt[] {
    const body: Stmt[] = [];
    while (this.peek().kind !== 'EOF') {
      const t = this.peek();
      if (t.kind === 'NEWLINE') {
        this.next();
        continue;
      }
      if (t.kind === 'INDENT') this.fail('unexpected indent', t, 'IndentationError');
      if (t.kind === 'DEDENT') this.fail('unexpected unindent', t, 'IndentationError');
      body.push(...this.parseStatement());
    }
    return body;
  }

  parseExpressionEntry(): Expr {
    const e = this.parseStarExpressions();
    while (this.peek().kind === 'NEWLINE') this.next();
    if (this.peek().kind !== 'EOF') this.fail();
    return e;
  }

  private parseStatement(): Stmt[] {
    const t = this.peek();
    if (t.kind === 'NAME') {
      switch (t.value) {
        case 'if':
          return [this.parseIf()];
        case 'while':
          return [this.parseWhile()];
        case 'for':
          return [this.parseFor()];
        case 'def':
          return [this.parseDef([], t)];
        case 'try':
          return [this.parseTry()];
        case 'class':
          return [this.parseClass()];
        case 'with':
          return [this.parseWith()];
        case 'async':
          return [this.parseAsync()];
      }
    }
    if (t.kind === 'OP' && t.value === '@') return [this.parseDecorated()];
    return this.parseSimpleStatements();
  }

  private parseSimpleStatements(): Stmt[] {
    const out: Stmt[] = [this.parseSimple()];
    while (this.isOp(';')) {
      this.next();
      if (this.peek().kind === 'NEWLINE' || this.peek().kind === 'EOF') break;
      out.push(this.parseSimple());
    }
    const t = this.peek();
    if (t.kind !== 'NEWLINE' && t.kind !== 'EOF') {
      this.failAfterStatement(out[out.length - 1] as Stmt);
    }
    if (t.kind === 'NEWLINE') this.next();
    return out;
  }

  /** The statement parsed fine but is followed by something: find CPython's specific message when there is one. */
  private failAfterStatement(s: Stmt): never {
    const t = this.peek();
    if (s.type === 'Expr' && s.value.type === 'Name' && (s.value.id === 'print' || s.value.id === 'exec')) {
      if (
        t.kind === 'NAME' ||
        t.kind === 'NUMBER' ||
        t.kind === 'STRING' ||
        (t.kind === 'OP' && '([{-+~'.includes(t.value))
      ) {
        this.fail(
          `Missing parentheses in call to '${s.value.id}'. Did you mean ${s.value.id}(...)?`,
          this.toks[this.indexOfStart(s.value)] as Token,
        );
      }
    }
    this.fail();
  }

  private indexOfStart(e: Pos): number {
    const off = e.start - this.offsetBase;
    const idx = this.toks.findIndex((tk) => tk.start === off);
    return idx < 0 ? this.i : idx;
  }

  private parseSimple(): Stmt {
    const t = this.peek();
    if (t.kind === 'INDENT') this.fail('unexpected indent', t, 'IndentationError');
    if (t.kind === 'NAME') {
      switch (t.value) {
        case 'pass':
        case 'break':
        case 'continue': {
          this.next();
          const type = t.value === 'pass' ? 'Pass' : t.value === 'break' ? 'Break' : 'Continue';
          return { type, ...this.stmtPos(t) };
        }
        case 'return': {
          this.next();
          const value = this.atExprEnd() ? null : this.parseStarExpressions();
          return { type: 'Return', value, ...this.stmtPos(t) };
        }
        case 'raise': {
          this.next();
          let exc: Expr | null = null;
          let cause: Expr | null = null;
          if (!this.atExprEnd()) {
            exc = this.parseExpression();
            if (this.isKw('from')) {
              this.next();
              cause = this.parseExpression();
            }
          }
          return { type: 'Raise', exc, cause, ...this.stmtPos(t) };
        }
        case 'global':
        case 'nonlocal': {
          this.next();
          const names = [this.parseName()];
          while (this.isOp(',')) {
            this.next();
            names.push(this.parseName());
          }
          return { type: t.value === 'global' ? 'Global' : 'Nonlocal', names, ...this.stmtPos(t) };
        }
        case 'del': {
          this.next();
          const targets: Expr[] = [];
          do {
            if (targets.length) this.next();
            if (this.atExprEnd()) break;
            const e = this.parseBitOr();
            this.checkDelTarget(e);
            targets.push(e);
          } while (this.isOp(','));
          if (!targets.length) this.fail();
          return { type: 'Delete', targets, ...this.stmtPos(t) };
        }
        case 'assert': {
          this.next();
          const test = this.parseExpression();
          let msg: Expr | null = null;
          if (this.isOp(',')) {
            this.next();
            msg = this.parseExpression();
          }
          return { type: 'Assert', test, msg, ...this.stmtPos(t) };
        }
        case 'import':
          return this.parseImport();
        case 'from':
          return this.parseFromImport();
      }
    }
    return this.parseExprStatement();
  }

  private atExprEnd(): boolean {
    const t = this.peek();
    return (
      t.kind === 'NEWLINE' || t.kind === 'EOF' || (t.kind === 'OP' && (t.value === ';' || t.value === ')'))
    );
  }

  private parseName(): string {
    const t = this.peek();
    if (t.kind !== 'NAME' || KEYWORDS.has(t.value)) this.fail();
    this.next();
    return t.value;
  }

  private parseDottedName(): string {
    let name = this.parseName();
    while (this.isOp('.')) {
      this.next();
      name += `.${this.parseName()}`;
    }
    return name;
  }

  private parseImport(): Stmt {
    const t = this.next();
    const names: Alias[] = [];
    do {
      if (names.length) this.next();
      const name = this.parseDottedName();
      let asname: string | null = null;
      if (this.isKw('as')) {
        this.next();
        asname = this.parseName();
      }
      names.push({ name, asname });
    } while (this.isOp(','));
    return { type: 'Import', names, ...this.stmtPos(t) };
  }

  private parseFromImport(): Stmt {
    const t = this.next();
    let level = 0;
    while (this.isOp('.') || this.isOp('...')) level += this.next().value.length;
    let module = '';
    if (!this.isKw('import')) module = this.parseDottedName();
    if (!this.isKw('import')) this.fail();
    this.next();
    if (this.isOp('*')) {
      this.next();
      return { type: 'ImportFrom', module, names: '*', level, ...this.stmtPos(t) };
    }
    const paren = this.isOp('(');
    if (paren) this.next();
    const names: Alias[] = [];
    for (;;) {
      const name = this.parseName();
      let asname: string | null = null;
      if (this.isKw('as')) {
        this.next();
        asname = this.parseName();
      }
      names.push({ name, asname });
      if (!this.isOp(',')) break;
      this.next();
      if (paren && this.isOp(')')) break;
      if (!paren && this.atExprEnd()) {
        this.fail('trailing comma not allowed without surrounding parentheses');
      }
    }
    if (paren) this.expectOp(')');
    return { type: 'ImportFrom', module, names, level, ...this.stmtPos(t) };
  }

  private parseExprStatement(): Stmt {
    const t = this.peek();
    const first = this.isKw('yield') ? this.parseYield() : this.parseStarExpressions();
    if (this.isOp('=')) {
      const targets: Expr[] = [first];
      let value: Expr = first;
      while (this.isOp('=')) {
        this.next();
        value = this.isKw('yield') ? this.parseYield() : this.parseStarExpressions();
        targets.push(value);
      }
      targets.pop();
      for (const target of targets) this.checkTarget(target, 'assign');
      return { type: 'Assign', targets, value, ...this.stmtPos(t) };
    }
    const opTok = this.peek();
    if (opTok.kind === 'OP' && AUG_OPS.has(opTok.value)) {
      if (first.type !== 'Name' && first.type !== 'Attribute' && first.type !== 'Subscript') {
        this.failAt(`'${describeForAug(first)}' is an illegal expression for augmented assignment`, first);
      }
      this.next();
      const value = this.isKw('yield') ? this.parseYield() : this.parseStarExpressions();
      return {
        type: 'AugAssign',
        target: first,
        op: opTok.value.slice(0, -1) as BinOpName,
        value,
        ...this.stmtPos(t),
      };
    }
    if (opTok.kind === 'OP' && opTok.value === ':') {
      if (first.type === 'Tuple') this.failAt('only single target (not tuple) can be annotated', first);
      if (first.type === 'List') this.failAt('only single target (not list) can be annotated', first);
      if (first.type !== 'Name' && first.type !== 'Attribute' && first.type !== 'Subscript') {
        this.failAt('illegal target for annotation', first);
      }
      this.next();
      this.parseExpression();
      let value: Expr | null = null;
      if (this.isOp('=')) {
        this.next();
        value = this.parseStarExpressions();
      }
      return { type: 'AnnAssign', target: first, value, ...this.stmtPos(t) };
    }
    return { type: 'Expr', value: first, ...this.stmtPos(t) };
  }

  private failAt(msg: string, e: Pos): never {
    throw new PySyntaxError('SyntaxError', msg, e.line);
  }

  private checkTarget(e: Expr, mode: 'assign' | 'for'): void {
    switch (e.type) {
      case 'Name':
      case 'Attribute':
      case 'Subscript':
        return;
      case 'Starred':
        this.checkTarget(e.value, mode);
        return;
      case 'Tuple':
      case 'List': {
        let stars = 0;
        for (const x of e.elts) {
          if (x.type === 'Starred') stars++;
          this.checkTarget(x, mode);
        }
        if (stars > 1) this.failAt('multiple starred expressions in assignment', e);
        return;
      }
    }
    const what = describeTarget(e);
    if (mode === 'assign' && what !== 'True' && what !== 'False' && what !== 'None') {
      this.failAt(`cannot assign to ${what} here. Maybe you meant '==' instead of '='?`, e);
    }
    this.failAt(`cannot assign to ${what}`, e);
  }

  private checkDelTarget(e: Expr): void {
    switch (e.type) {
      case 'Name':
      case 'Attribute':
      case 'Subscript':
        return;
      case 'Tuple':
      case 'List':
        for (const x of e.elts) this.checkDelTarget(x);
        return;
    }
    this.failAt(`cannot delete ${describeTarget(e)}`, e);
  }

  /** Parses `: NEWLINE INDENT stmts DEDENT` or `: simple_stmts`. */
  private parseBlock(what: string, headerLine: number): Stmt[] {
    if (!this.isOp(':')) this.fail("expected ':'");
    this.next();
    if (this.peek().kind !== 'NEWLINE') {
      if (this.peek().kind === 'EOF') this.fail();
      return this.parseSimpleStatements();
    }
    this.next();
    const t = this.peek();
    if (t.kind !== 'INDENT') {
      this.fail(`expected an indented block after ${what} on line ${headerLine}`, t, 'IndentationError');
    }
    this.next();
    const body: Stmt[] = [];
    while (this.peek().kind !== 'DEDENT' && this.peek().kind !== 'EOF') {
      const s = this.peek();
      if (s.kind === 'INDENT') this.fail('unexpected indent', s, 'IndentationError');
      if (s.kind === 'NEWLINE') {
        this.next();
        continue;
      }
      body.push(...this.parseStatement());
    }
    if (this.peek().kind === 'DEDENT') this.next();
    return body;
  }

  private parseIf(): Stmt {
    const t = this.next();
    const test = this.parseNamedExpression();
    if (this.isOp('='))
      this.fail("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", this.peek());
    const body = this.parseBlock(`'${t.value}' statement`, this.lineOf(t));
    let orelse: Stmt[] = [];
    if (this.isKw('elif')) {
      orelse = [this.parseIf()];
    } else if (this.isKw('else')) {
      const e = this.next();
      orelse = this.parseBlock("'else' statement", this.lineOf(e));
    }
    return { type: 'If', test, body, orelse, ...this.stmtPos(t) };
  }

  private parseWhile(): Stmt {
    const t = this.next();
    const test = this.parseNamedExpression();
    if (this.isOp('='))
      this.fail("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", this.peek());
    const body = this.parseBlock("'while' statement", this.lineOf(t));
    let orelse: Stmt[] = [];
    if (this.isKw('else')) {
      const e = this.next();
      orelse = this.parseBlock("'else' statement", this.lineOf(e));
    }
    return { type: 'While', test, body, orelse, ...this.stmtPos(t) };
  }

  private parseFor(): Stmt {
    const t = this.next();
    const target = this.parseTargetList();
    if (!this.isKw('in')) this.fail();
    this.next();
    const iter = this.parseStarExpressions();
    const body = this.parseBlock("'for' statement", this.lineOf(t));
    let orelse: Stmt[] = [];
    if (this.isKw('else')) {
      const e = this.next();
      orelse = this.parseBlock("'else' statement", this.lineOf(e));
    }
    return { type: 'For', target, iter, body, orelse, ...this.stmtPos(t) };
  }

  /** `for` / comprehension targets: star_targets (no comparisons, so `in` ends them). */
  private parseTargetList(): Expr {
    const t = this.peek();
    const first = this.parseTargetItem();
    if (!this.isOp(',')) {
      this.checkTarget(first, 'for');
      return first;
    }
    const elts = [first];
    while (this.isOp(',')) {
      this.next();
      if (this.isKw('in') || this.isOp('=')) break;
      elts.push(this.parseTargetItem());
    }
    const tuple: Expr = { type: 'Tuple', elts, ...this.pos(t) };
    this.checkTarget(tuple, 'for');
    return tuple;
  }

  private parseTargetItem(): Expr {
    const t = this.peek();
    if (this.isOp('*')) {
      this.next();
      const value = this.parseBitOr();
      return { type: 'Starred', value, ...this.pos(t) };
    }
    return this.parseBitOr();
  }

  private parseTry(): Stmt {
    const t = this.next();
    const body = this.parseBlock("'try' statement", this.lineOf(t));
    const handlers: ExceptHandler[] = [];
    while (this.isKw('except')) {
      const h = this.next();
      if (this.isOp('*')) this.fail();
      let type: Expr | null = null;
      let name: string | null = null;
      if (!this.isOp(':')) {
        type = this.parseExpression();
        if (this.isOp(','))
          this.fail(
            'multiple exception types must be parenthesized',
            this.toks[this.indexOfStart(type)] as Token,
          );
        if (this.isKw('as')) {
          this.next();
          name = this.parseName();
        }
      }
      const hbody = this.parseBlock("'except' statement", this.lineOf(h));
      handlers.push({ type, name, body: hbody, line: this.lineOf(h) });
    }
    let orelse: Stmt[] = [];
    let finalbody: Stmt[] = [];
    if (handlers.length && this.isKw('else')) {
      const e = this.next();
      orelse = this.parseBlock("'else' statement", this.lineOf(e));
    }
    if (this.isKw('finally')) {
      const f = this.next();
      finalbody = this.parseBlock("'finally' statement", this.lineOf(f));
    }
    if (!handlers.length && !finalbody.length) this.fail("expected 'except' or 'finally' block");
    return { type: 'Try', body, handlers, orelse, finalbody, ...this.stmtPos(t) };
  }

  private parseClass(): Stmt {
    const t = this.next();
    this.parseName();
    if (this.isOp('(')) {
      this.next();
      this.parseCallArgs();
    }
    this.parseBlock('class definition', this.lineOf(t));
    return { type: 'Unsupported', feature: 'class definitions', ...this.stmtPos(t) };
  }

  private parseWith(): Stmt {
    const t = this.next();
    do {
      if (this.isOp(',')) this.next();
      this.parseExpression();
      if (this.isKw('as')) {
        this.next();
        this.checkTarget(this.parseTargetItem(), 'for');
      }
    } while (this.isOp(','));
    this.parseBlock("'with' statement", this.lineOf(t));
    return { type: 'Unsupported', feature: "'with' statements", ...this.stmtPos(t) };
  }

  private parseAsync(): Stmt {
    const t = this.next();
    if (this.isKw('def')) this.parseDef([], this.peek());
    else if (this.isKw('for')) this.parseFor();
    else if (this.isKw('with')) this.parseWith();
    else this.fail();
    return { type: 'Unsupported', feature: 'async code', ...this.stmtPos(t) };
  }

  private parseDecorated(): Stmt {
    const decorators: Expr[] = [];
    while (this.isOp('@')) {
      this.next();
      decorators.push(this.parseNamedExpression());
      if (this.peek().kind !== 'NEWLINE') this.fail();
      this.next();
    }
    if (this.isKw('def')) return this.parseDef(decorators, this.peek());
    if (this.isKw('class')) return this.parseClass();
    if (this.isKw('async')) return this.parseAsync();
    return this.fail();
  }

  private parseDef(decorators: Expr[], t: Token): Stmt {
    this.next();
    const name = this.parseName();
    this.expectOp('(');
    const params = this.parseParams(')', true);
    this.expectOp(')');
    if (this.isOp('->')) {
      this.next();
      this.parseExpression();
    }
    const body = this.parseBlock('function definition', this.lineOf(t));
    const source = this.src.slice(t.start, this.lastEnd);
    const fn = makeFunctionInfo(name, params, body, false, source);
    return { type: 'FunctionDef', fn, decorators, ...this.stmtPos(t) };
  }

  /** Parameter list up to (not including) `close`. */
  private parseParams(close: string, annotations: boolean): Params {
    const args: Param[] = [];
    const kwonly: Param[] = [];
    let vararg: string | null = null;
    let kwarg: string | null = null;
    let sawStar = false;
    let sawDefault = false;
    while (!this.isOp(close)) {
      const tok = this.peek();
      if (this.isOp('**')) {
        this.next();
        kwarg = this.parseName();
        if (annotations && this.isOp(':')) {
          this.next();
          this.parseExpression();
        }
        if (this.isOp(',')) this.next();
        if (!this.isOp(close)) this.fail('arguments cannot follow var-keyword argument');
        break;
      }
      if (this.isOp('*')) {
        if (sawStar) this.fail('* argument may appear only once');
        this.next();
        sawStar = true;
        if (this.peek().kind === 'NAME') {
          vararg = this.parseName();
          if (annotations && this.isOp(':')) {
            this.next();
            this.parseExpression();
          }
        } else if (this.isOp(close) || (this.isOp(',') && this.isOp(close, 1))) {
          this.fail('named arguments must follow bare *');
        }
      } else if (this.isOp('/')) {
        this.next();
      } else {
        const name = this.parseName();
        if (annotations && this.isOp(':')) {
          this.next();
          this.parseExpression();
        }
        let def: Expr | null = null;
        if (this.isOp('=')) {
          this.next();
          def = this.parseExpression();
        }
        if (sawStar) kwonly.push({ name, default: def });
        else {
          if (def) sawDefault = true;
          else if (sawDefault) this.fail('non-default argument follows default argument', tok);
          args.push({ name, default: def });
        }
      }
      if (!this.isOp(',')) break;
      this.next();
    }
    return { args, vararg, kwonly, kwarg };
  }

  // ---------------------------------------------------------------------------------------------- expressions

  private parseStarExpressions(ctx?: Ctx): Expr {
    const t = this.peek();
    const first = this.parseStarExpression(ctx);
    if (!this.isOp(',')) {
      if (first.type === 'Starred') this.failAt("can't use starred expression here", first);
      return first;
    }
    const elts = [first];
    while (this.isOp(',')) {
      this.next();
      if (!this.startsExpression()) break;
      elts.push(this.parseStarExpression(ctx));
    }
    return { type: 'Tuple', elts, ...this.pos(t) };
  }

  private startsExpression(): boolean {
    const t = this.peek();
    if (t.kind === 'NUMBER' || t.kind === 'STRING') return true;
    if (t.kind === 'NAME') {
      return (
        !KEYWORDS.has(t.value) ||
        ['True', 'False', 'None', 'not', 'lambda', 'await', 'yield'].includes(t.value)
      );
    }
    return t.kind === 'OP' && ['(', '[', '{', '-', '+', '~', '*', '...'].includes(t.value);
  }

  private parseStarExpression(ctx?: Ctx): Expr {
    if (this.isOp('*')) {
      const t = this.next();
      const value = this.parseBitOr();
      return { type: 'Starred', value, ...this.pos(t) };
    }
    return this.parseExpression(ctx);
  }

  private parseNamedExpression(ctx?: Ctx): Expr {
    const t = this.peek();
    if (t.kind === 'NAME' && !KEYWORDS.has(t.value) && this.isOp(':=', 1)) {
      this.next();
      this.next();
      const value = this.parseExpression(ctx);
      return { type: 'NamedExpr', target: t.value, value, ...this.pos(t) };
    }
    const e = this.parseExpression(ctx);
    if (this.isOp(':=')) this.failAt(`cannot use assignment expressions with ${describeTarget(e)}`, e);
    return e;
  }

  private parseExpression(ctx?: Ctx): Expr {
    this.enter();
    try {
      const t = this.peek();
      if (this.isKw('lambda')) return this.parseLambda();
      const body = this.parseDisjunction();
      if (this.isKw('if')) {
        this.next();
        const test = this.parseDisjunction();
        if (!this.isKw('else')) this.fail("expected 'else' after 'if' expression");
        this.next();
        const orelse = this.parseExpression();
        return { type: 'IfExp', test, body, orelse, ...this.pos(t) };
      }
      if (ctx?.inBrackets) this.checkForgottenComma(body, t);
      return body;
    } finally {
      this.leave();
    }
  }

  /** CPython's "Perhaps you forgot a comma?" for two expressions juxtaposed inside brackets. */
  private checkForgottenComma(a: Expr, first: Token): void {
    if (!this.startsExpression() || this.isOp('*') || this.isOp('-') || this.isOp('+')) return;
    const t = this.peek();
    if (t.kind === 'NAME' && ['not', 'yield', 'await'].includes(t.value)) return;
    if (first.kind === 'NAME' && this.toks[this.indexOfStart(a) + 1]?.kind === 'STRING') return;
    if (first.kind === 'NAME' && ['match', 'case', '_'].includes(first.value)) return;
    const save = this.i;
    const saveEnd = this.lastEnd;
    const saveDepth = this.depth;
    try {
      this.parseExpression();
    } catch (e) {
      if (!(e instanceof PySyntaxError)) throw e;
      this.i = save;
      this.lastEnd = saveEnd;
      this.depth = saveDepth;
      return;
    }
    this.fail('invalid syntax. Perhaps you forgot a comma?', first);
  }

  private parseLambda(): Expr {
    const t = this.next();
    const params = this.parseParams(':', false);
    this.expectOp(':');
    const bodyExpr = this.parseExpression();
    const source = this.src.slice(t.start, this.lastEnd);
    const ret: Stmt = {
      type: 'Return',
      value: bodyExpr,
      line: bodyExpr.line,
      col: bodyExpr.col,
      start: bodyExpr.start,
      end: bodyExpr.end,
      endLine: bodyExpr.line,
    };
    const fn = makeFunctionInfo('<lambda>', params, [ret], true, source);
    return { type: 'Lambda', fn, ...this.pos(t) };
  }

  private parseDisjunction(): Expr {
    const t = this.peek();
    const first = this.parseConjunction();
    if (!this.isKw('or')) return first;
    const values = [first];
    while (this.isKw('or')) {
      this.next();
      values.push(this.parseConjunction());
    }
    return { type: 'BoolOp', op: 'or', values, ...this.pos(t) };
  }

  private parseConjunction(): Expr {
    const t = this.peek();
    const first = this.parseInversion();
    if (!this.isKw('and')) return first;
    const values = [first];
    while (this.isKw('and')) {
      this.next();
      values.push(this.parseInversion());
    }
    return { type: 'BoolOp', op: 'and', values, ...this.pos(t) };
  }

  private parseInversion(): Expr {
    if (this.isKw('not')) {
      this.enter();
      try {
        const t = this.next();
        const operand = this.parseInversion();
        return { type: 'UnaryOp', op: 'not', operand, ...this.pos(t) };
      } finally {
        this.leave();
      }
    }
    return this.parseComparison();
  }

  private parseComparison(): Expr {
    const t = this.peek();
    const left = this.parseBitOr();
    const ops: CmpOp[] = [];
    const comparators: Expr[] = [];
    for (;;) {
      const op = this.peekCompOp();
      if (!op) break;
      comparators.push(this.parseBitOr());
      ops.push(op);
    }
    if (!ops.length) return left;
    return { type: 'Compare', left, ops, comparators, ...this.pos(t) };
  }

  private peekCompOp(): CmpOp | null {
    const t = this.peek();
    if (t.kind === 'OP' && ['<', '>', '==', '!=', '<=', '>='].includes(t.value)) {
      this.next();
      return t.value as CmpOp;
    }
    if (t.kind === 'NAME') {
      if (t.value === 'in') {
        this.next();
        return 'in';
      }
      if (t.value === 'not' && this.isKw('in', 1)) {
        this.next();
        this.next();
        return 'not in';
      }
      if (t.value === 'is') {
        this.next();
        if (this.isKw('not')) {
          this.next();
          return 'is not';
        }
        return 'is';
      }
    }
    return null;
  }

  private parseBinaryLevel(ops: readonly string[], sub: () => Expr): Expr {
    const t = this.peek();
    let left = sub();
    for (;;) {
      const o = this.peek();
      if (o.kind !== 'OP' || !ops.includes(o.value)) return left;
      this.next();
      const right = sub();
      left = { type: 'BinOp', op: o.value as BinOpName, left, right, ...this.pos(t) };
    }
  }

  private parseBitOr(): Expr {
    return this.parseBinaryLevel(['|'], () => this.parseBitXor());
  }

  private parseBitXor(): Expr {
    return this.parseBinaryLevel(['^'], () => this.parseBitAnd());
  }

  private parseBitAnd(): Expr {
    return this.parseBinaryLevel(['&'], () => this.parseShift());
  }

  private parseShift(): Expr {
    return this.parseBinaryLevel(['<<', '>>'], () => this.parseSum());
  }

  private parseSum(): Expr {
    return this.parseBinaryLevel(['+', '-'], () => this.parseTerm());
  }

  private parseTerm(): Expr {
    return this.parseBinaryLevel(['*', '/', '//', '%', '@'], () => this.parseFactor());
  }

  private parseFactor(): Expr {
    const t = this.peek();
    if (t.kind === 'OP' && (t.value === '-' || t.value === '+' || t.value === '~')) {
      this.enter();
      try {
        this.next();
        const operand = this.parseFactor();
        return { type: 'UnaryOp', op: t.value as '-' | '+' | '~', operand, ...this.pos(t) };
      } finally {
        this.leave();
      }
    }
    return this.parsePower();
  }

  private parsePower(): Expr {
    const t = this.peek();
    let base: Expr;
    if (this.isKw('await')) {
      this.next();
      this.parsePrimary();
      base = { type: 'UnsupportedExpr', feature: "'await'", ...this.pos(t) };
    } else {
      base = this.parsePrimary();
    }
    if (this.isOp('**')) {
      this.next();
      const right = this.parseFactor();
      return { type: 'BinOp', op: '**', left: base, right, ...this.pos(t) };
    }
    return base;
  }

  private parsePrimary(): Expr {
    const t = this.peek();
    let e = this.parseAtom();
    for (;;) {
      if (this.isOp('.')) {
        this.next();
        const nt = this.peek();
        if (nt.kind !== 'NAME') this.fail();
        this.next();
        e = { type: 'Attribute', value: e, attr: nt.value, ...this.pos(t) };
      } else if (this.isOp('(')) {
        this.enter();
        try {
          this.next();
          const { args, keywords } = this.parseCallArgs();
          e = { type: 'Call', func: e, args, keywords, ...this.pos(t) };
        } finally {
          this.leave();
        }
      } else if (this.isOp('[')) {
        this.enter();
        try {
          this.next();
          const index = this.parseSubscriptList();
          this.expectOp(']');
          e = { type: 'Subscript', value: e, index, ...this.pos(t) };
        } finally {
          this.leave();
        }
      } else {
        return e;
      }
    }
  }

  /** After `(`: arguments and the closing `)`. */
  private parseCallArgs(): { args: Expr[]; keywords: Keyword[] } {
    const args: Expr[] = [];
    const keywords: Keyword[] = [];
    let sawKeyword = false;
    let sawKwUnpack = false;
    let genexpCount = 0;
    let count = 0;
    while (!this.isOp(')')) {
      const t = this.peek();
      count++;
      if (this.isOp('**')) {
        this.next();
        keywords.push({ name: null, value: this.parseExpression() });
        sawKwUnpack = true;
      } else if (this.isOp('*')) {
        this.next();
        const value = this.parseExpression();
        if (sawKwUnpack) this.fail('iterable argument unpacking follows keyword argument unpacking', t);
        args.push({ type: 'Starred', value, ...this.pos(t) });
      } else if (t.kind === 'NAME' && this.isOp('=', 1) && !KEYWORDS.has(t.value)) {
        this.next();
        this.next();
        keywords.push({ name: t.value, value: this.parseExpression() });
        sawKeyword = true;
      } else {
        let value = this.parseNamedExpression({ inBrackets: true });
        if (this.isKw('for') || (this.isKw('async') && this.isKw('for', 1))) {
          value = this.parseComprehensionTail('GeneratorExp', value, null, t);
          genexpCount++;
        } else if (this.isOp('=')) {
          if (value.type === 'Const' && typeof value.value === 'boolean')
            this.failAt(`cannot assign to ${value.value ? 'True' : 'False'}`, value);
          this.failAt('expression cannot contain assignment, perhaps you meant "=="?', value);
        }
        if (sawKwUnpack) this.fail('positional argument follows keyword argument unpacking', t);
        if (sawKeyword) this.fail('positional argument follows keyword argument', t);
        args.push(value);
      }
      if (!this.isOp(',')) break;
      this.next();
    }
    if (genexpCount && count > 1) {
      const g = args.find((a) => a.type === 'GeneratorExp') as Expr;
      this.failAt('Generator expression must be parenthesized', g);
    }
    this.expectOp(')');
    return { args, keywords };
  }

  private parseSubscriptList(): Expr {
    const t = this.peek();
    const first = this.parseSubscriptItem();
    if (!this.isOp(',')) return first;
    const elts = [first];
    while (this.isOp(',')) {
      this.next();
      if (this.isOp(']')) break;
      elts.push(this.parseSubscriptItem());
    }
    return { type: 'Tuple', elts, ...this.pos(t) };
  }

  private parseSubscriptItem(): Expr {
    const t = this.peek();
    let lower: Expr | null = null;
    if (!this.isOp(':')) {
      lower = this.isOp('*') ? this.parseStarExpression() : this.parseNamedExpression({ inBrackets: true });
      if (!this.isOp(':')) return lower;
    }
    this.next();
    let upper: Expr | null = null;
    let step: Expr | null = null;
    if (!this.isOp(':') && !this.isOp(']') && !this.isOp(',')) upper = this.parseExpression();
    if (this.isOp(':')) {
      this.next();
      if (!this.isOp(']') && !this.isOp(',')) step = this.parseExpression();
    }
    return { type: 'Slice', lower, upper, step, ...this.pos(t) };
  }

  private parseAtom(): Expr {
    const t = this.peek();
    switch (t.kind) {
      case 'NAME': {
        if (t.value === 'True' || t.value === 'False' || t.value === 'None') {
          this.next();
          return { type: 'Const', value: t.value === 'None' ? null : t.value === 'True', ...this.pos(t) };
        }
        if (KEYWORDS.has(t.value)) this.fail();
        this.next();
        return { type: 'Name', id: t.value, ...this.pos(t) };
      }
      case 'NUMBER':
        this.next();
        return this.numberLiteral(t);
      case 'STRING':
        return this.parseStrings();
      case 'OP':
        switch (t.value) {
          case '(':
            return this.parseParen();
          case '[':
            return this.parseListDisplay();
          case '{':
            return this.parseBraceDisplay();
          case '...':
            this.next();
            return { type: 'Ellipsis', ...this.pos(t) };
        }
    }
    return this.fail();
  }

  private numberLiteral(t: Token): Expr {
    const text = t.value.replace(/_/g, '');
    const lower = text.toLowerCase();
    if (lower.endsWith('j')) return { type: 'UnsupportedExpr', feature: 'complex numbers', ...this.pos(t) };
    if (/^0[xob]/.test(lower)) return { type: 'Const', value: BigInt(lower), ...this.pos(t) };
    if (/[.e]/.test(lower)) return { type: 'Const', value: Number(lower), ...this.pos(t) };
    return { type: 'Const', value: BigInt(lower), ...this.pos(t) };
  }

  private parseParen(): Expr {
    this.enter();
    try {
      const t = this.next();
      if (this.isOp(')')) {
        this.next();
        return { type: 'Tuple', elts: [], ...this.pos(t) };
      }
      if (this.isKw('yield')) {
        const y = this.parseYield();
        this.expectOp(')');
        return y;
      }
      const first = this.isOp('*')
        ? this.parseStarExpression()
        : this.parseNamedExpression({ inBrackets: true });
      if (this.isKw('for') || (this.isKw('async') && this.isKw('for', 1))) {
        const g = this.parseComprehensionTail('GeneratorExp', first, null, t);
        this.expectOp(')');
        return g;
      }
      if (this.isOp(')')) {
        this.next();
        if (first.type === 'Starred') this.failAt("can't use starred expression here", first);
        return first;
      }
      if (!this.isOp(',')) this.fail();
      const elts = [first];
      while (this.isOp(',')) {
        this.next();
        if (this.isOp(')')) break;
        elts.push(
          this.isOp('*') ? this.parseStarExpression() : this.parseNamedExpression({ inBrackets: true }),
        );
      }
      this.expectOp(')');
      return { type: 'Tuple', elts, ...this.pos(t) };
    } finally {
      this.leave();
    }
  }

  private parseYield(): Expr {
    const t = this.next();
    if (this.isKw('from')) {
      this.next();
      const v = this.parseExpression();
      return { type: 'Yield', value: v, ...this.pos(t) };
    }
    const value = this.atExprEnd() || this.isOp('=') ? null : this.parseStarExpressions();
    return { type: 'Yield', value, ...this.pos(t) };
  }

  private parseListDisplay(): Expr {
    this.enter();
    try {
      const t = this.next();
      if (this.isOp(']')) {
        this.next();
        return { type: 'List', elts: [], ...this.pos(t) };
      }
      const first = this.isOp('*')
        ? this.parseStarExpression()
        : this.parseNamedExpression({ inBrackets: true });
      if (this.isKw('for') || (this.isKw('async') && this.isKw('for', 1))) {
        const c = this.parseComprehensionTail('ListComp', first, null, t);
        this.expectOp(']');
        return c;
      }
      const elts = [first];
      while (this.isOp(',')) {
        this.next();
        if (this.isOp(']')) break;
        elts.push(
          this.isOp('*') ? this.parseStarExpression() : this.parseNamedExpression({ inBrackets: true }),
        );
      }
      this.expectOp(']');
      return { type: 'List', elts, ...this.pos(t) };
    } finally {
      this.leave();
    }
  }

  private parseBraceDisplay(): Expr {
    this.enter();
    try {
      const t = this.next();
      if (this.isOp('}')) {
        this.next();
        return { type: 'Dict', keys: [], values: [], ...this.pos(t) };
      }
      if (this.isOp('**')) return this.parseDictRest(t, null);
      const first = this.isOp('*')
        ? this.parseStarExpression()
        : this.parseNamedExpression({ inBrackets: true });
      if (this.isOp(':') && first.type !== 'Starred') return this.parseDictRest(t, first);
      if (this.isKw('for')) {
        const c = this.parseComprehensionTail('SetComp', first, null, t);
        this.expectOp('}');
        return c;
      }
      const elts = [first];
      while (this.isOp(',')) {
        this.next();
        if (this.isOp('}')) break;
        elts.push(
          this.isOp('*') ? this.parseStarExpression() : this.parseNamedExpression({ inBrackets: true }),
        );
      }
      this.expectOp('}');
      return { type: 'Set', elts, ...this.pos(t) };
    } finally {
      this.leave();
    }
  }

  private parseDictRest(t: Token, firstKey: Expr | null): Expr {
    const keys: (Expr | null)[] = [];
    const values: Expr[] = [];
    const readValue = (key: Expr | null) => {
      if (key === null) {
        values.push(this.parseBitOr());
        keys.push(null);
        return;
      }
      if (!this.isOp(':')) this.fail("':' expected after dictionary key", this.peek());
      this.next();
      values.push(this.parseExpression({ inBrackets: true }));
      keys.push(key);
    };
    if (firstKey === null) {
      this.next();
      readValue(null);
    } else {
      readValue(firstKey);
      if (this.isKw('for')) {
        const c = this.parseComprehensionTail('DictComp', firstKey, values[0] as Expr, t);
        this.expectOp('}');
        return c;
      }
    }
    while (this.isOp(',')) {
      this.next();
      if (this.isOp('}')) break;
      if (this.isOp('**')) {
        this.next();
        readValue(null);
      } else {
        const k = this.parseExpression();
        if (!this.isOp(':')) this.failAt("':' expected after dictionary key", k);
        readValue(k);
      }
    }
    if (!this.isOp('}') && this.startsExpression()) {
      this.fail("':' expected after dictionary key");
    }
    this.expectOp('}');
    return { type: 'Dict', keys, values, ...this.pos(t) };
  }

  private parseComprehensionTail(
    kind: 'ListComp' | 'SetComp' | 'GeneratorExp' | 'DictComp',
    elt: Expr,
    value: Expr | null,
    t: Token,
  ): Expr {
    if (elt.type === 'Starred') {
      this.failAt(
        kind === 'DictComp'
          ? 'dict unpacking cannot be used in dict comprehension'
          : 'iterable unpacking cannot be used in comprehension',
        elt,
      );
    }
    const generators: Comprehension[] = [];
    const locals = new Set<string>();
    while (this.isKw('for') || (this.isKw('async') && this.isKw('for', 1))) {
      if (this.isKw('async')) this.next();
      this.next();
      const target = this.parseTargetList();
      collectTargetNames(target, locals);
      if (!this.isKw('in')) this.fail();
      this.next();
      const iter = this.parseDisjunction();
      const ifs: Expr[] = [];
      while (this.isKw('if')) {
        this.next();
        ifs.push(this.parseDisjunction());
      }
      generators.push({ target, iter, ifs });
    }
    const scope = { locals };
    if (kind === 'DictComp') {
      return { type: 'DictComp', key: elt, value: value as Expr, generators, scope, ...this.pos(t) };
    }
    return { type: kind, elt, generators, scope, ...this.pos(t) };
  }

  // ---------------------------------------------------------------------------------------------- strings

  private parseStrings(): Expr {
    const first = this.peek();
    const parts: FPart[] = [];
    let isF = false;
    let sawBytes = false;
    let sawStr = false;
    while (this.peek().kind === 'STRING') {
      const t = this.next();
      const m = /^([a-zA-Z]*)('''|"""|'|")/.exec(t.value) as RegExpExecArray;
      const prefix = (m[1] as string).toLowerCase();
      const quote = m[2] as string;
      const body = t.value.slice(m[0].length, t.value.length - quote.length);
      const raw = prefix.includes('r');
      if (prefix.includes('b')) sawBytes = true;
      else sawStr = true;
      if (sawBytes && sawStr) this.fail('cannot mix bytes and nonbytes literals', first);
      if (prefix.includes('f')) {
        isF = true;
        const bodyOffset = this.offsetBase + t.start + m[0].length;
        for (const part of this.parseFString(body, raw, bodyOffset, t)) parts.push(part);
      } else {
        parts.push(this.decode(body, raw, t));
      }
    }
    if (!isF) return { type: 'Const', value: parts.join(''), ...this.pos(first) };
    const merged: FPart[] = [];
    for (const part of parts) {
      const last = merged[merged.length - 1];
      if (typeof part === 'string' && typeof last === 'string') merged[merged.length - 1] = last + part;
      else if (part !== '') merged.push(part);
    }
    return { type: 'FString', parts: merged, ...this.pos(first) };
  }

  private decode(body: string, raw: boolean, t: Token): string {
    try {
      return decodeEscapes(body, raw);
    } catch (e) {
      if (e instanceof EscapeError) {
        this.fail(
          `(unicode error) 'unicodeescape' codec can't decode bytes in position ${e.position}-${e.endPosition}: ${e.reason}`,
          t,
        );
      }
      throw e;
    }
  }

  private parseFString(body: string, raw: boolean, bodyOffset: number, t: Token, nested = 0): FPart[] {
    const parts: FPart[] = [];
    let lit = '';
    let i = 0;
    const flush = () => {
      if (lit) parts.push(this.decode(lit, raw, t));
      lit = '';
    };
    while (i < body.length) {
      const c = body[i] as string;
      if (c === '{') {
        if (body[i + 1] === '{' && nested === 0) {
          lit += '{';
          i += 2;
          continue;
        }
        flush();
        const r = this.parseFField(body, i + 1, raw, bodyOffset, t, nested);
        parts.push(...r.parts);
        i = r.next;
        continue;
      }
      if (c === '}') {
        if (body[i + 1] === '}' && nested === 0) {
          lit += '}';
          i += 2;
          continue;
        }
        this.fail("f-string: single '}' is not allowed", t);
      }
      if (c === '\\' && !raw && i + 1 < body.length) {
        lit += c + body[i + 1];
        i += 2;
        continue;
      }
      lit += c;
      i++;
    }
    flush();
    return parts;
  }

  private parseFField(
    body: string,
    start: number,
    raw: boolean,
    bodyOffset: number,
    t: Token,
    nested: number,
  ): { parts: FPart[]; next: number } {
    if (nested >= 2) this.fail('f-string: expressions nested too deeply', t);
    let i = start;
    let depth = 0;
    let quote: string | null = null;
    for (; i < body.length; i++) {
      const c = body[i] as string;
      if (quote) {
        if (body.startsWith(quote, i)) {
          i += quote.length - 1;
          quote = null;
        }
        continue;
      }
      if (c === '\\') this.fail('f-string expression part cannot include a backslash', t);
      if (c === '#') this.fail("f-string expression part cannot include '#'", t);
      if (c === "'" || c === '"') {
        quote = body.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
        i += quote.length - 1;
        continue;
      }
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') {
        if (depth === 0) {
          if (c === '}') break;
          this.fail(`f-string: unmatched '${c}'`, t);
        }
        depth--;
      } else if (depth === 0) {
        if (c === '!' && body[i + 1] !== '=') break;
        if (c === ':') break;
        if (c === '=' && body[i + 1] !== '=' && !'=!<>'.includes(body[i - 1] ?? '')) break;
      }
    }
    if (quote) this.fail('f-string: unterminated string', t);
    if (i >= body.length) this.fail("f-string: expecting '}'", t);
    const exprText = body.slice(start, i);
    if (!exprText.trim()) this.fail('f-string: empty expression not allowed', t);
    const expr = this.parseSubExpression(exprText, bodyOffset + start, t);
    const out: FPart[] = [];
    let conversion: 's' | 'r' | 'a' | null = null;
    let debug = false;
    if (body[i] === '=') {
      debug = true;
      i++;
      let j = i;
      while (j < body.length && (body[j] === ' ' || body[j] === '\t')) j++;
      out.push(body.slice(start, j));
      i = j;
    }
    if (body[i] === '!') {
      const conv = body[i + 1];
      if (conv !== 's' && conv !== 'r' && conv !== 'a') {
        this.fail("f-string: invalid conversion character: expected 's', 'r', or 'a'", t);
      }
      conversion = conv;
      i += 2;
    }
    let spec: FPart[] | null = null;
    if (body[i] === ':') {
      i++;
      let j = i;
      let d = 0;
      for (; j < body.length; j++) {
        const c = body[j];
        if (c === '{') d++;
        else if (c === '}') {
          if (d === 0) break;
          d--;
        }
      }
      if (j >= body.length) this.fail("f-string: expecting '}'", t);
      spec = this.parseFString(body.slice(i, j), raw, bodyOffset + i, t, nested + 1);
      i = j;
    }
    if (body[i] !== '}') this.fail("f-string: expecting '}'", t);
    if (debug && conversion === null && spec === null) conversion = 'r';
    out.push({ expr, conversion, spec });
    return { parts: out, next: i + 1 };
  }

  private parseSubExpression(text: string, offset: number, t: Token): Expr {
    const wrapped = `(${text})`;
    const lexed = tokenize(wrapped);
    const fail = (e: PySyntaxError): never => {
      throw new PySyntaxError('SyntaxError', `f-string: ${e.msg}`, this.lineOf(t));
    };
    if (lexed.error) fail(lexed.error);
    // Map positions back into the enclosing source so lambdas keep their text.
    const lineOffset = this.lineOf(t) - 1;
    const sub = new Parser(wrapped, lexed.tokens, offset - 1, lineOffset, 1);
    try {
      const e = sub.parseStarExpressionsTop();
      return e;
    } catch (e) {
      if (e instanceof PySyntaxError) fail(e);
      throw e;
    }
  }

  parseStarExpressionsTop(): Expr {
    const e = this.parseStarExpressions();
    while (this.peek().kind === 'NEWLINE') this.next();
    if (this.peek().kind !== 'EOF') this.fail();
    return e;
  }
}

function describeTarget(e: Expr): string {
  switch (e.type) {
    case 'Const':
      if (e.value === null) return 'None';
      if (e.value === true) return 'True';
      if (e.value === false) return 'False';
      return 'literal';
    case 'Ellipsis':
      return 'ellipsis';
    case 'FString':
      return 'f-string expression';
    case 'Call':
      return 'function call';
    case 'Compare':
      return 'comparison';
    case 'Lambda':
      return 'lambda';
    case 'IfExp':
      return 'conditional expression';
    case 'Dict':
      return 'dict literal';
    case 'Set':
      return 'set display';
    case 'ListComp':
      return 'list comprehension';
    case 'SetComp':
      return 'set comprehension';
    case 'DictComp':
      return 'dict comprehension';
    case 'GeneratorExp':
      return 'generator expression';
    case 'Yield':
      return 'yield expression';
    case 'NamedExpr':
      return 'named expression';
    case 'Starred':
      return 'starred';
    default:
      return 'expression';
  }
}

function describeForAug(e: Expr): string {
  switch (e.type) {
    case 'Tuple':
      return 'tuple';
    case 'List':
      return 'list';
    default:
      return describeTarget(e);
  }
}

function collectTargetNames(e: Expr, out: Set<string>): void {
  switch (e.type) {
    case 'Name':
      out.add(e.id);
      return;
    case 'Tuple':
    case 'List':
      for (const x of e.elts) collectTargetNames(x, out);
      return;
    case 'Starred':
      collectTargetNames(e.value, out);
      return;
    default:
      return;
  }
}

/** Builds a FunctionInfo with CPython's static scope rules: any name bound in the body is local. */
function makeFunctionInfo(
  name: string,
  params: Params,
  body: Stmt[],
  isLambda: boolean,
  source: string,
): FunctionInfo {
  const bound = new Set<string>();
  const globals = new Set<string>();
  const nonlocals = new Set<string>();
  const flags = { generator: false };
  for (const a of params.args) bound.add(a.name);
  for (const a of params.kwonly) bound.add(a.name);
  if (params.vararg) bound.add(params.vararg);
  if (params.kwarg) bound.add(params.kwarg);
  for (const s of body) scanStmt(s, bound, globals, nonlocals, flags);
  for (const g of globals) bound.delete(g);
  for (const g of nonlocals) bound.delete(g);
  return {
    name,
    params,
    body,
    isLambda,
    locals: bound,
    globals,
    nonlocals,
    isGenerator: flags.generator,
    source,
  };
}

function scanStmt(
  s: Stmt,
  bound: Set<string>,
  globals: Set<string>,
  nonlocals: Set<string>,
  flags: { generator: boolean },
): void {
  const ex = (e: Expr | null) => {
    if (e) scanExpr(e, bound, flags);
  };
  const block = (b: readonly Stmt[]) => {
    for (const x of b) scanStmt(x, bound, globals, nonlocals, flags);
  };
  switch (s.type) {
    case 'Expr':
      ex(s.value);
      return;
    case 'Assign':
      for (const t of s.targets) {
        collectTargetNames(t, bound);
        ex(t);
      }
      ex(s.value);
      return;
    case 'AugAssign':
    case 'AnnAssign':
      collectTargetNames(s.target, bound);
      ex(s.target);
      ex(s.value);
      return;
    case 'If':
    case 'While':
      ex(s.test);
      block(s.body);
      block(s.orelse);
      return;
    case 'For':
      collectTargetNames(s.target, bound);
      ex(s.target);
      ex(s.iter);
      block(s.body);
      block(s.orelse);
      return;
    case 'FunctionDef':
      bound.add(s.fn.name);
      for (const d of s.decorators) ex(d);
      for (const p of [...s.fn.params.args, ...s.fn.params.kwonly]) ex(p.default);
      return;
    case 'Return':
      ex(s.value);
      return;
    case 'Global':
      for (const n of s.names) globals.add(n);
      return;
    case 'Nonlocal':
      for (const n of s.names) nonlocals.add(n);
      return;
    case 'Import':
      for (const a of s.names) bound.add(a.asname ?? (a.name.split('.')[0] as string));
      return;
    case 'ImportFrom':
      if (s.names !== '*') for (const a of s.names) bound.add(a.asname ?? a.name);
      return;
    case 'Try':
      block(s.body);
      for (const h of s.handlers) {
        ex(h.type);
        if (h.name) bound.add(h.name);
        block(h.body);
      }
      block(s.orelse);
      block(s.finalbody);
      return;
    case 'Raise':
      ex(s.exc);
      ex(s.cause);
      return;
    case 'Assert':
      ex(s.test);
      ex(s.msg);
      return;
    case 'Delete':
      for (const t of s.targets) {
        collectTargetNames(t, bound);
        ex(t);
      }
      return;
    default:
      return;
  }
}

/** Finds walrus targets (bound in the enclosing function, even inside comprehensions) and `yield`. */
function scanExpr(e: Expr, bound: Set<string>, flags: { generator: boolean }): void {
  const stack: Expr[] = [e];
  while (stack.length) {
    const x = stack.pop() as Expr;
    switch (x.type) {
      case 'NamedExpr':
        bound.add(x.target);
        stack.push(x.value);
        break;
      case 'Yield':
        flags.generator = true;
        if (x.value) stack.push(x.value);
        break;
      case 'Lambda':
        for (const p of [...x.fn.params.args, ...x.fn.params.kwonly]) if (p.default) stack.push(p.default);
        break;
      case 'BinOp':
        stack.push(x.left, x.right);
        break;
      case 'UnaryOp':
        stack.push(x.operand);
        break;
      case 'BoolOp':
        stack.push(...x.values);
        break;
      case 'Compare':
        stack.push(x.left, ...x.comparators);
        break;
      case 'Call':
        stack.push(x.func, ...x.args, ...x.keywords.map((k) => k.value));
        break;
      case 'Attribute':
        stack.push(x.value);
        break;
      case 'Subscript':
        stack.push(x.value, x.index);
        break;
      case 'Slice':
        for (const y of [x.lower, x.upper, x.step]) if (y) stack.push(y);
        break;
      case 'Tuple':
      case 'List':
      case 'Set':
        stack.push(...x.elts);
        break;
      case 'Dict':
        for (const k of x.keys) if (k) stack.push(k);
        stack.push(...x.values);
        break;
      case 'Starred':
        stack.push(x.value);
        break;
      case 'IfExp':
        stack.push(x.test, x.body, x.orelse);
        break;
      case 'ListComp':
      case 'SetComp':
      case 'GeneratorExp':
        stack.push(x.elt);
        for (const g of x.generators) stack.push(g.iter, ...g.ifs);
        break;
      case 'DictComp':
        stack.push(x.key, x.value);
        for (const g of x.generators) stack.push(g.iter, ...g.ifs);
        break;
      case 'FString':
        for (const p of x.parts) {
          if (typeof p !== 'string') {
            stack.push(p.expr);
            if (p.spec) for (const q of p.spec) if (typeof q !== 'string') stack.push(q.expr);
          }
        }
        break;
      default:
        break;
    }
  }
}
