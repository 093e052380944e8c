/** Syntax tree of the Python subset the sandbox runs (shapes follow CPython's `ast` module, trimmed). */

export interface Pos {
  readonly line: number;
  readonly col: number;
  /** Source offsets [start, end) of the node's text. */
  readonly start: number;
  readonly end: number;
}

export type Expr =
  | ({ readonly type: 'Name'; readonly id: string } & Pos)
  | ({ readonly type: 'Const'; readonly value: null | boolean | bigint | number | string } & Pos)
  | ({ readonly type: 'Ellipsis' } & Pos)
  | ({ readonly type: 'FString'; readonly parts: readonly FPart[] } & Pos)
  | ({ readonly type: 'BinOp'; readonly op: BinOpName; readonly left: Expr; readonly right: Expr } & Pos)
  | ({ readonly type: 'UnaryOp'; readonly op: '-' | '+' | '~' | 'not'; readonly operand: Expr } & Pos)
  | ({ readonly type: 'BoolOp'; readonly op: 'and' | 'or'; readonly values: readonly Expr[] } & Pos)
  | ({
      readonly type: 'Compare';
      readonly left: Expr;
      readonly ops: readonly CmpOp[];
      readonly comparators: readonly Expr[];
    } & Pos)
  | ({
      readonly type: 'Call';
      readonly func: Expr;
      readonly args: readonly Expr[];
      readonly keywords: readonly Keyword[];
    } & Pos)
  | ({ readonly type: 'Attribute'; readonly value: Expr; readonly attr: string } & Pos)
  | ({ readonly type: 'Subscript'; readonly value: Expr; readonly index: Expr } & Pos)
  | ({
      readonly type: 'Slice';
      readonly lower: Expr | null;
      readonly upper: Expr | null;
      readonly step: Expr | null;
    } & Pos)
  | ({ readonly type: 'Tuple'; readonly elts: readonly Expr[] } & Pos)
  | ({ readonly type: 'List'; readonly elts: readonly Expr[] } & Pos)
  | ({ readonly type: 'Set'; readonly elts: readonly Expr[] } & Pos)
  | ({
      readonly type: 'Dict';
      readonly keys: readonly (Expr | null)[];
      readonly values: readonly Expr[];
    } & Pos)
  | ({ readonly type: 'Starred'; readonly value: Expr } & Pos)
  | ({ readonly type: 'IfExp'; readonly test: Expr; readonly body: Expr; readonly orelse: Expr } & Pos)
  | ({ readonly type: 'Lambda'; readonly fn: FunctionInfo } & Pos)
  | ({
      readonly type: 'ListComp' | 'SetComp' | 'GeneratorExp';
      readonly elt: Expr;
      readonly generators: readonly Comprehension[];
      readonly scope: ComprehensionScope;
    } & Pos)
  | ({
      readonly type: 'DictComp';
      readonly key: Expr;
      readonly value: Expr;
      readonly generators: readonly Comprehension[];
      readonly scope: ComprehensionScope;
    } & Pos)
  | ({ readonly type: 'NamedExpr'; readonly target: string; readonly value: Expr } & Pos)
  | ({ readonly type: 'Yield'; readonly value: Expr | null } & Pos)
  /** Syntax CPython accepts but the sandbox does not evaluate (complex literals, await, ...). */
  | ({ readonly type: 'UnsupportedExpr'; readonly feature: string } & Pos);

export type BinOpName = '+' | '-' | '*' | '/' | '//' | '%' | '**' | '@' | '<<' | '>>' | '&' | '|' | '^';
export type CmpOp = '<' | '>' | '==' | '!=' | '<=' | '>=' | 'in' | 'not in' | 'is' | 'is not';

export type FPart =
  | string
  | {
      readonly expr: Expr;
      readonly conversion: 's' | 'r' | 'a' | null;
      /** Format spec (itself an f-string), or null. */
      readonly spec: readonly FPart[] | null;
    };

export interface Keyword {
  /** null for `**mapping`. */
  readonly name: string | null;
  readonly value: Expr;
}

