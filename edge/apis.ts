/**
 * Imported APIs at the edge: their catalogs and mock worlds, kept per isolate (an API never changes after its
 * import, so a cached catalog is never stale — a deleted one is no longer found in D1 first), and the proxy
 * mode's upstreams with their credentials.
 *
 * Upstreams (`API_PROXY_ORIGINS`, set by the operator): a proxy-mode API may only point at an origin listed
 * there, and only the origin's own secret is sent to it — a key cannot aim another team's credentials at a
 * server of its own. Entries are comma-separated, `ORIGIN[=SECRET[@header | ?query]]`:
 * - `ORIGIN` is `scheme://host[:port]`; `*` as the port allows any (`http://127.0.0.1:*` for local upstreams);
 * - `SECRET` names a Worker secret `UPSTREAM_…` whose value is sent as `authorization: Bearer <value>`, or as the
 *   named header (`@x-api-key`), or as the named query parameter (`?api_key`).
 * Secret values are read when a call is made and go nowhere but the upstream request.
 */
import { DEFAULT_WORLD_SIZE, MockWorld, type ProxyTarget } from '../core/apis/mock/index.ts';
import type { ApiCatalog } from '../core/apis/types.ts';
import type { ApiRef, ApiSessionConfig, ApiStepDeps } from '../core/sessions/index.ts';
import type { Bindings } from './env.ts';
import { readCatalog } from './stores/apis.ts';

const MAX_CACHED = 16;
/** Catalogs as read (plain data): a request never awaits another request's read (functions/http/rate-limit.ts). */
const catalogs = new Map<string, ApiCatalog>();
const worlds = new Map<string, MockWorld>();

function remember<T>(map: Map<string, T>, key: string, value: T): T {
  map.set(key, value);
  if (map.size > MAX_CACHED) map.delete(map.keys().next().value as string);
  return value;
}

/** The API's operation catalog (cached per isolate); an Error when its blob is missing. */
export async function apiCatalog(env: Bindings, apiId: string): Promise<ApiCatalog> {
  const hit = catalogs.get(apiId);
  if (hit) return hit;
  const catalog = await readCatalog(env, apiId);
  if (!catalog) throw new Error(`the catalog of API ${apiId} is missing`);
  return remember(catalogs, apiId, catalog);
}

/** Forgets a deleted API. */
export function forgetApi(apiId: string): void {
  catalogs.delete(apiId);
  for (const key of [...worlds.keys()]) if (key.startsWith(`${apiId}\u0000`)) worlds.delete(key);
}

/** The mock world of an API at its seed and size (cached per isolate: its pools fill as it is used). */
export async function mockWorld(
  env: Bindings,
  api: Pick<ApiRef, 'id' | 'seed' | 'worldSize'>,
): Promise<MockWorld> {
  const key = `${api.id}\u0000${api.seed}\u0000${api.worldSize}`;
  const hit = worlds.get(key);
  if (hit) return hit;
  const catalog = await apiCatalog(env, api.id);
  return remember(worlds, key, new MockWorld(api.id, catalog, api.seed, api.worldSize ?? DEFAULT_WORLD_SIZE));
}

export interface UpstreamRule {
  scheme: string;
  host: string;
  /** null: any port. */
  port: string | null;
  secret?: string;
  header?: string;
  query?: string;
}

const SECRET_NAME = /^UPSTREAM_[A-Z0-9_]{1,64}$/;

/** The operator's upstream rules (`API_PROXY_ORIGINS`); malformed entries are skipped. */
export function upstreamRules(env: Bindings): UpstreamRule[] {
  const rules: UpstreamRule[] = [];
  for (const raw of (env.API_PROXY_ORIGINS ?? '').split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const [origin = '', credential] = entry.split('=', 2);
    const m = /^(https?):\/\/([^/:]+)(?::(\d{1,5}|\*))?$/.exec(origin.trim());
    if (!m) continue;
    const rule: UpstreamRule = {
      scheme: m[1] as string,
      host: (m[2] as string).toLowerCase(),
      port: m[3] === '*' ? null : (m[3] ?? (m[1] === 'https' ? '443' : '80')),
    };
    if (credential) {
      const c = /^([A-Z0-9_]+)(?:@([A-Za-z0-9-]+)|\?([A-Za-z0-9_.-]+))?$/.exec(credential.trim());
      if (!c || !SECRET_NAME.test(c[1] as string)) continue;
      rule.secret = c[1] as string;
      if (c[2]) rule.header = c[2].toLowerCase();
      if (c[3]) rule.query = c[3];
    }
    rules.push(rule);
  }
  return rules;
}

/** The rule an upstream base URL falls under, or null when the operator allows no such origin. */
export function upstreamRule(env: Bindings, baseUrl: string): UpstreamRule | null {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return null;
  }
  const scheme = url.protocol.replace(/:$/, '');
  const port = url.port || (scheme === 'https' ? '443' : '80');
  return (
    upstreamRules(env).find(
      (r) =>
        r.scheme === scheme && r.host === url.hostname.toLowerCase() && (r.port === null || r.port === port),
    ) ?? null
  );
}

/** The allowed origins as text (for error messages; never the secrets). */
export function allowedOrigins(env: Bindings): string[] {
  return upstreamRules(env).map((r) => `${r.scheme}://${r.host}${r.port === null ? ':*' : `:${r.port}`}`);
}

/** Where a proxy-mode API's calls go, with the origin's credentials; null when its origin is no longer allowed. */
export function proxyTarget(env: Bindings, baseUrl: string): ProxyTarget | null {
  const rule = upstreamRule(env, baseUrl);
  if (!rule) return null;
  const target: ProxyTarget = { baseUrl };
  const value = rule.secret ? (env as unknown as Record<string, string | undefined>)[rule.secret] : undefined;
  if (value) {
    if (rule.query) target.query = { [rule.query]: value };
    else if (rule.header) target.headers = { [rule.header]: value };
    else target.headers = { authorization: `Bearer ${value}` };
  }
  return target;
}

/** What an API session's step needs: the catalog, the mock world, and how the backend answers. */
export async function apiStepDeps(
  env: Bindings,
  config: Pick<ApiSessionConfig, 'api'>,
): Promise<ApiStepDeps> {
  const world = await mockWorld(env, config.api);
  if (config.api.mode !== 'proxy')
    return { catalog: world.catalog, world, backend: { mode: config.api.mode } };
  const target = config.api.upstream ? proxyTarget(env, config.api.upstream) : null;
  if (!target) {
    throw new Error(`the upstream of API ${config.api.id} is not an allowed origin (API_PROXY_ORIGINS)`);
  }
  return {
    catalog: world.catalog,
    world,
    backend: { mode: 'proxy', proxy: { target, fetch: (u, i) => fetch(u, i) } },
  };
}
