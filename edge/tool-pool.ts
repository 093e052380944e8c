/**
 * The toolPool aid at the edge (core/aids `toolPool`, core/retrieval/tool-pool.ts): the distractors are a
 * toolset's tools read from D1 (a synthetic toolset is regenerated from its catalog options), in pool order and
 * at most the pool's size. With an owner, a toolset another user key owns is unavailable, as a missing one.
 * The pool and its untrained ranker (bm25 or char) are built in core when the aid is resolved, once per request
 * or evaluation chunk.
 */
import type { AidContext } from '../core/aids/index.ts';
import type { Bindings } from './env.ts';
import type { Owner } from './stores/owners.ts';
import { findToolset, loadToolsetTools } from './stores/toolsets.ts';

export function toolPoolToolsets(env: Bindings, owner?: Owner): NonNullable<AidContext['toolset']> {
  return async (id, limit) => {
    const record = await findToolset(env.DB, id, owner);
    if (!record) return null;
    return (await loadToolsetTools(env.DB, record)).slice(0, limit);
  };
}

/** Whether the toolset exists for this owner (a request is checked before its jobs read it without one). */
export async function toolsetVisible(env: Bindings, id: string, owner?: Owner): Promise<boolean> {
  return (await findToolset(env.DB, id, owner)) !== null;
}
