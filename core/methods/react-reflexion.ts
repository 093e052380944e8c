/**
 * `react-reflexion` — the greedy ReAct agent that always uses ToolEvo's self-reflection prompt for the step after
 * a failed one (a rejected call or a tool error; ToolEVO eq. 5 applied to the single path). It differs from
 * `greedy` only in its prompt choice.
 */
import { reactMethod } from './react.ts';

export const reactReflexion = reactMethod(
  'react-reflexion',
  'Greedy ReAct agent that answers a failed step with the self-reflection prompt before its next step.',
  true,
);
