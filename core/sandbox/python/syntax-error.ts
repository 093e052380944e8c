/** A compile-time error found by the tokenizer or parser, rendered like CPython's `str(SyntaxError)`. */
export class PySyntaxError extends Error {
  constructor(
    /** Python class name: SyntaxError, IndentationError or TabError. */
    readonly kind: 'SyntaxError' | 'IndentationError' | 'TabError',
    readonly msg: string,
    /** 1-based line, or null for errors CPython reports without a location (null bytes). */
    readonly line: number | null,
    readonly filename = '<unknown>',
  ) {
    super(msg);
  }

  /** `str(e)`: `msg (<unknown>, line N)`. */
  get pyMessage(): string {
    return this.line === null ? this.msg : `${this.msg} (${this.filename}, line ${this.line})`;
  }
}

/** CPython's parser gives up on very deeply nested expressions with a RecursionError (not a SyntaxError). */
export class AstTooDeep extends Error {
  constructor() {
    super('maximum recursion depth exceeded during ast construction');
  }
}
