/**
 * `react-reflexion` — the greedy ReAct agent that always uses ToolEvo's self-reflection prompt for the step after
 * a failed one (a rejected call or a tool error; ToolEVO eq. 5 applied to the single path). It differs from
 * `greedy` only in its prompt choice.
 */
import { z } from 'zod';
import { toolEvoStepPrompts } from '../prompts/registry.ts';
import { defineMethod } from './method.ts';
import { runReact } from './react.ts';

export const reactReflexion = defineMethod({
  id: 'react-reflexion',
  summary:
    'Greedy ReAct agent that answers a failed step with the self-reflection prompt before its next step.',
  options: z.strictObject({}),
  aids: ['documentation', 'updateMemory', 'demonstrations'],
  memory: null,
  run: (input) => runReact(input, { prompts: toolEvoStepPrompts(true) }),
});
