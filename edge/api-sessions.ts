/**
 * What an API session is made of (issue 22 §5), loaded for `POST /v1/sessions {"api": …}`: the API the key owns,
 * the server surface (the API as imported, a drifted version of it, a schedule of them, or a drift stream's releases), the surface whose
 * documentation the agent reads, and the query — free text, or an item of one of the API's query sets with its
 * gold. Errors name the request field: an unknown API or query set is a 404, a surface of another API or a gold
 * path the chosen surfaces cannot serve a 400.
 */
import { baseApiSurface } from '../core/apis/surface/base.ts';
import type { ApiSurface } from '../core/apis/surface/model.ts';
import { translateGoldCall } from '../core/apis/surface/translate.ts';
import type { ApiCatalog } from '../core/apis/types.ts';
import type { ApiServerSpec, ApiSessionQuery } from '../core/sessions/index.ts';
import type { Schedule } from '../core/surfaces/schedule.ts';
import { hash128 } from '../core/util/random.ts';
import { allowedOrigins, apiCatalog, proxyTarget } from './apis.ts';
import type { Bindings } from './env.ts';
import { InvalidInputError, NotFoundError } from './errors.ts';
import { type ApiRecord, findApi, findQuerySet, queryItem } from './stores/apis.ts';
import type { Owner } from './stores/owners.ts';
import { findApiSurface } from './stores/surfaces.ts';
import { streamServer, streamSurfaceAt } from './streams.ts';

export interface ApiSessionRequest {
  api: string;
  surface?: string;
  schedule?: Schedule;
  promptSurface?: string;
  queryset?: string;
  item?: number;
  query?: string;
  seed: string;
}

export interface ApiSessionParts {
  api: ApiRecord;
  catalog: ApiCatalog;
  server: ApiServerSpec;
  promptSurface: ApiSurface;
  query: ApiSessionQuery | null;
}

function fieldError(field: string, message: string): InvalidInputError {
  return new InvalidInputError(message, [
    { in: 'body', field, pointer: `/${field.replaceAll('.', '/')}`, message },
  ]);
}

/** The API surface a field names: the API's own (its id), or a drifted version of this API the key owns. */
async function surfaceOf(
  env: Bindings,
  api: ApiRecord,
  base: ApiSurface,
  id: string,
  field: string,
  owner: Owner,
): Promise<ApiSurface> {
  if (id === api.id) return base;
  const found = await findApiSurface(env, id, owner);
  if (!found || found.apiId !== api.id) {
    throw fieldError(
      field,
      `${id} is not a surface of API ${api.id} (its own id, or one from POST /v1/apis/${api.id}/surfaces).`,
    );
  }
  return found.surface;
}

export async function apiSessionParts(
  env: Bindings,
  req: ApiSessionRequest,
  owner: Owner,
): Promise<ApiSessionParts> {
  const api = await findApi(env, req.api, owner);
  if (!api)
    throw new NotFoundError(`No API with id ${req.api}.`, [
      { in: 'body', field: 'api', pointer: '/api', message: 'no such API' },
    ]);
  if (api.mode === 'proxy' && (!api.upstream || !proxyTarget(env, api.upstream))) {
    throw fieldError(
      'api',
      `The upstream of API ${api.id} is no longer an allowed origin (API_PROXY_ORIGINS allows: ${allowedOrigins(env).join(', ') || 'none'}).`,
    );
  }
  const catalog = await apiCatalog(env, api.id);
  const base = baseApiSurface(api.id, catalog, api.title);

  let server: ApiServerSpec;
  const stages: ApiSurface[] = [];
  if (req.schedule) {
    const surfaces: Record<string, ApiSurface> = {};
    for (const [i, stage] of req.schedule.stages.entries()) {
      surfaces[stage.surface] ??= await surfaceOf(
        env,
        api,
        base,
        stage.surface,
        `schedule.stages.${i}.surface`,
        owner,
      );
      stages.push(surfaces[stage.surface] as ApiSurface);
    }
    server = { kind: 'schedule', schedule: req.schedule, surfaces };
  } else {
    const stream = await streamServer(env, req.surface ?? api.id, owner, 'surface');
    if (stream) {
      if (stream.kind !== 'api' || stream.api !== api.id)
        throw fieldError('surface', `Stream ${stream.stream.id} does not drift API ${api.id}.`);
      stages.push(...Object.values(stream.surfaces));
      server = { kind: 'schedule', schedule: stream.schedule, surfaces: stream.surfaces };
    } else {
      const surface = await surfaceOf(env, api, base, req.surface ?? api.id, 'surface', owner);
      stages.push(surface);
      server = { kind: 'surface', surface };
    }
  }
  const promptStream = await streamServer(env, req.promptSurface ?? api.id, owner, 'promptSurface');
  if (promptStream && (promptStream.kind !== 'api' || promptStream.api !== api.id))
    throw fieldError('promptSurface', `Stream ${promptStream.stream.id} does not drift API ${api.id}.`);
  const promptSurface = promptStream
    ? (streamSurfaceAt(promptStream) as ApiSurface)
    : await surfaceOf(env, api, base, req.promptSurface ?? api.id, 'promptSurface', owner);

  let query: ApiSessionQuery | null = req.query !== undefined ? { text: req.query } : null;
  if (req.queryset !== undefined) {
    const set = await findQuerySet(env, api.id, req.queryset, owner);
    if (!set) {
      throw new NotFoundError(`API ${api.id} has no query set ${req.queryset}.`, [
        { in: 'body', field: 'queryset', pointer: '/queryset', message: 'no such query set' },
      ]);
    }
    // Without an item, one is chosen by seed (items are numbered 0 … n−1), as a kernel session picks its task.
    const index = req.item ?? (hash128(`session-query/${req.seed}`)[0] as number) % Math.max(1, set.items);
    const item = await queryItem(env, set.id, index);
    if (!item) throw fieldError('item', `Query set ${set.id} has no item ${index} (it has ${set.items}).`);
    for (const gold of item.gold.path) {
      const served = stages.some((s) => translateGoldCall(s, gold) !== null);
      if (!served) {
        throw fieldError(
          'item',
          `The gold path of item ${index} calls ${gold.method ? `${gold.method.toUpperCase()} ${gold.path}` : gold.operation}, which the chosen surface does not serve.`,
        );
      }
    }
    query = {
      text: req.query ?? item.query,
      queryset: set.id,
      index,
      gold: { path: item.gold.path, ...(item.gold.answer !== undefined ? { answer: item.gold.answer } : {}) },
    };
  }
  return { api, catalog, server, promptSurface, query };
}
