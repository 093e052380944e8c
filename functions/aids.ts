/**
 * The aid context at the edge (core/aids): surfaces (built-in or stored) and DRAFT documentation sets from D1,
 * and the resolution of a request's aids with an unavailable one turned into a 400 problem naming its field.
 */
import {
  type AidContext,
  type Aids,
  AidUnavailableError,
  type ResolvedAids,
  resolveAids,
} from '../core/aids/index.ts';
import { getDocset } from '../edge/stores/draft.ts';
import type { Bindings } from './env.ts';
import { ProblemError } from './http/problem.ts';
import { findSurface } from './surface-store.ts';

export function edgeAidContext(env: Bindings): AidContext {
  return { surface: (id) => findSurface(env, id), docset: (id) => getDocset(env.DB, id) };
}

/** resolveAids with the unavailable aid as a validation problem (`pointerBase` prefixes the field's pointer). */
export async function resolveAidsOrProblem(
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
    throw new ProblemError('validation-error', {
      detail: `${err.message[0]?.toUpperCase()}${err.message.slice(1)}.`,
      errors: [
        {
          in: 'body',
          field,
          pointer: `${pointerBase}/${err.field.replaceAll('.', '/')}`,
          message: err.message,
        },
      ],
    });
  }
}
