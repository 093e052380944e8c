/**
 * The registered agent methods: one line per method. Registering a method is adding its line here; the
 * registry (registry.ts) lists them in the order of their export names.
 */
export { greedy } from './greedy.ts';
export { greedyMemory } from './greedy-memory.ts';
export { mcts, mctsNoCachedRollout, mctsNoReflection, mctsNoToolUpdate, mctsOracle } from './mcts.ts';
export { reactReflexion } from './react-reflexion.ts';
