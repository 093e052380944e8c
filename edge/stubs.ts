/**
 * Typed stubs of the Worker's Durable Objects. The namespaces are typed by `wrangler types`
 * (`DurableObjectNamespace<EpisodeSession>`, `<SearchTreeObject>`, `<DraftToolObject>`, `<ToolIndexShard>`); their stubs' generated `Rpc.Result` types
 * turn any value holding an `unknown` (a search node's Python namespace) or a discriminated union of replies
 * into types TypeScript cannot use, so a stub is seen through its class's own public async methods instead of a
 * hand-written interface: the signatures cannot drift from the class. Calls still go over RPC (arguments and
 * results are structured clones).
 */
import type { DraftToolObject } from '../durable-objects/draft-tool.ts';
import type { EpisodeSession } from '../durable-objects/episode-session.ts';
import type { SearchTreeObject } from '../durable-objects/search-tree.ts';
import type { SteExplorerObject } from '../durable-objects/ste-explorer.ts';
import type { ToolIndexShard } from '../durable-objects/tool-index-shard.ts';
import type { Bindings } from './env.ts';
import type { TreeLocationHint } from './jobs/explore-tree.ts';

/** The public async methods of a Durable Object class: what its stub can call. */
export type RpcMethods<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => Promise<unknown> ? K : never]: T[K];
};

function methodsOf<T extends Rpc.DurableObjectBranded>(stub: DurableObjectStub<T>): RpcMethods<T> {
  return stub as unknown as RpcMethods<T>;
}

export function sessionStub(env: Bindings, sessionId: string): RpcMethods<EpisodeSession> {
  return methodsOf(env.SESSIONS.get(env.SESSIONS.idFromName(sessionId)));
}

/**
 * The stub of a tree's object. The location hint only matters when the object does not exist yet (it is created
 * near the hinted region); later gets may leave it out.
 */
export function treeStub(
  env: Bindings,
  treeId: string,
  locationHint?: TreeLocationHint,
): RpcMethods<SearchTreeObject> {
  const id = env.TREES.idFromName(treeId);
  return methodsOf(locationHint ? env.TREES.get(id, { locationHint }) : env.TREES.get(id));
}

/** The stub of one STE tool exploration: one object per (run, tool). */
export function steStub(env: Bindings, runId: string, tool: string): RpcMethods<SteExplorerObject> {
  return methodsOf(env.STE.get(env.STE.idFromName(`${runId}/${tool}`)));
}

/** The stub of one DRAFT tool's object: one object per (run, tool). */
export function draftToolStub(env: Bindings, runId: string, toolKey: string): RpcMethods<DraftToolObject> {
  return methodsOf(env.DRAFT_TOOLS.get(env.DRAFT_TOOLS.idFromName(`${runId}/${toolKey}`)));
}

/** The stub of one object of a toolset's dense index: a shard (`<index>/shard/<n>`) or the builder (`<index>/build`). */
export function toolIndexStub(env: Bindings, name: string): RpcMethods<ToolIndexShard> {
  return methodsOf(env.TOOL_INDEX.get(env.TOOL_INDEX.idFromName(name)));
}
