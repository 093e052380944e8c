/**
 * The demonstrations aid (spec `ste.md`, "Exploitation", in-context learning): what an answering agent of any
 * method is given — the 8 exemplars whose queries are most similar to its question, rendered as the query
 * followed by its action and action input, separated by `---` lines, before the agent's turn
 * (`ste/demonstrations` template).
 */
import { renderDemonstrations, type SteDemonstration } from '../prompts/ste.ts';
import { STE_RETRIEVAL_K } from './constants.ts';
import type { SteExemplar } from './engine.ts';
import type { ExemplarMemory } from './memory.ts';

export function demonstrationOf(e: SteExemplar): SteDemonstration {
  return { query: e.query, action: e.action, actionInput: e.actionInput };
}

/** The top-k demonstrations for a question (empty when the memory is empty). */
export async function demonstrationsFor(
  memory: ExemplarMemory,
  question: string,
  k = STE_RETRIEVAL_K,
  signal?: AbortSignal,
): Promise<SteDemonstration[]> {
  return (await memory.retrieve(question, k, signal)).map(demonstrationOf);
}

/** The block an agent prompt places before its turn (without the turn line, which the agent prompt has). */
export function demonstrationsBlock(demos: readonly SteDemonstration[]): string {
  return renderDemonstrations(demos, false);
}
