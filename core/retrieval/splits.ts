/**
 * Held-out splits of query files, for measuring a trained retriever where Chain-of-Tools claims its value (issue
 * 25 item 22): tools no training query names (`holdOutTools`, the paper's "unseen" tools, made from a training
 * file when the test split is not at hand) and questions kept out of training (`holdOutQueries`). Seeded, pure.
 */
import { Rng, type Seed } from '../util/random.ts';
import type { QueryExample } from './types.ts';

export interface ToolHoldOut {
  /** Training queries that name none of the held-out tools. */
  train: QueryExample[];
  /** `dev` queries that name none of them either: seen tools, new wording. */
  seen: QueryExample[];
  /** Every training and dev query that names a held-out tool: tools the retriever never trained on. */
  unseen: QueryExample[];
  /** The held-out tool names. */
  tools: string[];
}

/**
 * Holds out a seeded `share` of the tools the training queries name: their queries (training and dev) become the
 * unseen set, and no query that names one is trained on.
 */
export function holdOutTools(
  train: readonly QueryExample[],
  dev: readonly QueryExample[],
  share: number,
  seed: Seed,
): ToolHoldOut {
  const named = [...new Set(train.flatMap((q) => q.tools))].sort();
  const held = new Set(
    new Rng(seed)
      .fork('hold-out-tools')
      .shuffle(named)
      .slice(0, Math.round(share * named.length)),
  );
  const touches = (q: QueryExample) => q.tools.some((t) => held.has(t));
  return {
    train: train.filter((q) => !touches(q)),
    seen: dev.filter((q) => !touches(q)),
    unseen: [...train, ...dev].filter(touches),
    tools: [...held].sort(),
  };
}

/** A seeded `share` of the queries held out (`test`), the rest in their order (`train`). */
export function holdOutQueries(
  queries: readonly QueryExample[],
  share: number,
  seed: Seed,
): { train: QueryExample[]; test: QueryExample[] } {
  const held = new Set(
    new Rng(seed)
      .fork('hold-out-queries')
      .shuffle(queries.map((_, i) => i))
      .slice(0, Math.round(share * queries.length)),
  );
  return {
    train: queries.filter((_, i) => !held.has(i)),
    test: queries.filter((_, i) => held.has(i)),
  };
}
