/**
 * `greedy` — the ReAct agent (core/agents/react-loop.ts; ToolQA-D's greedy inference chain, spec toolqa-d.md
 * §8.3) at temperature 0 with the ToolEvo agent prompt; UpdateTool lines help only within the episode.
 */
import { z } from 'zod';
import { toolEvoStepPrompts } from '../prompts/registry.ts';
import { defineMethod } from './method.ts';
import { runReact } from './react.ts';

export const greedy = defineMethod({
  id: 'greedy',
  summary:
    'ReAct agent at temperature 0 with the ToolEvo prompt; UpdateTool lines help within the episode only.',
  options: z.strictObject({}),
  aids: ['documentation', 'updateMemory', 'demonstrations'],
  memory: null,
  run: (input) => runReact(input, { prompts: toolEvoStepPrompts(false) }),
});
