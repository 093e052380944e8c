/**
 * The aid context at the edge (core/aids): surfaces (built-in or stored), DRAFT documentation sets, STE
 * exemplar sets (demonstrations) and toolsets (the toolPool aid's distractors) from D1,
 * and the resolution of a request's aids with an unavailable one turned into an InvalidInputError (a 400 over
 * HTTP) naming its field.
 */
import {
  type AidContext,
  type Aids,
  AidUnavailableError,
  documentationSurfaceId,
  type ResolvedAids,
  resolveAids,
} from '../core/aids/index.ts';
import type { Bindings } from './env.ts';
import { InvalidInputError } from './errors.ts';
import { steDemonstrations } from './ste-demonstrations.ts';
import { getDocset } from './stores/draft.ts';
import type { Owner } from './stores/owners.ts';
import { findSteRun } from './stores/ste.ts';
import { findSurface, unknownSurface } from './stores/surfaces.ts';
import { toolPoolToolsets, toolsetVisible } from './tool-pool.ts';
import { toolsetJudgeGate } from './trained-heads.ts';

/**
 * With an owner (a request's key), a documentation set or exemplar set another user key owns is unavailable,
 * exactly as a missing one; without (a queue job re-resolving what its request checked) every set is visible.
 */
export function edgeAidContext(env: Bindings, owner?: Owner): AidContext {
  return {
    surface: (id) => findSurface(env, id),
    docset: (id) => getDocset(env, id, owner),
    demonstrations: steDemonstrations(env, owner),
    toolset: toolPoolToolsets(env, owner),
    toolsetJudge: (id) => toolsetJudgeGate(env, id, owner),
  };
}

/** resolveAids with the unavailable aid as an InvalidInputError (`pointerBase` prefixes the field's pointer). */
export async function requireAids(
  env: Bindings,
  aids: Aids | undefined,
  promptSurface: string,
  pointerBase = '',
  owner?: Owner,
): Promise<ResolvedAids> {
  try {
    return await resolveAids(aids, promptSurface, edgeAidContext(env, owner));
  } catch (err) {
    if (!(err instanceof AidUnavailableError)) throw err;
    const field = pointerBase ? `${pointerBase.slice(1).replaceAll('/', '.')}.${err.field}` : err.field;
    if (err.slot === 'documentation' && aids?.documentation?.docset === undefined) {
      throw unknownSurface(documentationSurfaceId(aids, promptSurface), field);
    }
    throw new InvalidInputError(`${err.message[0]?.toUpperCase()}${err.message.slice(1)}.`, [
      {
        in: 'body',
        field,
        pointer: `${pointerBase}/${err.field.replaceAll('.', '/')}`,
        message: err.message,
      },
    ]);
  }
}

/**
 * The sets a request's aids name that its job will read without an owner (an evaluation's groups): a
 * documentation set or an exemplar set another user key owns is refused as an unknown one (a 400 naming the
 * field), so a key cannot evaluate with, and so read through, another key's object.
 */
export async function assertOwnAidSets(
  env: Bindings,
  aids: Aids | undefined,
  promptSurface: string,
  owner: Owner | undefined,
  pointerBase = '',
): Promise<void> {
  if (aids?.documentation?.docset !== undefined)
    await requireAids(env, aids, promptSurface, pointerBase, owner);
  const toolPool = aids?.toolPool;
  if (toolPool) {
    // The toolset and the pool's surfaces must exist (and the toolset be this key's) before any job reads them.
    const base = pointerBase ? `${pointerBase.slice(1).replaceAll('/', '.')}.` : '';
    if (!(await toolsetVisible(env, toolPool.pool, owner)))
      throw new InvalidInputError(`No toolset ${toolPool.pool}.`, [
        {
          in: 'body',
          field: `${base}aids.toolPool.pool`,
          pointer: `${pointerBase}/aids/toolPool/pool`,
          message: `no toolset ${toolPool.pool}`,
        },
      ]);
    for (const [i, id] of (toolPool.surfaces ?? []).entries())
      if (!(await findSurface(env, id))) throw unknownSurface(id, `${base}aids.toolPool.surfaces.${i}`);
    if (toolPool.judge === 'trained') {
      const gate = await toolsetJudgeGate(env, toolPool.pool, owner);
      if (typeof gate === 'string')
        throw new InvalidInputError(`No trained Tool Judge: ${gate}.`, [
          {
            in: 'body',
            field: `${base}aids.toolPool.judge`,
            pointer: `${pointerBase}/aids/toolPool/judge`,
            message: gate,
          },
        ]);
    }
  }
  const set = aids?.demonstrations?.set;
  if (set === undefined || !owner || owner.admin) return;
  if ((await findSteRun(env.DB, set)) && !(await findSteRun(env.DB, set, owner))) {
    const field = `${pointerBase ? `${pointerBase.slice(1).replaceAll('/', '.')}.` : ''}aids.demonstrations.set`;
    throw new InvalidInputError(`Unknown exemplar set ${set}.`, [
      {
        in: 'body',
        field,
        pointer: `${pointerBase}/aids/demonstrations/set`,
        message: 'no such exemplar set',
      },
    ]);
  }
}
