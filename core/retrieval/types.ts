/**
 * Chain-of-Tools retrieval (issue 14, ../shared/spec/cotools.md): the shapes every ranker, index and benchmark
 * shares. A tool pool is a list of `{name, description, parameters?}`; a query names its gold tools.
 */
import { z } from 'zod';

export const ToolSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(4000),
    /** JSON Schema of the arguments, carried along for documentation; rankers read name and description. */
    parameters: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type Tool = z.infer<typeof ToolSchema>;

export const QueryExampleSchema = z
  .object({
    query: z.string().trim().min(1).max(4000),
    /** Gold tools (names from the pool); a hit on any of them counts. */
    tools: z.array(z.string().min(1)).min(1),
  })
  .strict();
export type QueryExample = z.infer<typeof QueryExampleSchema>;

/** One ranked tool: its position in the pool and the ranker's score (higher is better). */
export interface Hit {
  index: number;
  score: number;
}

/** A ranker over a fixed pool: ranks many queries at once (dense rankers embed them in one batch). */
export interface Ranker {
  readonly id: string;
  rank(queries: string[], k: number): Promise<Hit[][]>;
}

/** Long steps report `(done, total)` so a caller can draw a progress bar. */
export type OnProgress = (done: number, total: number) => void;
