/**
 * Every prompt template by id, with the input type each one takes: the one way the system produces a prompt.
 * Production code renders through `renderPrompt(id, input)`; which id a step uses is decided by the method (its
 * `StepPrompts`), never by the loop that sends it. Implemented: the ToolEvo agent prompt and its reflection
 * variant, the STE prompts (core/prompts/ste.ts), the DRAFT prompts (core/prompts/draft.ts), the training
 * prompt of SFT/DPO records, the MCP instructions of an episode session. A new method's prompts are registered
 * the same way; a slot whose template is null is reported by `promptTemplate` as not implemented rather than
 * sending a placeholder to a model.
 *
 * - STE (simulated trial and error): an exploration prompt in which the model imagines a plausible user query for
 *   one tool and tries the tool on it, with the queries explored before as memory; and a reflection prompt that
 *   judges whether a trial fulfilled its query.
 * - DRAFT (documentation refinement through exploration): an explorer that writes queries probing what the
 *   documentation leaves unclear, an analyzer that compares documentation with the observed behaviour and
 *   proposes changes, a rewriter that produces the revised documentation, and the tool-level summary.
 */
import type { ChatMessage } from '../messages/chat.ts';
import {
  DRAFT_ANALYZE_PROMPT,
  DRAFT_EXPLORE_PROMPT,
  DRAFT_REWRITE_PROMPT,
  DRAFT_SUMMARIZE_PROMPT,
  type DraftAnalyzeInput,
  type DraftExploreInput,
  type DraftRewriteInput,
  type DraftSummarizeInput,
} from './draft.ts';
import { type ReflectionPromptInput, TOOLEVO_REFLECTION_PROMPT } from './reflection.ts';
import { MCP_INSTRUCTIONS_PROMPT, type McpInstructionsInput } from './session.ts';
import {
  STE_CALL_JUDGE_PROMPT,
  STE_DEMONSTRATIONS_PROMPT,
  STE_EXPLORE_PROMPT,
  STE_FOLLOW_UP_PROMPT,
  STE_JUDGE_PROMPT,
  STE_OBSERVATION_PROMPT,
  STE_PARAPHRASE_MORE_PROMPT,
  STE_PARAPHRASE_PROMPT,
  STE_REFLECT_PROMPT,
  STE_TEST_PROMPT,
  type SteCallJudgeInput,
  type SteDemonstrationsInput,
  type SteExploreInput,
  type SteFollowUpInput,
  type SteJudgeInput,
  type SteObservationInput,
  type SteParaphraseInput,
  type SteReflectInput,
  type SteTestInput,
} from './ste.ts';
import { type AgentPromptInput, TOOLEVO_AGENT_PROMPT } from './toolevo.ts';
import { SFT_PROMPT, type SftPromptInput, TRAINING_PROMPT, type TrainingPromptInput } from './training.ts';
import type { PromptFamily, PromptTemplate } from './types.ts';

/** One tool's documentation as a prompt shows it (`Name[params], description`). */
export type ToolDocText = string;

/** Prompt id → the input its template takes. */
export interface PromptInputs {
  'toolevo/agent': AgentPromptInput;
  'toolevo/reflection': ReflectionPromptInput;
  'ste/explore': SteExploreInput;
  'ste/follow-up': SteFollowUpInput;
  'ste/observation': SteObservationInput;
  'ste/reflect': SteReflectInput;
  'ste/judge': SteJudgeInput;
  'ste/call-judge': SteCallJudgeInput;
  'ste/test': SteTestInput;
  'ste/paraphrase': SteParaphraseInput;
  'ste/paraphrase-more': Record<string, never>;
  'ste/demonstrations': SteDemonstrationsInput;
  'draft/explore': DraftExploreInput;
  'draft/analyze': DraftAnalyzeInput;
  'draft/rewrite': DraftRewriteInput;
  'draft/summarize': DraftSummarizeInput;
  'toolevo/training': TrainingPromptInput;
  'toolevo/sft': SftPromptInput;
  'session/mcp-instructions': McpInstructionsInput;
}

export type PromptId = keyof PromptInputs;

type Templates = { [K in PromptId]: PromptTemplate<PromptInputs[K]> | null };

const TEMPLATES: Templates = {
  'toolevo/agent': TOOLEVO_AGENT_PROMPT,
  'toolevo/reflection': TOOLEVO_REFLECTION_PROMPT,
  'ste/explore': STE_EXPLORE_PROMPT,
  'ste/follow-up': STE_FOLLOW_UP_PROMPT,
  'ste/observation': STE_OBSERVATION_PROMPT,
  'ste/reflect': STE_REFLECT_PROMPT,
  'ste/judge': STE_JUDGE_PROMPT,
  'ste/call-judge': STE_CALL_JUDGE_PROMPT,
  'ste/test': STE_TEST_PROMPT,
  'ste/paraphrase': STE_PARAPHRASE_PROMPT,
  'ste/paraphrase-more': STE_PARAPHRASE_MORE_PROMPT,
  'ste/demonstrations': STE_DEMONSTRATIONS_PROMPT,
  'draft/explore': DRAFT_EXPLORE_PROMPT,
  'draft/analyze': DRAFT_ANALYZE_PROMPT,
  'draft/rewrite': DRAFT_REWRITE_PROMPT,
  'draft/summarize': DRAFT_SUMMARIZE_PROMPT,
  'toolevo/training': TRAINING_PROMPT,
  'toolevo/sft': SFT_PROMPT,
  'session/mcp-instructions': MCP_INSTRUCTIONS_PROMPT,
};

