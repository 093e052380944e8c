/**
 * The demonstrations aid at the edge (core/aids `demonstrations`): an exemplar set is an STE run; its exemplars
 * are read from D1, embedded with the configured embedding model (Workers AI in production, the lexical model
 * offline) into an exemplar memory, and each question gets its `count` most similar exemplars
 * (core/ste/memory.ts, core/ste/demonstrations.ts).
 */
import type { AidContext } from '../core/aids/index.ts';
import { demonstrationsFor } from '../core/ste/demonstrations.ts';
import { ExemplarMemory } from '../core/ste/memory.ts';
import type { Bindings } from './env.ts';
import { embeddingModelFor } from './models.ts';
import { exemplarOfRow, steExemplarsOfRun } from './stores/ste.ts';

/** Exemplars one set may contribute (15 episodes × 4 trials × 7 with paraphrases × 11 tools is 4,620). */
export const MAX_SET_EXEMPLARS = 20_000;

export function steDemonstrations(env: Bindings): NonNullable<AidContext['demonstrations']> {
  return async (set, count) => {
    const rows = await steExemplarsOfRun(env.DB, set, MAX_SET_EXEMPLARS);
    if (rows.length === 0) return null;
    const memory = new ExemplarMemory(embeddingModelFor(env));
    await memory.add(rows.map(exemplarOfRow));
    return (question) => demonstrationsFor(memory, question, count);
  };
}
