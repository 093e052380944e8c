/**
 * `version-prefix` — every route moves under a version prefix: `/movie/{movie_id}` → `/v2/movie/{movie_id}`
 * (or `/v3`, `/api/v2`, `/api/v3`); routes that already start with a version segment (`/v1/…`, `/2/…`) get the
 * next version instead. The old routes answer 410 naming the new ones.
 */
import { defineApiDriftKind } from '../kind.ts';

const PREFIXES = ['/v2', '/v3', '/api/v2', '/api/v3'];
const VERSION = /^\/(v?)([0-9]+)(?=\/|$)/;

/** The route under the prefix: a leading version segment is bumped, else the prefix is put in front. */
export function prefixedPath(path: string, prefix: string): string {
  const m = VERSION.exec(path);
  if (m) return path.replace(VERSION, `/${m[1]}${Number(m[2]) + 1}`);
  return path === '/' ? prefix : `${prefix}${path}`;
}

export const versionPrefix = defineApiDriftKind({
  id: 'version-prefix',
  summary: 'every route moves under a version prefix',
  order: 70,
  apply(work) {
    const prefix = work.root.fork('version-prefix').pick(PREFIXES);
    for (const d of work.tools) if (d.path !== undefined) d.path = prefixedPath(d.path, prefix);
  },
});
