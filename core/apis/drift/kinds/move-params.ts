/**
 * `move-params` — parameters change location between the query string and the JSON body: a GET's query
 * parameters all move into a JSON body and the GET becomes a POST (`GET /search/movie?query=…` →
 * `POST /search/movie` with `{"query": …}`); an operation that already has a flattened JSON body moves some of
 * its query parameters into the body, or some scalar body properties into the query string. Paging parameters
 * stay in the query; a GET whose POST route is taken, an operation whose body is not a flattened object, and
 * path, header and cookie parameters stay as they are.
 */
import { isScalarSchema } from '../../surface/values.ts';
import { type ApiToolDraft, choose, defineApiDriftKind } from '../kind.ts';
import { draftRoutes, routeKey } from '../names.ts';

function movable(d: ApiToolDraft): 'get' | 'body' | null {
  if (d.method === undefined || d.path === undefined) return null;
  const query = d.params.filter((p) => p.in === 'query');
  if (d.method === 'get') return query.length > 0 && d.op.body === undefined ? 'get' : null;
  if (d.op.body?.flattened !== true) return null;
  const body = d.params.filter((p) => p.in === 'body' && isScalarSchema(p.schema));
  return query.length > 0 || body.length > 0 ? 'body' : null;
}

export const moveParams = defineApiDriftKind({
  id: 'move-params',
  summary:
    'parameters move between the query string and the JSON body (a GET whose parameters move becomes a POST)',
  order: 10,
  apply(work) {
    const rng = work.root.fork('move-params');
    const routes = draftRoutes(work);
    for (const d of choose(
      work.tools.filter((t) => movable(t) !== null),
      0.5,
      rng,
    )) {
      const r = work.root.fork(`move-params/${d.op.name}`);
      if (movable(d) === 'get') {
        const post = routeKey('post', d.path as string);
        if (routes.has(post)) continue;
        routes.delete(routeKey('get', d.path as string));
        routes.set(post, d.op.name);
        d.method = 'post';
        d.params = d.params.map((p) => (p.in === 'query' ? { ...p, in: 'body' } : p));
        continue;
      }
      const query = d.params.filter((p) => p.in === 'query');
      const body = d.params.filter((p) => p.in === 'body' && isScalarSchema(p.schema));
      const toBody = query.length > 0 && (body.length === 0 || r.chance(0.5));
      const moving = new Set(choose(toBody ? query : body, 0.5, r));
      d.params = d.params.map((p) => (moving.has(p) ? { ...p, in: toBody ? 'body' : 'query' } : p));
    }
  },
});
