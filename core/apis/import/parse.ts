/**
 * Document text → JSON value, for `importApi`: JSON or YAML (OpenAPI documents come in both), with syntax errors
 * reported by line and column, and — after the fact — the line of a value a JSON pointer names, so a schema
 * violation can say where it is in the text the user sent.
 *
 * JSON is parsed with `JSON.parse` (fast, strict); only when it fails is the text scanned again with
 * `jsonc-parser` (VS Code's JSON scanner, strict mode: no comments, no trailing commas), which reports the offset
 * of the first syntax error — V8's own messages often give none (`Unexpected token '}', "…" is not valid JSON`).
 * YAML is parsed with `yaml` (YAML 1.2, whose errors carry line and column).
 */
import {
  findNodeAtLocation,
  type ParseError,
  parseTree,
  printParseErrorCode,
  parse as scanJson,
} from 'jsonc-parser';
import { LineCounter, parseDocument } from 'yaml';
import type { ImportProblem } from './result.ts';

export type DocumentSyntax = 'json' | 'yaml';

export type ParsedText =
  | { ok: true; value: unknown; syntax: DocumentSyntax }
  | { ok: false; problem: ImportProblem; syntax: DocumentSyntax };

/** Which syntax the text is in: the file name or media type when they say, else JSON when it opens like JSON. */
export function documentSyntax(text: string, filename?: string, contentType?: string): DocumentSyntax {
  const name = filename?.toLowerCase() ?? '';
  const type = contentType?.toLowerCase() ?? '';
  if (/\.ya?ml$/.test(name) || /yaml/.test(type)) return 'yaml';
  if (name.endsWith('.json') || /json/.test(type)) return 'json';
  return /^\s*[{[]/.test(text) ? 'json' : 'yaml';
}

export function parseDocumentText(text: string, syntax: DocumentSyntax): ParsedText {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // a byte-order mark is not content
  if (body.trim() === '')
    return { ok: false, syntax, problem: { pointer: '', reason: 'the document is empty' } };
  return syntax === 'json' ? parseJson(body) : parseYaml(body);
}

function parseJson(text: string): ParsedText {
  try {
    return { ok: true, value: JSON.parse(text), syntax: 'json' };
  } catch (err) {
    const errors: ParseError[] = [];
    scanJson(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    if (!first)
      return { ok: false, syntax: 'json', problem: { pointer: '', reason: `invalid JSON: ${message(err)}` } };
    const { line, column } = lineColumn(text, first.offset);
    return {
      ok: false,
      syntax: 'json',
      problem: {
        pointer: '',
        reason: `invalid JSON at line ${line}, column ${column}: ${describeJsonError(printParseErrorCode(first.error))}`,
      },
    };
  }
}

function parseYaml(text: string): ParsedText {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    const pos = lineCounter.linePos(first.pos[0]);
    const what = first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return {
      ok: false,
      syntax: 'yaml',
      problem: { pointer: '', reason: `invalid YAML at line ${pos.line}, column ${pos.col}: ${what}` },
    };
  }
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: 1000 }), syntax: 'yaml' };
  } catch (err) {
    return { ok: false, syntax: 'yaml', problem: { pointer: '', reason: `invalid YAML: ${message(err)}` } };
  }
}

/**
 * The 1-based line of the value at `pointer` in the document text, when it can be found (used to say where a
 * schema violation is; only called on the error path, so the second parse costs nothing on success).
 */
export function lineOfPointer(text: string, syntax: DocumentSyntax, pointer: string): number | null {
  const path = pointerTokens(pointer);
  if (path === null) return null;
  try {
    if (syntax === 'json') {
      const root = parseTree(text);
      if (!root) return null;
      const node = findNodeAtLocation(
        root,
        path.map((t) => (/^\d+$/.test(t) ? Number(t) : t)),
      );
      return node
        ? lineColumn(text, node.parent?.type === 'property' ? node.parent.offset : node.offset).line
        : null;
    }
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { lineCounter });
    const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
    if (!node?.range) return null;
    return lineCounter.linePos(node.range[0]).line;
  } catch {
    return null;
  }
}

function pointerTokens(pointer: string): string[] | null {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return null;
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const JSON_ERRORS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'malformed number',
  PropertyNameExpected: 'a property name (in double quotes) was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: "':' was expected",
  CommaExpected: "',' was expected",
  CloseBraceExpected: "'}' was expected",
  CloseBracketExpected: "']' was expected",
  EndOfFileExpected: 'unexpected content after the end of the document',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'malformed number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in string',
};

function describeJsonError(code: string): string {
  return JSON_ERRORS[code] ?? code;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
