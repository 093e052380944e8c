/**
 * The CLI's HTTP client: bearer auth, JSON in and out, and every failure turned into a `CliError` whose lines
 * say what went wrong — an RFC 9457 problem from the server (`<title>: <detail>` and each field error), a
 * non-problem HTTP failure, or a server that cannot be reached. The key is sent, never printed.
 */
import { CliError, type ProblemLike, problemLines } from './problem.ts';

export type Fetch = typeof fetch;

export interface ApiClientOptions {
  baseUrl: string;
  key: string;
  fetch?: Fetch;
}

/** Failure exit codes: usage and client-side validation 2, anything the server or network answered 1. */
export const EXIT_USAGE = 2;
export const EXIT_FAILURE = 1;

export class ApiClient {
  readonly baseUrl: string;
  private readonly key: string;
  private readonly fetchImpl: Fetch;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.key = options.key;
    this.fetchImpl = options.fetch ?? fetch;
  }

  get<T>(path: string, query?: Record<string, string | number | undefined>): Promise<T> {
    return this.json<T>('GET', withQuery(path, query));
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return this.json<T>('POST', path, body);
  }

  put<T>(path: string, body: unknown): Promise<T> {
    return this.json<T>('PUT', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.json<T>('DELETE', path);
  }

  /** A successful response whose body the caller streams (exports). */
  async stream(path: string, query?: Record<string, string | number | undefined>): Promise<Response> {
    const res = await this.send('GET', withQuery(path, query));
    if (!res.ok) throw await responseError(res);
    return res;
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.send(method, path, body);
    if (!res.ok) throw await responseError(res);
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new CliError(
        [`Unexpected response from ${this.baseUrl}${path}: HTTP ${res.status} is not JSON.`],
        EXIT_FAILURE,
      );
    }
  }

  private async send(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.key}`,
      accept: 'application/json, application/problem+json, application/x-ndjson',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await this.fetchImpl(`${this.baseUrl}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      throw connectionError(this.baseUrl, err);
    }
  }
}

function withQuery(path: string, query?: Record<string, string | number | undefined>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** A server answer that is not 2xx: its problem document when it sent one, else the status and a snippet. */
export async function responseError(res: Response): Promise<CliError> {
  const text = await res.text().catch(() => '');
  let problem: ProblemLike | null = null;
  try {
    const parsed = JSON.parse(text) as Partial<ProblemLike>;
    if (parsed && typeof parsed.title === 'string') problem = parsed as ProblemLike;
  } catch {
    // not JSON: described below
  }
  if (!problem) {
    const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 200);
    problem = {
      title: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`,
      status: res.status,
      detail: snippet || 'the server sent no problem details',
    };
  }
  return new CliError(problemLines(problem), EXIT_FAILURE, problem);
}

/** fetch() rejects with a bare "fetch failed": dig out the system error code so the message says why. */
export function connectionError(baseUrl: string, err: unknown): CliError {
  let cause: unknown = err;
  let code: string | undefined;
  let message = err instanceof Error ? err.message : String(err);
  while (cause && typeof cause === 'object' && !code) {
    const c = cause as { code?: unknown; cause?: unknown; errors?: unknown[]; message?: unknown };
    if (typeof c.message === 'string' && c.message) message = c.message;
    if (typeof c.code === 'string') code = c.code;
    else if (Array.isArray(c.errors) && c.errors.length > 0) cause = c.errors[0];
    else cause = c.cause;
  }
  const why = code ?? message;
  const hint =
    code === 'ECONNREFUSED'
      ? ' Is it running? Start a local instance with `npm start`, or pass --url.'
      : code === 'ENOTFOUND'
        ? ' Check the host name in --url.'
        : '';
  return new CliError([`Cannot reach tooldrift at ${baseUrl} (${why}).${hint}`], EXIT_FAILURE);
}
