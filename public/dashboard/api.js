/**
 * The dashboard's HTTP client. The API key is asked for once and kept in localStorage; it travels only in the
 * `Authorization` header, never in a URL. Problem responses (RFC 9457) become `ApiError`s carrying the problem,
 * so views can show its `title` and `detail`. Server-Sent Events are read with fetch streaming, because
 * EventSource cannot send the Authorization header the event routes require.
 */
const KEY_STORAGE = 'tooldrift.apiKey';

export function getKey() {
  return localStorage.getItem(KEY_STORAGE);
}

export function setKey(key) {
  if (key) localStorage.setItem(KEY_STORAGE, key);
  else localStorage.removeItem(KEY_STORAGE);
}

/** What to do about a 403: every 403 tooldrift answers is a user key on an admin-only route. */
export const ADMIN_KEY_HINT =
  'This page needs an admin key (one of ADMIN_API_KEYS; dev-admin-key on a local npm start): enter it in the API key field.';

export class ApiError extends Error {
  constructor(status, problem) {
    const message = problem.detail || problem.title || `HTTP ${status}`;
    super(status === 403 ? `${message} ${ADMIN_KEY_HINT}` : message);
    this.status = status;
    this.problem = problem;
  }
}

function headers(extra = {}) {
  const h = { accept: 'application/json, application/problem+json', ...extra };
  const key = getKey();
  if (key) h.authorization = `Bearer ${key}`;
  return h;
}

async function problemOf(res) {
  const text = await res.text();
  try {
    const body = JSON.parse(text);
    if (body && typeof body === 'object') return body;
  } catch {
    // not JSON: described below
  }
  return { title: `HTTP ${res.status}`, detail: text.slice(0, 300) || res.statusText, status: res.status };
}

/** JSON request; throws ApiError for any non-2xx answer. Returns null for 204. */
export async function api(path, { method = 'GET', body, signal } = {}) {
  const init = { method, headers: headers(), signal };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  if (!res.ok) throw new ApiError(res.status, await problemOf(res));
  if (res.status === 204) return null;
  return res.json();
}

/**
 * Every item of a list (GET answering `{ items, nextCursor }`), following `cursor` page by page up to `maxPages`
 * pages of `limit` (what a dropdown of surfaces or a table of one's schedules needs); `{ items, more }` says
 * whether the list went on past the cap.
 */
export async function apiAll(path, { signal, limit = 100, maxPages = 10 } = {}) {
  const items = [];
  let cursor;
  for (let page = 0; page < maxPages; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const body = await api(`${path}${sep}${query({ limit, cursor }).slice(1)}`, { signal });
    items.push(...body.items);
    cursor = body.nextCursor;
    if (!cursor) return { ...body, items, more: false };
  }
  return { items, more: true };
}

/** A query string from an object, leaving out empty values. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * Reads an event stream, calling `onEvent(name, data)` for each event (data parsed as JSON when it is JSON).
 * Resolves when the server ends the stream; aborting `signal` stops reading.
 */
export async function streamEvents(path, onEvent, signal) {
  const res = await fetch(path, { headers: headers({ accept: 'text/event-stream' }), signal });
  if (!res.ok) throw new ApiError(res.status, await problemOf(res));
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      const text = data.join('\n');
      let parsed = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // plain text data
      }
      onEvent(name, parsed);
      cut = buffer.indexOf('\n\n');
    }
  }
}
