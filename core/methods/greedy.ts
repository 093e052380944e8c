/**
 * `greedy` — the ReAct agent (core/agents/react-loop.ts; ToolQA-D's greedy inference chain, spec toolqa-d.md
 * §8.3) at temperature 0 with the ToolEvo agent prompt; UpdateTool lines help only within the episode.
 */
import { reactMethod } from './react.ts';

export const greedy = reactMethod(
  'greedy',
  'ReAct agent at temperature 0 with the ToolEvo prompt; UpdateTool lines help within the episode only.',
  false,
);
