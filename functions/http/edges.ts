/**
 * Middleware for what every response shares, whichever handler produced it (issue 13 item 8):
 * - `X-Request-Id` on every response, including the raw `Response`s some routes build (step results with fault
 *   injection, exports) and static files — `run_worker_first` sends those through the Worker, which serves them
 *   from the ASSETS binding (`serveAsset`);
 * - a 414 problem for a URL longer than `MAX_URL_CHARS`. The runtime itself answers `414 text/plain` beyond its
 *   own limit (workerd locally: 64 KiB; Cloudflare's edge: 16 KiB) before the Worker runs, so the Worker's bound
 *   sits below both and any URL the Worker sees that is too long gets a problem body.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { problem } from './problem.ts';

/** Longest URL accepted (the longest legitimate one, a task list with filters and a cursor, is < 1 KiB). */
export const MAX_URL_CHARS = 8192;

export const uriLength: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.url.length > MAX_URL_CHARS) {
    return problem(c, 'uri-too-long', {
      detail: `The URL is ${c.req.url.length} characters long; at most ${MAX_URL_CHARS} are accepted.`,
      extensions: { maxChars: MAX_URL_CHARS },
    });
  }
  await next();
};

/** Sets `X-Request-Id` on the final response, copying a response whose headers are immutable. */
export const requestIdEverywhere: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const id = c.get('requestId');
  if (!id || c.res.headers.get('x-request-id') === id) return;
  try {
    c.res.headers.set('x-request-id', id);
  } catch {
    // Responses from fetch() and bindings have immutable headers.
    const copy = new Response(c.res.body, c.res);
    copy.headers.set('x-request-id', id);
    c.res = undefined;
    c.res = copy;
  }
};

/** Static files the Worker reads for itself and does not serve: the USE lite weights (edge/use-encoder.ts). */
const PRIVATE_ASSET_PREFIX = '/models/';

/** Also for `/%6Dodels/…` and `//models/…`, in case the asset server decodes or collapses them. */
function isPrivateAsset(pathname: string): boolean {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // Malformed escapes: the raw path is checked.
  }
  return path.replace(/\/{2,}/g, '/').startsWith(PRIVATE_ASSET_PREFIX);
}

/** A static file from the ASSETS binding for GET/HEAD, or null when there is none (the caller answers 404). */
export async function serveAsset(c: Context<AppEnv>): Promise<Response | null> {
  if (!['GET', 'HEAD'].includes(c.req.method) || !c.env.ASSETS) return null;
  if (isPrivateAsset(new URL(c.req.url).pathname)) return null;
  const res = await c.env.ASSETS.fetch(c.req.raw);
  if (res.status === 404) return null;
  return new Response(res.body, res);
}
