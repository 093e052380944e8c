/**
 * JSON Lines input for tool pools and query sets (the `tooldrift retrieve bench` file contract and
 * `POST /v1/toolsets` uploads): one JSON object per line, blank lines ignored, every problem reported with its
 * 1-based line number.
 */
import { z } from 'zod';
import { type QueryExample, QueryExampleSchema, type Tool, ToolSchema } from './types.ts';

export class JsonlError extends Error {
  constructor(
    /** 1-based line number. */
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'JsonlError';
  }
}

function issueText(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/** Parses and validates every line; throws the first `JsonlError`. `maxLines` bounds the work. */
export function parseJsonl<T>(text: string, schema: z.ZodType<T>, maxLines = Number.POSITIVE_INFINITY): T[] {
  const out: T[] = [];
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    if (out.length >= maxLines) throw new JsonlError(i + 1, `more than ${maxLines} records`);
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new JsonlError(i + 1, `not valid JSON (${(err as Error).message})`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new JsonlError(i + 1, issueText(parsed.error));
    out.push(parsed.data);
  }
  return out;
}

/** Tools, with names unique within the pool. */
export function parseToolsJsonl(text: string, maxLines?: number): Tool[] {
  const tools = parseJsonl(text, ToolSchema, maxLines);
  const seen = new Map<string, number>();
  let record = 0;
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    if (raw.trim() === '') continue;
    const name = (tools[record++] as Tool).name;
    const first = seen.get(name);
    if (first !== undefined)
      throw new JsonlError(i + 1, `duplicate tool name ${JSON.stringify(name)} (first on line ${first})`);
    seen.set(name, i + 1);
  }
  return tools;
}

/** Queries whose gold tools must all be in `tools` (by name). */
export function parseQueriesJsonl(text: string, tools: readonly Tool[], maxLines?: number): QueryExample[] {
  return withToolsInPool(text, parseJsonl(text, QueryExampleSchema, maxLines), tools);
}

/** A query line left out because it names a tool the pool does not hold. */
export interface SkippedLine {
  /** 1-based line number. */
  line: number;
  tool: string;
}

/**
 * Queries like `parseQueriesJsonl`, except that a line naming a gold tool the pool does not hold (upstream query
 * files have such slips) is left out and reported instead of rejecting the file. Malformed lines still throw.
 */
export function parseQueriesSkippingUnknown(
  text: string,
  tools: readonly Tool[],
  maxLines?: number,
): { queries: QueryExample[]; skipped: SkippedLine[] } {
  const queries: QueryExample[] = [];
  const skipped: SkippedLine[] = [];
  forEachUnknownTool(text, parseJsonl(text, QueryExampleSchema, maxLines), tools, (q, line, missing) => {
    if (missing === undefined) queries.push(q);
    else skipped.push({ line, tool: missing });
  });
  return { queries, skipped };
}

/**
 * `records` (parsed from `text`, one per non-blank line), or a JsonlError at the first line that names a tool not
 * in `tools`.
 */
function withToolsInPool(text: string, records: QueryExample[], tools: readonly Tool[]): QueryExample[] {
  forEachUnknownTool(text, records, tools, (_, line, missing) => {
    if (missing !== undefined)
      throw new JsonlError(line, `tool ${JSON.stringify(missing)} is not in the tool pool`);
  });
  return records;
}

/** Calls `visit` with each record, its 1-based line and the first tool it names that `tools` lacks (if any). */
function forEachUnknownTool(
  text: string,
  records: readonly QueryExample[],
  tools: readonly Tool[],
  visit: (q: QueryExample, line: number, missing: string | undefined) => void,
): void {
  const names = new Set(tools.map((t) => t.name));
  let record = 0;
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    if (raw.trim() === '') continue;
    const q = records[record++] as QueryExample;
    visit(
      q,
      i + 1,
      q.tools.find((name) => !names.has(name)),
    );
  }
}

/**
 * Training lines for `POST /v1/toolsets/{id}/train`: `{"query", "tools"}` like query files, except that `tools` may
 * be empty — a text that needs no tool (a negative example for the Tool Judge). Named tools must be in `tools`.
 */
export const TrainingLineSchema = z
  .object({
    query: z.string().trim().min(1).max(4000),
    tools: z.array(z.string().min(1)).max(50),
  })
  .strict();

export function parseTrainingJsonl(text: string, tools: readonly Tool[], maxLines?: number): QueryExample[] {
  return withToolsInPool(text, parseJsonl(text, TrainingLineSchema, maxLines), tools);
}
