/**
 * The `proxy` mode (issue 22 §3): the call goes to a real upstream (an API team's staging server) with the base
 * arguments the surface's drift translated back to, and the upstream's answer comes back as it came — status,
 * body and its informative headers — to be reshaped by the surface like a mock answer.
 *
 * Credentials are resolved by the edge from Worker secrets and passed in `target`; they are sent upstream and
 * appear nowhere else: not in answers, not in error messages (an unreachable upstream is reported by its origin
 * only), not in logs. `fetch` is injected (the Worker's own, or a test's).
 */
import type { ApiOperation } from '../types.ts';
import type { MockResponse } from './request.ts';

export interface ProxyTarget {
  /** The upstream base URL (`https://staging.example.com/3`): operation paths are appended to it. */
  baseUrl: string;
  /** Credential headers (from a secret); never echoed. */
  headers?: Record<string, string>;
  /** Credential query parameters (from a secret); never echoed. */
  query?: Record<string, string>;
  timeoutMs?: number;
}

/** Upstream headers passed back to the client. */
const PASSED_HEADERS = [
  'content-type',
  'retry-after',
  'link',
  'etag',
  'last-modified',
  'cache-control',
  'deprecation',
  'sunset',
  'location',
];

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The upstream request for a call: URL, method, headers and body (credentials added last). */
export function upstreamRequest(
  target: ProxyTarget,
  op: ApiOperation,
  args: Readonly<Record<string, unknown>>,
): { url: string; init: RequestInit } {
  const path = (op.path ?? '/').replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(text(args[name] ?? '')),
  );
  const url = new URL(target.baseUrl.replace(/\/+$/, '') + path);
  const headers = new Headers();
  const body: Record<string, unknown> = {};
  for (const p of op.params) {
    const v = args[p.name];
    if (v === undefined) continue;
    if (p.in === 'query') {
      for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(p.name, text(item));
    } else if (p.in === 'header') headers.set(p.name, text(v));
    else if (p.in === 'cookie') headers.append('cookie', `${p.name}=${encodeURIComponent(text(v))}`);
    else if (p.in === 'body') body[p.name] = v;
  }
  let payload: string | undefined;
  if (op.body) {
    const value = op.body.flattened ? body : args.body;
    if (value !== undefined && (!op.body.flattened || Object.keys(body).length > 0 || op.body.required)) {
      payload = JSON.stringify(value);
      headers.set(
        'content-type',
        op.body.mediaType.includes('json') ? op.body.mediaType : 'application/json',
      );
    }
  }
  for (const [k, v] of Object.entries(target.query ?? {})) url.searchParams.set(k, v);
  for (const [k, v] of Object.entries(target.headers ?? {})) headers.set(k, v);
  headers.set('accept', 'application/json');
  return {
    url: url.toString(),
    init: {
      method: (op.method ?? 'post').toUpperCase(),
      headers,
      ...(payload !== undefined ? { body: payload } : {}),
    },
  };
}

export async function proxyCall(
  target: ProxyTarget,
  op: ApiOperation,
  args: Readonly<Record<string, unknown>>,
  fetchFn: typeof fetch,
): Promise<MockResponse> {
  const { url, init } = upstreamRequest(target, op, args);
  const origin = new URL(url).origin;
  let res: Response;
  try {
    res = await fetchFn(url, { ...init, signal: AbortSignal.timeout(target.timeoutMs ?? 10_000) });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    return {
      status: timedOut ? 504 : 502,
      headers: { 'content-type': 'application/problem+json' },
      body: {
        type: 'about:blank',
        title: timedOut ? 'Gateway Timeout' : 'Bad Gateway',
        status: timedOut ? 504 : 502,
        detail: timedOut
          ? `The upstream ${origin} did not answer in time.`
          : `The upstream ${origin} could not be reached.`,
      },
    };
  }
  const headers: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const v = res.headers.get(name);
    if (v !== null) headers[name] = v;
  }
  const raw = await res.text();
  let body: unknown = raw;
  if ((headers['content-type'] ?? '').includes('json') && raw !== '') {
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
  } else if (raw === '') body = null;
  return { status: res.status, headers, body };
}
