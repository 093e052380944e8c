/**
 * JSON calls to a second local instance a test starts itself (test/e2e/slow-model.test.ts, restart.test.ts): `api`
 * expects a 2xx and parses the answer, `all` reads every page of a keyset-paged list (`{ items, nextCursor }`).
 */
import { expect } from 'vitest';

export interface InstanceApi {
  api: <T>(path: string, init?: { method?: string; body?: unknown }) => Promise<T>;
  all: <T>(path: string) => Promise<T[]>;
}

/** `baseUrl` is read at each call (the instance is started in a `beforeAll`). */
export function instanceApi(baseUrl: () => string, key: string): InstanceApi {
  const api = async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const res = await fetch(`${baseUrl()}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const text = await res.text();
    expect(res.status, `${path}: ${text.slice(0, 500)}`).toBeLessThan(300);
    return JSON.parse(text) as T;
  };
  const all = async <T>(path: string): Promise<T[]> => {
    const out: T[] = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const page: { items: T[]; nextCursor: string | null } = await api(
        `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      out.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  };
  return { api, all };
}
