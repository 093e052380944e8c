/**
 * Real frozen vectors for the index benchmarks: the seeded synthetic catalog's tool texts and dev-query texts
 * through the lexical encoder (IDF fitted on the pool, 512-d — the encoder `npm run bench:retrieval` uses by
 * default), L2-normalised. Encoding 100,000 tools takes minutes on 2 cores, so the vectors are cached in the
 * system temp directory, keyed by (tools, queries, seed, encoder); delete the file to recompute.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEncoder } from '../../cli/retrieval/encoders.ts';
import { syntheticCatalog } from '../../core/retrieval/catalog.ts';
import { embedAll, normalise } from '../../core/retrieval/dense.ts';
import { toolText } from '../../core/retrieval/text.ts';

export interface CatalogVectors {
  dimensions: number;
  tools: Float32Array[];
  queries: Float32Array[];
  /** Seconds spent encoding (0 when read from the cache) and ms to encode one fresh query (median). */
  encodeSeconds: number;
  queryEncodeMs: number;
  cached: boolean;
}

export async function catalogVectors(
  tools: number,
  queries: number,
  seed = 'tool-catalog',
  log: (text: string) => void = () => {},
): Promise<CatalogVectors> {
  const dimensions = 512;
  const file = join(
    tmpdir(),
    `tooldrift-catalog-vectors-${seed}-${tools}-${queries}-lexical${dimensions}.f32`,
  );
  const catalog = syntheticCatalog({
    seed,
    tools,
    seenTools: Math.min(5_000, tools),
    trainPerTool: 2,
    dev: queries,
    testSeen: 0,
    testUnseen: queries,
  });
  const encoder = await loadEncoder('lexical', catalog.tools);
  // One fresh query at a time (a trailing space defeats the content-hash cache): query-encoding time.
  const encodeOne: number[] = [];
  for (const q of catalog.testUnseen.slice(0, 100)) {
    const t0 = performance.now();
    await encoder.embed([`${q.query} `]);
    encodeOne.push(performance.now() - t0);
  }
  encodeOne.sort((a, b) => a - b);
  const queryEncodeMs = encodeOne[Math.floor(encodeOne.length / 2)] ?? 0;
  const rows = catalog.tools.length + catalog.dev.length;
  if (existsSync(file)) {
    const all = new Float32Array(readFileSync(file).buffer.slice(0));
    if (all.length === rows * dimensions) {
      const at = (i: number) => all.subarray(i * dimensions, (i + 1) * dimensions);
      return {
        dimensions,
        tools: Array.from({ length: catalog.tools.length }, (_, i) => at(i)),
        queries: Array.from({ length: catalog.dev.length }, (_, i) => at(catalog.tools.length + i)),
        encodeSeconds: 0,
        queryEncodeMs,
        cached: true,
      };
    }
  }
  const t0 = performance.now();
  let last = 0;
  const toolVectors = (
    await embedAll(encoder, catalog.tools.map(toolText), {
      onProgress: (done, total) => {
        if (performance.now() - last > 15_000 || done === total) {
          log(`  encoding tools: ${done}/${total}`);
          last = performance.now();
        }
      },
    })
  ).map(normalise);
  const queryVectors = (
    await embedAll(
      encoder,
      catalog.dev.map((q) => q.query),
    )
  ).map(normalise);
  const encodeSeconds = (performance.now() - t0) / 1000;
  const all = new Float32Array(rows * dimensions);
  for (const [i, v] of [...toolVectors, ...queryVectors].entries()) all.set(v, i * dimensions);
  writeFileSync(file, new Uint8Array(all.buffer));
  return {
    dimensions,
    tools: toolVectors,
    queries: queryVectors,
    encodeSeconds,
    queryEncodeMs,
    cached: false,
  };
}
