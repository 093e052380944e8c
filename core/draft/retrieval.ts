/**
 * Retrieval with raw vs DRAFT documentation (issue 16, ../shared/spec/draft.md "Reported figures": the paper's
 * Table 3 compares retrievers' NDCG@1/@10 when the tools are documented raw and when documented by DRAFT).
 *
 * Two pools are built for one drifted server surface. Both hold the same entries in the same order — the
 * documentation set's explored tools, then seeded distractors from the synthetic catalog
 * (core/retrieval/catalog.ts) — and differ only in the explored tools' descriptions:
 * - raw: the stale documentation line the agent had (the starting surface's, `pc` in the ToolQA-D setting);
 * - DRAFT: the documentation set's refined line (which names the tool as DRAFT found it on the server).
 * A tool's pool name is its name in the starting documentation (`DocEntry.key`), so the gold names are the same
 * in both pools and only what the rankers read about the tool changes.
 *
 * Queries are the tasks' questions. Gold (a documented choice): binary relevance over every distinct tool the
 * task's reference plan calls, Finish and the other control tools excluded (DRAFT does not explore them and
 * they are in every plan). A plan's kernel tool is resolved to the starting surface's tool that serves it
 * (`toolForKernel`), the tool the agent would call from its documentation.
 */
import type { QueryExample, Tool } from '../retrieval/types.ts';
import { toolArgumentsSchema } from '../surfaces/docs.ts';
import type { Surface } from '../surfaces/model.ts';
import { toolForKernel } from '../surfaces/translate.ts';
import type { Task } from '../world/tasks/types.ts';
import { type DocSet, explored, surfaceToolDoc, toolDocLine } from './docset.ts';

export interface DocRetrievalPools {
  /** The starting documentation's lines for the documented tools, then the distractors. */
  raw: Tool[];
  /** The same entries with the documentation set's refined lines. */
  draft: Tool[];
  queries: QueryExample[];
  /** Pool names of the documented tools (the first entries of both pools). */
  documented: string[];
}

export class DistractorCollisionError extends Error {
  constructor(name: string) {
    super(`distractor tool ${name} has the name of a documented tool`);
    this.name = 'DistractorCollisionError';
  }
}

/**
 * Builds the raw and DRAFT pools and the queries. `docs` is the surface DRAFT started from (the set's
 * `source.docs`); `distractors` are appended to both pools as given.
 */
export function docRetrievalPools(
  set: DocSet,
  docs: Surface,
  tasks: readonly Task[],
  distractors: readonly Tool[],
): DocRetrievalPools {
  const entries = set.tools.filter((e) => explored(e.category));
  const documented = entries.map((e) => e.key);
  const names = new Set(documented);
  for (const d of distractors) if (names.has(d.name)) throw new DistractorCollisionError(d.name);
  const raw: Tool[] = [];
  const draft: Tool[] = [];
  for (const e of entries) {
    const start = docs.tools.find((t) => t.name === e.key);
    if (!start) throw new RangeError(`the documentation set's tool ${e.key} is not on surface ${docs.id}`);
    const parameters = toolArgumentsSchema(start) as Record<string, unknown>;
    raw.push({ name: e.key, description: toolDocLine(surfaceToolDoc(start)), parameters });
    draft.push({ name: e.key, description: toolDocLine(e.doc), parameters });
  }
  raw.push(...distractors);
  draft.push(...distractors);
  const queries: QueryExample[] = [];
  for (const task of tasks) {
    const gold = new Set<string>();
    for (const step of task.plan) {
      const name = toolForKernel(docs, step.tool)?.name;
      if (name && names.has(name)) gold.add(name);
    }
    if (gold.size > 0) queries.push({ query: task.question, tools: [...gold] });
  }
  return { raw, draft, queries, documented };
}