/**
 * The prompts an agent sends its model at a step of a task (the agent prompt and the STE/DRAFT slots), as
 * opposed to the training prompt and the session instructions, which are rendered for records and clients.
 */
const STEP_PROMPT_IDS = new Set<PromptId>([
  'toolevo/agent',
  'toolevo/reflection',
  'ste/explore',
  'ste/follow-up',
  'ste/observation',
  'ste/reflect',
  'ste/judge',
  'ste/paraphrase',
  'ste/paraphrase-more',
  'ste/demonstrations',
  'draft/explore',
  'draft/analyze',
  'draft/rewrite',
  'draft/summarize',
]);

const PURPOSES: Record<PromptId, string> = {
  'toolevo/agent': TOOLEVO_AGENT_PROMPT.description,
  'toolevo/reflection': TOOLEVO_REFLECTION_PROMPT.description,
  'ste/explore': STE_EXPLORE_PROMPT.description,
  'ste/follow-up': STE_FOLLOW_UP_PROMPT.description,
  'ste/observation': STE_OBSERVATION_PROMPT.description,
  'ste/reflect': STE_REFLECT_PROMPT.description,
  'ste/judge': STE_JUDGE_PROMPT.description,
  'ste/call-judge': STE_CALL_JUDGE_PROMPT.description,
  'ste/test': STE_TEST_PROMPT.description,
  'ste/paraphrase': STE_PARAPHRASE_PROMPT.description,
  'ste/paraphrase-more': STE_PARAPHRASE_MORE_PROMPT.description,
  'ste/demonstrations': STE_DEMONSTRATIONS_PROMPT.description,
  'draft/explore': DRAFT_EXPLORE_PROMPT.description,
  'draft/analyze': DRAFT_ANALYZE_PROMPT.description,
  'draft/rewrite': DRAFT_REWRITE_PROMPT.description,
  'draft/summarize': DRAFT_SUMMARIZE_PROMPT.description,
  'toolevo/training': TRAINING_PROMPT.description,
  'toolevo/sft': SFT_PROMPT.description,
  'session/mcp-instructions': MCP_INSTRUCTIONS_PROMPT.description,
};

export interface PromptSlot {
  id: PromptId;
  family: PromptFamily;
  purpose: string;
  /** The template's version, or null for a slot not implemented yet. */
  version: string | null;
}

/**
 * The prompt slots an agent sends its model at a step (agent, reflection, STE, DRAFT) with their status, in a
 * fixed order; `{ all: true }` adds the training prompt and the session instructions.
 */
export function promptSlots(options: { all?: boolean } = {}): PromptSlot[] {
  const ids = (Object.keys(TEMPLATES) as PromptId[]).filter(
    (id) => options.all === true || STEP_PROMPT_IDS.has(id),
  );
  return ids.map((id) => ({
    id,
    family: id.split('/')[0] as PromptFamily,
    purpose: PURPOSES[id],
    version: TEMPLATES[id]?.version ?? null,
  }));
}

/** The template of an implemented prompt; throws for a declared slot that is not implemented yet. */
export function promptTemplate<K extends PromptId>(id: K): PromptTemplate<PromptInputs[K]> {
  const t = TEMPLATES[id] as PromptTemplate<PromptInputs[K]> | null;
  if (!t) throw new Error(`prompt ${id} is a declared slot without a template yet`);
  return t;
}

/** Renders a registered prompt: the one way production code turns an id and its input into messages. */
export function renderPrompt<K extends PromptId>(id: K, input: PromptInputs[K]): ChatMessage[] {
  return promptTemplate(id).render(input);
}

/**
 * The ids of the prompts a ReAct step or a tree expansion renders from the agent prompt's input: the agent prompt,
 * its reflection variant, and the SFT prompt (ReAct methods with `prompt: "sft"`, which reads part of that input).
 */
export type StepPromptId = 'toolevo/agent' | 'toolevo/reflection' | 'toolevo/sft';

/**
 * Which prompt a ReAct step uses: `step` normally, `afterFailure` for the step after a failed one (a rejected
 * call or a tool error). The method decides (ToolEvo eq. 5: the reflection prompt on error states); the ReAct
 * loop and the tree expansion only apply the choice.
 */
export interface StepPrompts {
  step: StepPromptId;
  afterFailure: StepPromptId;
}

/** ToolEvo's choice: the agent prompt, and the self-reflection prompt after a failed step when `reflection`. */
export function toolEvoStepPrompts(reflection: boolean): {
  step: 'toolevo/agent';
  afterFailure: 'toolevo/agent' | 'toolevo/reflection';
} {
  return { step: 'toolevo/agent', afterFailure: reflection ? 'toolevo/reflection' : 'toolevo/agent' };
}

/** The fine-tuned model's choice (spec §8.3): the SFT prompt at every step, with no reflection prompt. */
export const SFT_STEP_PROMPTS: StepPrompts = { step: 'toolevo/sft', afterFailure: 'toolevo/sft' };
