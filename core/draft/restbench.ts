/**
 * DRAFT's RestBench files (issue 23 §5, the paper's Table 3 on RestBench-TMDB): the authors' tool instruction files
 * — `TMDB_Initial.json` (the 54 operations as documented) and `TMDB_DRAFT.json` (as DRAFT rewrote them, each with a
 * usage example) — and their test file `TMDB.json` (100 queries with their `relevant APIs`), read and validated;
 * then the two retrieval pools of Table 3: the same 54 tools under the same names, documented once raw and once by
 * DRAFT, with every query's relevant APIs as its gold (binary relevance). Rankers and NDCG live in
 * `core/retrieval/` (IDCG over min(k, |gold|), so NDCG@1 is top-1 accuracy).
 *
 * What a ranker reads of a tool is its name and its description (the files' `description`; a documentation set of
 * tooldrift's own DRAFT gives its refined line instead). The usage examples of `TMDB_DRAFT.json` are not part of
 * the description and are left out: the paper's retrievers index descriptions.
 */
import { z } from 'zod';
import type { QueryExample, Tool } from '../retrieval/types.ts';
import type { DocSet } from './docset.ts';

const Param = z.looseObject({ name: z.string() });

const ToolInstruction = z.looseObject({
  ID: z.number().int().nonnegative(),
  tool_name: z.string().min(1),
  description: z.string(),
  url: z.string().optional(),
  required_parameters: z.array(Param).optional(),
  optional_parameters: z.array(Param).optional(),
  example: z.unknown().optional(),
});

const ToolInstructionFile = z.record(z.string(), ToolInstruction);

const TestItem = z.looseObject({
  query: z.string().min(1),
  'relevant APIs': z.array(z.string().min(1)).min(1),
  query_id: z.string().optional(),
});

export interface RestBenchTool {
  id: number;
  name: string;
  description: string;
  url?: string;
}

export class RestBenchFileError extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(`${pointer || '/'}: ${message}`);
    this.name = 'RestBenchFileError';
  }
}

function firstIssue(error: z.ZodError, prefix = ''): RestBenchFileError {
  const issue = error.issues[0];
  const pointer = `${prefix}/${(issue?.path ?? []).map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
  return new RestBenchFileError(pointer.replace(/\/$/, ''), issue?.message ?? 'invalid');
}

/** A DRAFT tool instruction file (`{"0": {ID, tool_name, description, …}, …}`), in ID order. */
export function parseToolInstructions(value: unknown): RestBenchTool[] {
  const r = ToolInstructionFile.safeParse(value);
  if (!r.success) throw firstIssue(r.error);
  const tools = Object.values(r.data)
    .map((t) => ({
      id: t.ID,
      name: t.tool_name.trim(),
      description: t.description.trim(),
      ...(t.url ? { url: t.url } : {}),
    }))
    .sort((a, b) => a.id - b.id);
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) throw new RestBenchFileError(`/${t.id}/tool_name`, `duplicate tool ${t.name}`);
    seen.add(t.name);
  }
  return tools;
}

/** DRAFT's test file as retrieval queries: each query with its relevant APIs (trimmed) as gold. */
export function restBenchQueries(value: unknown): QueryExample[] {
  const r = z.array(TestItem).safeParse(value);
  if (!r.success) throw firstIssue(r.error);
  return r.data.map((item) => ({
    query: item.query.trim(),
    tools: item['relevant APIs'].map((a) => a.trim()),
  }));
}

/** The retrieval pool of a documentation (name and description per tool). */
export function retrievalPool(tools: readonly RestBenchTool[]): Tool[] {
  return tools.map((t) => ({ name: t.name, description: t.description }));
}

/**
 * The raw tools documented by a tooldrift DRAFT set of the same API: each tool whose operation the set documents
 * gets the set's description (the route kept out, as the files' descriptions have none); the others keep theirs.
 * `operationOf` maps a file's tool name (`GET_movie_movie_id_keywords`) to the operation it documents.
 */
export function documentedBy(
  tools: readonly RestBenchTool[],
  set: DocSet,
  operationOf: (toolName: string) => string | undefined,
): RestBenchTool[] {
  const byOperation = new Map(set.tools.filter((t) => t.operation).map((t) => [t.operation as string, t]));
  return tools.map((t) => {
    const op = operationOf(t.name);
    const entry = op ? byOperation.get(op) : undefined;
    return entry && entry.stop !== 'not-explored' ? { ...t, description: entry.doc.description } : t;
  });
}

/**
 * The descriptions of a tool instruction file by base operation of an imported API (the documentation aid's
 * "uploaded description file"): a file tool (`GET_movie_movie_id_keywords`, url `…/3/movie/{movie_id}/keywords`)
 * documents the operation whose method is its name's prefix and whose path ends its url. File tools that match no
 * operation are returned apart.
 */
export function descriptionsByOperation(
  tools: readonly RestBenchTool[],
  operations: readonly { name: string; method?: string; path?: string }[],
): { descriptions: Record<string, string>; unmatched: string[] } {
  const descriptions: Record<string, string> = {};
  const unmatched: string[] = [];
  for (const t of tools) {
    const method = /^(GET|POST|PUT|PATCH|DELETE)_/i.exec(t.name)?.[1]?.toLowerCase();
    const op = operations.find(
      (o) => o.method === method && o.path !== undefined && t.url?.endsWith(o.path) === true,
    );
    if (op) descriptions[op.name] = t.description;
    else unmatched.push(t.name);
  }
  return { descriptions, unmatched };
}
