/**
 * A minimal Worker holding the int8 sharded vector index (core/retrieval/vector-index.ts) for
 * `npm run bench:retrieval:workerd`: `POST /build?n=&dim=&seed=` fills it with seeded unit vectors, `POST /query`
 * takes a little-endian float32 query vector as the body and answers the top-5 as JSON.
 */
import { normalise } from '../../core/retrieval/dense.ts';
import { ShardedVectorIndex } from '../../core/retrieval/vector-index.ts';
import { Rng } from '../../core/util/random.ts';

let index: ShardedVectorIndex | undefined;

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/build') {
      const n = Number(url.searchParams.get('n') ?? 100_000);
      const dim = Number(url.searchParams.get('dim') ?? 512);
      const rng = new Rng(url.searchParams.get('seed') ?? 'index');
      index = new ShardedVectorIndex(dim);
      const v = new Float32Array(dim);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < dim; j++) v[j] = rng.float(-1, 1);
        index.add(normalise(v));
      }
      return Response.json({ size: index.size, shards: index.shards.length, bytes: index.bytes });
    }
    if (url.pathname === '/query' && index) {
      const vector = new Float32Array(await request.arrayBuffer());
      return Response.json(await index.query(vector, 5));
    }
    return new Response('not found', { status: 404 });
  },
};
