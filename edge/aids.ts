/**
 * The aid context at the edge (core/aids): surfaces (built-in or stored), DRAFT documentation sets and STE
 * exemplar sets (demonstrations) from D1,
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
import { findSurface, unknownSurface } from './stores/surfaces.ts';

export function edgeAidContext(env: Bindings): AidContext {
  return {
    surface: (id) => findSurface(env, id),
    docset: (id) => getDocset(env, id),
    demonstrations: steDemonstrations(env),
  };
}

/** resolveAids with the unavailable aid as an InvalidInputError (`pointerBase` prefixes the field's pointer). */
export async function requireAids(
  env: Bindings,
  aids: Aids | undefined,
  promptSurface: string,
  pointerBase = '',
): Promise<ResolvedAids> {
  try {
    return await resolveAids(aids, promptSurface, edgeAidContext(env));
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
