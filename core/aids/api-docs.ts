/**
 * The documentation aid on an imported API (issue 23 §1): the ReAct tool list an agent on an API surface is given,
 * for each kind a suite can name (`ApiDocsChoice`, core/evals/api-suite.ts) — pure functions of values the caller
 * has loaded (the edge from its stores, scripts and tests from files):
 *
 * - `imported` — the API's own documentation as imported (its base surface; stale once the served surface drifted);
 * - `surface` — the served surface's own documentation;
 * - `{docset}` — a DRAFT documentation set of the API (`docsetApiDocs`): its entries under the names the served
 *   surface answers, the route as served, DRAFT's parameters and description, the example call that worked;
 *   entries DRAFT flagged (`not-served`, `rewrite-failed`, `no-success`: documentation the server never confirmed
 *   or no longer serves) and names the served surface does not answer are left out — never shown as current;
 * - `{description}` — an uploaded description file (`readDescriptionFile` when it is uploaded, then
 *   `descriptionApiDocs`): a DRAFT tool-instruction file such as `TMDB_Initial.json` / `TMDB_DRAFT.json`
 *   (core/draft/restbench.ts reads it), its descriptions replacing the imported documentation's sentences operation
 *   by operation (the names stay the API's as imported).
 *
 * Every kind is an `ApiPromptDocs` with its tools one by one (`tools`), so the toolPool aid (api-pool.ts) can
 * retrieve over them and list a subset.
 */
import { type ApiDocTool, apiToolLines, numberedApiToolList } from '../apis/surface/docs.ts';
import type { ApiSurface } from '../apis/surface/model.ts';
import { servedTools, toolRoute } from '../apis/surface/tools.ts';
import type { DocSet } from '../draft/docset.ts';
import { entryFlags } from '../draft/docset.ts';
import { descriptionsByOperation, parseToolInstructions } from '../draft/restbench.ts';
import type { ApiDocsChoice } from '../evals/api-suite.ts';
import { docLine } from '../prompts/draft.ts';
import type { ApiPromptDocs } from '../prompts/toolevo.ts';

/** Documented tools as prompt documentation (the numbered list and the tools one by one). */
export function apiPromptDocs(tools: readonly ApiDocTool[]): ApiPromptDocs {
  return { kind: 'api', toolList: numberedApiToolList(tools), tools };
}

/** A surface's own documentation (`imported`: the API's base surface; `surface`: the served one). */
export function surfaceApiDocs(
  surface: ApiSurface,
  opts: { now?: Date; descriptions?: Readonly<Record<string, string>> } = {},
): ApiPromptDocs {
  return apiPromptDocs(apiToolLines(surface, opts));
}

/**
 * A DRAFT documentation set of the API as the agent's tool list (see the module header): per entry, in the set's
 * order, `name[params] (ROUTE), description` plus the example call that worked — when the entry carries no flag and
 * the served surface answers its documented name at `now`.
 */
export function docsetApiDocs(set: DocSet, served: ApiSurface, now?: Date): ApiPromptDocs {
  const byName = new Map(servedTools(served, now).map((t) => [t.name, t]));
  const tools: ApiDocTool[] = [];
  for (const entry of set.tools) {
    if (entryFlags(entry).length > 0) continue;
    const tool = byName.get(entry.doc.name);
    if (!tool) continue;
    const route = toolRoute(tool) ?? entry.doc.route;
    const example = entry.doc.example ? ` Example: ${JSON.stringify(entry.doc.example)}.` : '';
    tools.push({
      name: tool.name,
      operation: tool.operation,
      line: `${docLine({ ...entry.doc, ...(route ? { route } : {}) })}${example}`,
    });
  }
  return apiPromptDocs(tools);
}

/** A description file read against an API: descriptions by base operation, and the file's tools that match none. */
export interface DescriptionFile {
  /** Tools in the file. */
  tools: number;
  descriptions: Record<string, string>;
  unmatched: string[];
}

/**
 * Reads an uploaded description file (DRAFT's tool-instruction format: `{"0": {ID, tool_name, description, url,
 * …}, …}`) against the API's operations: a file tool documents the operation whose method is its name's prefix and
 * whose path ends its url (core/draft/restbench.ts). A malformed file throws `RestBenchFileError` naming its JSON
 * pointer.
 */
export function readDescriptionFile(
  file: unknown,
  operations: readonly { name: string; method?: string; path?: string }[],
): DescriptionFile {
  const tools = parseToolInstructions(file);
  return { tools: tools.length, ...descriptionsByOperation(tools, operations) };
}

/** The API's own documentation with a description file's descriptions (by operation) replacing its sentences. */
export function descriptionApiDocs(
  descriptions: Readonly<Record<string, string>>,
  imported: ApiSurface,
  now?: Date,
): ApiPromptDocs {
  return surfaceApiDocs(imported, { ...(now ? { now } : {}), descriptions });
}

/** What `resolveApiDocs` reads: the surfaces, and the documentation sets and description files named by id. */
export interface ApiDocsSources {
  /** The API as imported (its base surface). */
  imported: ApiSurface;
  /** The surface that answers the calls. */
  served: ApiSurface;
  docsets?: ReadonlyMap<string, DocSet>;
  /** Uploaded description files by id: their descriptions by operation (`readDescriptionFile`, as stored). */
  descriptions?: ReadonlyMap<string, Readonly<Record<string, string>>>;
  now?: Date;
}

/** A suite's documentation choice as prompt documentation; throws naming what is missing. */
export function resolveApiDocs(choice: ApiDocsChoice, sources: ApiDocsSources): ApiPromptDocs {
  const now = sources.now ? { now: sources.now } : {};
  if (choice === 'imported') return surfaceApiDocs(sources.imported, now);
  if (choice === 'surface') return surfaceApiDocs(sources.served, now);
  if ('docset' in choice) {
    const set = sources.docsets?.get(choice.docset);
    if (!set) throw new RangeError(`no documentation set ${choice.docset}`);
    return docsetApiDocs(set, sources.served, sources.now);
  }
  const descriptions = sources.descriptions?.get(choice.description);
  if (descriptions === undefined) throw new RangeError(`no description file ${choice.description}`);
  return descriptionApiDocs(descriptions, sources.imported, sources.now);
}
