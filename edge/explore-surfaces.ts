/**
 * The surfaces the exploring methods (DRAFT, STE) run on at the edge, by id (issue 23 §2–3): a kernel surface
 * (built-in, custom or generated), or an imported API's surface — the API as imported (its own id) or a drifted
 * version of it (`POST /v1/apis/{id}/surfaces`). Surface ids are one namespace (edge/stores/surfaces.ts), so a run
 * names either kind in the same field. An API surface belongs to the key that owns its API: another key's reads as
 * unknown.
 *
 * `exploreTarget` turns a resolved API surface into the exploration target of core/sessions/targets.ts: the very
 * step an API session's Durable Object runs (the seeded mock or the upstream), so the explorers read the API's real
 * answers and errors.
 */
import { baseApiSurface } from '../core/apis/surface/base.ts';
import type { ApiSurface } from '../core/apis/surface/model.ts';
import type { ApiCatalog } from '../core/apis/types.ts';
import { type ApiToolTarget, apiTarget } from '../core/sessions/targets.ts';
import type { Surface } from '../core/surfaces/model.ts';
import { allowedOrigins, apiCatalog, apiStepDeps, proxyTarget } from './apis.ts';
import type { Bindings } from './env.ts';
import { InvalidInputError } from './errors.ts';
import { type ApiRecord, apiRefOf, findApi } from './stores/apis.ts';
import type { Owner } from './stores/owners.ts';
import { findApiSurface, findSurface } from './stores/surfaces.ts';

/** An imported API's surface with what runs it. */
export interface ResolvedApiSurface {
  backend: 'api';
  api: ApiRecord;
  catalog: ApiCatalog;
  surface: ApiSurface;
}

export type ResolvedSurface = { backend: 'kernel'; surface: Surface } | ResolvedApiSurface;

/**
 * A surface by id: a kernel surface, an API's own surface (its id) or a drifted version of an API — the API ones
 * only when `owner` may see the API (no owner: any, for jobs and objects acting on a run already checked).
 */
export async function findExploreSurface(
  env: Bindings,
  id: string,
  owner?: Owner,
): Promise<ResolvedSurface | null> {
  const kernel = await findSurface(env, id);
  if (kernel) return { backend: 'kernel', surface: kernel };
  const own = await findApi(env, id, owner);
  if (own) {
    const catalog = await apiCatalog(env, own.id);
    return { backend: 'api', api: own, catalog, surface: baseApiSurface(own.id, catalog, own.title) };
  }
  const drifted = await findApiSurface(env, id, owner);
  if (!drifted) return null;
  const api = await findApi(env, drifted.apiId, owner);
  if (!api) return null;
  return { backend: 'api', api, catalog: await apiCatalog(env, api.id), surface: drifted.surface };
}

function fieldError(field: string, message: string): InvalidInputError {
  return new InvalidInputError(message, [
    { in: 'body', field, pointer: `/${field.replaceAll('.', '/')}`, message },
  ]);
}

/** `findExploreSurface`, or an InvalidInputError naming the body field (unknown, or another key's API). */
export async function requireExploreSurface(
  env: Bindings,
  id: string,
  field: string,
  owner?: Owner,
): Promise<ResolvedSurface> {
  const found = await findExploreSurface(env, id, owner);
  if (!found) {
    throw fieldError(
      field,
      `Unknown surface ${id}: neither a kernel surface nor a surface of an API this key owns (an API's id, or one from POST /v1/apis/{id}/surfaces).`,
    );
  }
  // A proxy-mode API whose upstream the operator no longer allows cannot be explored (its calls would fail).
  const { api } = found.backend === 'api' ? found : { api: null };
  if (api?.mode === 'proxy' && (!api.upstream || !proxyTarget(env, api.upstream))) {
    throw fieldError(
      field,
      `The upstream of API ${api.id} is no longer an allowed origin (API_PROXY_ORIGINS allows: ${allowedOrigins(env).join(', ') || 'none'}).`,
    );
  }
  return found;
}

/**
 * Checks that two surfaces of one request can go together: both kernel surfaces, or both surfaces of the same API
 * (documentation of one API never describes another's server). InvalidInputError naming `field` otherwise.
 */
export function requireSameBackend(server: ResolvedSurface, other: ResolvedSurface, field: string): void {
  const ok =
    server.backend === 'kernel'
      ? other.backend === 'kernel'
      : other.backend === 'api' && other.api.id === server.api.id;
  if (!ok) {
    const what = server.backend === 'kernel' ? 'a kernel surface' : `a surface of API ${server.api.id}`;
    throw fieldError(field, `${other.surface.id} is not ${what}, as the explored surface is.`);
  }
}

/** The exploration target of an API surface (its session step over the mock or the upstream). */
export async function exploreTarget(
  env: Bindings,
  server: ResolvedApiSurface,
  opts: { docs?: ApiSurface; now: Date },
): Promise<ApiToolTarget> {
  const api = apiRefOf(server.api);
  return apiTarget({
    api,
    server: { kind: 'surface', surface: server.surface },
    ...(opts.docs ? { docs: opts.docs } : {}),
    deps: await apiStepDeps(env, { api }),
    now: opts.now,
  });
}
