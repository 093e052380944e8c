/**
 * The checks CPython's compiler (not its parser) makes: `return`/`yield` outside a function, `break`/`continue`
 * outside a loop, `nonlocal` at module level or without a binding. The original tool compiles each chunk it runs
 * with `exec(ast.unparse(chunk))`, so these surface as `SyntaxError: ... (<string>, line N)` when that chunk is
 * about to run, with N counted in the unparsed chunk (one line per simple statement, a blank line before each
 * `def` that is not the first thing in the chunk).
 */

import type { Expr, FunctionInfo, Stmt } from './ast.ts';
import { PySyntaxError } from './syntax-error.ts';

interface Ctx {
  inFunction: boolean;
  inLoop: boolean;
  /** Names bound in enclosing function scopes (for nonlocal resolution). */
  enclosing: ReadonlySet<string>[];
}

/** Returns the compile error CPython would raise for this chunk, or null. */
export function compileCheck(chunk: readonly Stmt[]): PySyntaxError | null {
  const lines = unparseLines(chunk);
  let found: { msg: string; node: Stmt | Expr } | null = null;
  const report = (msg: string, node: Stmt | Expr) => {
    if (!found) found = { msg, node };
  };
  // Symbol-table errors come first in CPython (a separate pass), then code-generation errors.
  symtableCheck(chunk, null, report);
  if (!found) walkStmts(chunk, { inFunction: false, inLoop: false, enclosing: [] }, report);
  if (!found) repeatedKeywords(chunk, report);
  if (!found) return null;
  const { msg, node } = found as { msg: string; node: Stmt | Expr };
  return new PySyntaxError('SyntaxError', msg, lines.get(node) ?? 1, '<string>');
}

function symtableCheck(
  stmts: readonly Stmt[],
  fn: { info: FunctionInfo; outer: ReadonlySet<string>[] } | null,
  report: (msg: string, node: Stmt) => void,
): void {
  for (const s of stmts) {
    if (s.type === 'Nonlocal') {
      if (!fn) report('nonlocal declaration not allowed at module level', s);
      else {
        for (const n of s.names) {
          if (!fn.outer.some((names) => names.has(n))) report(`no binding for nonlocal '${n}' found`, s);
        }
      }
    }
    if (s.type === 'FunctionDef') {
      const outer = fn ? [...fn.outer, fn.info.locals] : [];
      symtableCheck(s.fn.body, { info: s.fn, outer }, report);
    }
    for (const b of childBlocks(s)) symtableCheck(b, fn, report);
  }
}

function childBlocks(s: Stmt): (readonly Stmt[])[] {
  switch (s.type) {
    case 'If':
    case 'While':
    case 'For':
      return [s.body, s.orelse];
    case 'Try':
      return [s.body, ...s.handlers.map((h) => h.body), s.orelse, s.finalbody];
    default:
      return [];
  }
}

function walkStmts(stmts: readonly Stmt[], ctx: Ctx, report: (msg: string, node: Stmt | Expr) => void): void {
  for (const s of stmts) {
    switch (s.type) {
      case 'Return':
        if (!ctx.inFunction) report("'return' outside function", s);
        break;
      case 'Break':
        if (!ctx.inLoop) report("'break' outside loop", s);
        break;
      case 'Continue':
        if (!ctx.inLoop) report("'continue' not properly in loop", s);
        break;
      case 'Expr':
        if (!ctx.inFunction && containsYield(s.value)) report("'yield' outside function", s);
        break;
      case 'Assign':
        if (!ctx.inFunction && containsYield(s.value)) report("'yield' outside function", s);
        break;
      case 'FunctionDef':
        walkStmts(s.fn.body, { inFunction: true, inLoop: false, enclosing: ctx.enclosing }, report);
        break;
      case 'For':
      case 'While':
        walkStmts(s.body, { ...ctx, inLoop: true }, report);
        walkStmts(s.orelse, ctx, report);
        break;
      case 'If':
        walkStmts(s.body, ctx, report);
        walkStmts(s.orelse, ctx, report);
        break;
      case 'Try':
        walkStmts(s.body, ctx, report);
        for (const h of s.handlers) walkStmts(h.body, ctx, report);
        walkStmts(s.orelse, ctx, report);
        walkStmts(s.finalbody, ctx, report);
        break;
      default:
        break;
    }
  }
}

