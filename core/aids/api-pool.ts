/**
 * The toolPool aid on an imported API (issue 23 §1, RestBench's two retrieval settings): the prompt documents only
 * the operations retrieved from a pool, never the whole API.
 *
 * - **Pool** — `candidates`: the item's candidate APIs (DRAFT's RestBench test file gives 5 per query, always
 *   holding the gold ones; the query set keeps them as `meta.candidates`); `all`: every operation the
 *   documentation lists (RestBench-TMDB: 54). An entry is a documented tool of the chosen documentation
 *   (api-docs.ts): what the ranker reads is its name and its line — the docs the agent would read, stale or not.
 * - **Retrieval per step** — the same rule as the kernel's Chain-of-Tools pool (core/retrieval/tool-pool.ts
 *   `PoolRetrieval`): the question before the first step, the question and the previous step's text after it; the
 *   top `k` join the documented tools, which accumulate (a pool of at most `k` tools is shown whole: the
 *   candidate setting gives the agent its 5 candidates); after a deprecation message (`name (GET /route) is
 *   deprecated …`) the retired tool's nearest neighbours are retrieved as well. Untrained rankers (bm25, char), no
 *   Tool Judge: every step retrieves.
 * - **Only retrieved tools are shown** (issue 25 item 21's rule): the tool list is the retrieved tools and Finish;
 *   an API's prompt has no worked examples, so nothing else can name an undocumented operation.
 */
import type { ApiDocTool } from '../apis/surface/docs.ts';
import type { ApiToolPoolOptions } from '../evals/api-suite.ts';
import type { ApiPromptDocs } from '../prompts/toolevo.ts';
import { Bm25Ranker } from '../retrieval/bm25.ts';
import { CharRanker } from '../retrieval/char.ts';
import { PoolRetrieval, type PoolStep } from '../retrieval/tool-pool.ts';
import { apiPromptDocs } from './api-docs.ts';

/** What an API method run reads from the aid: the documentation of the step after `steps`. */
export interface ApiDocsRetriever {
  docsFor(question: string, steps: readonly PoolStep[]): Promise<ApiPromptDocs>;
}

interface PoolEntry {
  name: string;
  description: string;
  tool: ApiDocTool;
}

/** The tool an API's deprecation message names: `getPerson (GET /person/{id}) is deprecated …` → getPerson. */
export function retiredApiTool(observation: string): string | null {
  const m =
    /([A-Za-z_][\w.-]*)(?:\[[^\]]*\])?(?: \((?:GET|POST|PUT|PATCH|DELETE) [^)]*\))? is deprecated/.exec(
      observation,
    );
  return m ? (m[1] as string) : null;
}

export class ApiToolPool implements ApiDocsRetriever {
  readonly #retrieval: PoolRetrieval<PoolEntry>;
  readonly #all: readonly ApiDocTool[] | null;
  /** The operations in the pool, in the documentation's order. */
  readonly operations: readonly string[];

  constructor(tools: readonly ApiDocTool[], options: Pick<ApiToolPoolOptions, 'k' | 'ranker'>) {
    const pool: PoolEntry[] = tools.map((t) => ({ name: t.name, description: t.line, tool: t }));
    this.operations = tools.map((t) => t.operation);
    this.#all = tools.length <= options.k ? tools : null;
    this.#retrieval = new PoolRetrieval({
      pool,
      ranker: options.ranker === 'char' ? new CharRanker(pool) : new Bm25Ranker(pool),
      topK: options.k,
      retiredName: retiredApiTool,
    });
  }

  get size(): number {
    return this.#retrieval.size;
  }

  async docsFor(question: string, steps: readonly PoolStep[]): Promise<ApiPromptDocs> {
    // A pool no larger than k is shown whole (RestBench's candidate setting: the agent is given the 5 candidates;
    // a lexical ranker would drop those sharing no word with the query).
    const tools = this.#all ?? (await this.#retrieval.retrieveFor(question, steps)).tools.map((t) => t.tool);
    return { ...apiPromptDocs(tools), retrieved: { pool: this.size } };
  }
}

/** Thrown when the documentation has no tool list to pool over, or an item lacks the candidates it needs. */
export class ApiPoolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ApiPoolError';
  }
}

/**
 * The pool of one query: the documentation's tools (`all`), or those serving the item's candidate operations
 * (`candidates`, in the documentation's order).
 */
export function apiToolPool(
  docs: ApiPromptDocs,
  options: ApiToolPoolOptions,
  candidates: readonly string[] | null,
): ApiToolPool {
  if (!docs.tools) throw new ApiPoolError('the documentation lists no tools one by one to pool over');
  let tools = docs.tools;
  if (options.pool === 'candidates') {
    if (!candidates) throw new ApiPoolError('the item lists no candidate APIs');
    const wanted = new Set(candidates);
    tools = tools.filter((t) => wanted.has(t.operation));
  }
  return new ApiToolPool(tools, options);
}