export interface Comprehension {
  readonly target: Expr;
  readonly iter: Expr;
  readonly ifs: readonly Expr[];
}

export interface ComprehensionScope {
  /** Names bound by the `for` targets (local to the comprehension). */
  readonly locals: ReadonlySet<string>;
}

export interface Param {
  readonly name: string;
  readonly default: Expr | null;
}

export interface Params {
  readonly args: readonly Param[];
  readonly vararg: string | null;
  readonly kwonly: readonly Param[];
  readonly kwarg: string | null;
}

/** What a `def` or `lambda` needs at run time, including its static scope analysis. */
export interface FunctionInfo {
  readonly name: string;
  readonly params: Params;
  /** For lambdas, a single Return statement. */
  readonly body: readonly Stmt[];
  readonly isLambda: boolean;
  /** Names local to the function (assigned, params), excluding `global`/`nonlocal` ones. */
  readonly locals: ReadonlySet<string>;
  readonly globals: ReadonlySet<string>;
  readonly nonlocals: ReadonlySet<string>;
  readonly isGenerator: boolean;
  /** Source text of the `def` statement / `lambda` expression (used to store functions in snapshots). */
  readonly source: string;
}

export interface ExceptHandler {
  readonly type: Expr | null;
  readonly name: string | null;
  readonly body: readonly Stmt[];
  readonly line: number;
}

export interface Alias {
  readonly name: string;
  readonly asname: string | null;
}

export type Stmt =
  | ({ readonly type: 'Expr'; readonly value: Expr } & StmtPos)
  | ({ readonly type: 'Assign'; readonly targets: readonly Expr[]; readonly value: Expr } & StmtPos)
  | ({
      readonly type: 'AugAssign';
      readonly target: Expr;
      readonly op: BinOpName;
      readonly value: Expr;
    } & StmtPos)
  | ({ readonly type: 'AnnAssign'; readonly target: Expr; readonly value: Expr | null } & StmtPos)
  | ({
      readonly type: 'If';
      readonly test: Expr;
      readonly body: readonly Stmt[];
      readonly orelse: readonly Stmt[];
    } & StmtPos)
  | ({
      readonly type: 'For';
      readonly target: Expr;
      readonly iter: Expr;
      readonly body: readonly Stmt[];
      readonly orelse: readonly Stmt[];
    } & StmtPos)
  | ({
      readonly type: 'While';
      readonly test: Expr;
      readonly body: readonly Stmt[];
      readonly orelse: readonly Stmt[];
    } & StmtPos)
  | ({ readonly type: 'Break' | 'Continue' | 'Pass' } & StmtPos)
  | ({
      readonly type: 'FunctionDef';
      readonly fn: FunctionInfo;
      readonly decorators: readonly Expr[];
    } & StmtPos)
  | ({ readonly type: 'Return'; readonly value: Expr | null } & StmtPos)
  | ({ readonly type: 'Global' | 'Nonlocal'; readonly names: readonly string[] } & StmtPos)
  | ({ readonly type: 'Import'; readonly names: readonly Alias[] } & StmtPos)
  | ({
      readonly type: 'ImportFrom';
      readonly module: string;
      readonly names: readonly Alias[] | '*';
      readonly level: number;
    } & StmtPos)
  | ({
      readonly type: 'Try';
      readonly body: readonly Stmt[];
      readonly handlers: readonly ExceptHandler[];
      readonly orelse: readonly Stmt[];
      readonly finalbody: readonly Stmt[];
    } & StmtPos)
  | ({ readonly type: 'Raise'; readonly exc: Expr | null; readonly cause: Expr | null } & StmtPos)
  | ({ readonly type: 'Assert'; readonly test: Expr; readonly msg: Expr | null } & StmtPos)
  | ({ readonly type: 'Delete'; readonly targets: readonly Expr[] } & StmtPos)
  /** Syntax CPython accepts but the sandbox does not run (class, with, async, match). */
  | ({ readonly type: 'Unsupported'; readonly feature: string } & StmtPos);

export interface StmtPos extends Pos {
  readonly endLine: number;
}

export interface Module {
  readonly body: readonly Stmt[];
  readonly source: string;
}