function containsYield(e: Expr): boolean {
  return e.type === 'Yield';
}

/** Line of each statement in `ast.unparse(chunk)`. */
function unparseLines(chunk: readonly Stmt[]): Map<Stmt | Expr, number> {
  const lines = new Map<Stmt | Expr, number>();
  let line = 1;
  let first = true;
  const emit = (stmts: readonly Stmt[]) => {
    for (const s of stmts) {
      if (s.type === 'FunctionDef') {
        if (!first) line++;
        line += s.decorators.length;
      }
      first = false;
      lines.set(s, line);
      line++;
      switch (s.type) {
        case 'FunctionDef':
          emit(s.fn.body);
          break;
        case 'If': {
          emit(s.body);
          let orelse = s.orelse;
          while (orelse.length === 1 && orelse[0]?.type === 'If') {
            const elif = orelse[0];
            lines.set(elif, line);
            line++;
            emit(elif.body);
            orelse = elif.orelse;
          }
          if (orelse.length) {
            line++;
            emit(orelse);
          }
          break;
        }
        case 'For':
        case 'While':
          emit(s.body);
          if (s.orelse.length) {
            line++;
            emit(s.orelse);
          }
          break;
        case 'Try':
          emit(s.body);
          for (const h of s.handlers) {
            line++;
            emit(h.body);
          }
          if (s.orelse.length) {
            line++;
            emit(s.orelse);
          }
          if (s.finalbody.length) {
            line++;
            emit(s.finalbody);
          }
          break;
        default:
          break;
      }
    }
  };
  emit(chunk);
  return lines;
}

/** `f(a=1, a=2)`: "keyword argument repeated: a" (reported by CPython's compiler, not its parser). */
function repeatedKeywords(stmts: readonly Stmt[], report: (msg: string, node: Stmt | Expr) => void): void {
  const visit = (s: Stmt) => {
    for (const e of topExprs(s)) {
      const stack: Expr[] = [e];
      while (stack.length) {
        const x = stack.pop() as Expr;
        if (x.type === 'Call') {
          const seen = new Set<string>();
          for (const k of x.keywords) {
            if (k.name === null) continue;
            if (seen.has(k.name)) report(`keyword argument repeated: ${k.name}`, s);
            seen.add(k.name);
          }
          stack.push(x.func, ...x.args, ...x.keywords.map((k) => k.value));
        } else {
          stack.push(...subExprs(x));
        }
      }
    }
    for (const b of childBlocks(s)) b.forEach(visit);
    if (s.type === 'FunctionDef') s.fn.body.forEach(visit);
  };
  stmts.forEach(visit);
}

function topExprs(s: Stmt): Expr[] {
  switch (s.type) {
    case 'Expr':
      return [s.value];
    case 'Assign':
      return [...s.targets, s.value];
    case 'AugAssign':
      return [s.target, s.value];
    case 'AnnAssign':
      return s.value ? [s.value] : [];
    case 'If':
    case 'While':
      return [s.test];
    case 'For':
      return [s.iter];
    case 'Return':
      return s.value ? [s.value] : [];
    case 'Raise':
      return s.exc ? [s.exc] : [];
    case 'Assert':
      return [s.test];
    default:
      return [];
  }
}

function subExprs(e: Expr): Expr[] {
  switch (e.type) {
    case 'BinOp':
      return [e.left, e.right];
    case 'UnaryOp':
      return [e.operand];
    case 'BoolOp':
      return [...e.values];
    case 'Compare':
      return [e.left, ...e.comparators];
    case 'Attribute':
    case 'Starred':
      return [e.value];
    case 'Subscript':
      return [e.value, e.index];
    case 'IfExp':
      return [e.test, e.body, e.orelse];
    case 'Tuple':
    case 'List':
    case 'Set':
      return [...e.elts];
    case 'Dict':
      return [...e.keys.filter((k): k is Expr => k !== null), ...e.values];
    case 'ListComp':
    case 'SetComp':
    case 'GeneratorExp':
      return [e.elt, ...e.generators.flatMap((g) => [g.iter, ...g.ifs])];
    case 'DictComp':
      return [e.key, e.value, ...e.generators.flatMap((g) => [g.iter, ...g.ifs])];
    case 'NamedExpr':
      return [e.value];
    case 'FString':
      return e.parts.flatMap((p) => (typeof p === 'string' ? [] : [p.expr]));
    default:
      return [];
  }
}
