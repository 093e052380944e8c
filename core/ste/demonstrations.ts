/**
 * The demonstrations aid (spec `ste.md`, "Exploitation", in-context learning): what an answering agent of any
 * method is given — the 8 exemplars whose queries are most similar to its question, rendered as the query
 * followed by its action and action input, separated by `---` lines, before the agent's turn
 * (`ste/demonstrations` template).
 */
import { renderDemonstrations, type SteDemonstration } from '../prompts/ste.ts';
import { STE_RETRIEVAL_K } from './constants.ts';
import type { SteExemplar } from './engine.ts';
import { heldOutKey } from './held-out.ts';
import type { ExemplarMemory } from './memory.ts';

export function demonstrationOf(e: SteExemplar): SteDemonstration {
  return { query: e.query, action: e.action, actionInput: e.actionInput };
}

/** Exemplars retrieved beyond k, so that k remain after the question's own query is left out. */
const SPARE = 2;

/**
 * The top-k demonstrations for a question (empty when the memory is empty). An exemplar whose query is the question
 * itself (held-out.ts normalisation) is never its demonstration: a test query that reached an exemplar set — one
 * imported after the exploration, say — cannot answer itself.
 */
export async function demonstrationsFor(
  memory: ExemplarMemory,
  question: string,
  k = STE_RETRIEVAL_K,
  signal?: AbortSignal,
): Promise<SteDemonstration[]> {
  const own = heldOutKey(question);
  return (await memory.retrieve(question, k + SPARE, signal))
    .filter((e) => heldOutKey(e.query) !== own)
    .slice(0, k)
    .map(demonstrationOf);
}

/** The block an agent prompt places before its turn (without the turn line, which the agent prompt has). */
export function demonstrationsBlock(demos: readonly SteDemonstration[]): string {
  return renderDemonstrations(demos, false);
}
