/**
 * `mcts` — a small ToolEvo search per task (core/search: MCTS with self-reflection and tool update, ToolEVO
 * §3.2–3.3, spec toolqa-d.md §8.1); its answer is the Finish of the path core/search/answer.ts picks (the first
 * correct Finish when the search found one).
 *
 * Options are the search budget; the model-call cap defaults to simulations × depth × 2. The temperature is the
 * search's own (0.5) unless the model choice sets one.
 */
import { z } from 'zod';
import { answerLeaf } from '../search/answer.ts';
import { createSearch, runSearch, searchEnv } from '../search/mcts.ts';
import { node, pathTo, solutions } from '../search/tree.ts';
import { defineMethod, memoryText, outcomeLabel } from './method.ts';

export const MctsBudgetSchema = z.strictObject({
  simulations: z.number().int().min(1).max(50).default(8),
  k: z.number().int().min(1).max(5).default(3),
  maxDepth: z.number().int().min(1).max(30).default(15),
});

export const mcts = defineMethod({
  id: 'mcts',
  summary:
    'A small ToolEvo Monte Carlo tree search per task (self-reflection, tool update); answers its best path.',
  options: MctsBudgetSchema,
  aids: ['documentation', 'demonstrations'],
  memory: null,
  async run(input) {
    const clock = input.clock ?? Date.now;
    const started = clock();
    const budget = input.options;
    const tree = createSearch(
      {
        ...(input.task.id !== undefined ? { id: input.task.id } : {}),
        question: input.task.question,
        gold: input.task.gold,
      },
      {
        mode: 'mcts',
        simulations: budget.simulations,
        k: budget.k,
        maxDepth: budget.maxDepth,
        maxModelCalls: input.limits.maxModelCalls ?? budget.simulations * budget.maxDepth * 2,
        ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
        seed: input.seeds.search,
      },
    );
    const demonstrations = input.aids.demonstrations
      ? await input.aids.demonstrations(input.task.question)
      : [];
    await runSearch(
      tree,
      searchEnv(tree, {
        model: input.model,
        world: input.world,
        surface: input.surface,
        docs: input.aids.documentation,
        deps: input.deps,
        demonstrations,
        ...(input.now ? { now: input.now } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      }),
    );
    const leaf = answerLeaf(tree);
    const end = leaf === null ? null : node(tree, leaf);
    const finished = end?.ending === 'finish';
    return {
      answer: finished ? (end?.state.answer ?? null) : null,
      correct: finished && end?.reward === 1,
      ending: finished ? 'finish' : end?.terminal ? 'budget' : 'open',
      steps: (leaf === null ? [] : pathTo(tree, leaf)).map((id) => {
        const n = node(tree, id);
        return {
          text: n.text,
          observation: n.observation,
          ...(n.action !== undefined ? { action: n.action } : {}),
          outcome: outcomeLabel(n.outcome),
        };
      }),
      toolUpdates: end ? end.state.newTools.map(memoryText) : [],
      modelCalls: tree.usage.modelCalls,
      inputTokens: tree.usage.inputTokens,
      outputTokens: tree.usage.outputTokens,
      latencyMs: Math.max(0, clock() - started),
      model: tree.model ?? input.model.model,
      newTools: end ? [...end.state.newTools] : [],
      search: {
        nodes: tree.nodes.length,
        iterations: tree.iteration,
        solutions: solutions(tree).length,
        ending: end?.ending ?? null,
      },
    };
  },
});
