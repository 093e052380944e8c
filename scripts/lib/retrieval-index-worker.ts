/**
 * A minimal Worker holding the int8 sharded vector index (core/retrieval/vector-index.ts) for
 * `npm run bench:retrieval:workerd`:
 *  - `POST /reset?dim=&shardSize=` empties it;
 *  - `POST /append?rows=` appends rows quantised in Node: the body is `rows` float32 scales followed by
 *    rows × dim int8 codes (real catalog vectors, so recall means something);
 *  - `POST /query?search=exact|pruned|binary&k=` takes a little-endian float32 query vector as the body and
 *    answers the top k as JSON;
 *  - `POST /encode` embeds the body text with the lexical encoder the Worker uses locally (no IDF table), so
 *    query-encoding time is measured in workerd too.
 */
import { createEmbeddingModel } from '../../core/models/factory.ts';
import { INDEX_SEARCHES, type IndexSearch, ShardedVectorIndex } from '../../core/retrieval/vector-index.ts';

let index: ShardedVectorIndex | undefined;
const encoder = createEmbeddingModel({ provider: 'lexical' });

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const param = (name: string, fallback: number) => Number(url.searchParams.get(name) ?? fallback);
    if (url.pathname === '/reset') {
      index = new ShardedVectorIndex(param('dim', 512), { shardSize: param('shardSize', 25_000) });
      return Response.json({ size: 0 });
    }
    if (url.pathname === '/append' && index) {
      const rows = param('rows', 0);
      const body = await request.arrayBuffer();
      const scales = new Float32Array(body, 0, rows);
      const codes = new Int8Array(body, rows * 4, rows * index.dimensions);
      for (let i = 0; i < rows; i++)
        index.addQuantized(
          codes.subarray(i * index.dimensions, (i + 1) * index.dimensions),
          scales[i] as number,
        );
      return Response.json({ size: index.size, shards: index.shards.length, bytes: index.bytes });
    }
    if (url.pathname === '/query' && index) {
      const vector = new Float32Array(await request.arrayBuffer());
      const search = (url.searchParams.get('search') ?? 'pruned') as IndexSearch;
      if (!INDEX_SEARCHES.includes(search)) return new Response('bad search', { status: 400 });
      return Response.json(await index.query(vector, param('k', 5), { search }));
    }
    if (url.pathname === '/encode') {
      const [v] = await encoder.embed([await request.text()]);
      return Response.json({ dimensions: v?.length ?? 0 });
    }
    return new Response('not found', { status: 404 });
  },
};
