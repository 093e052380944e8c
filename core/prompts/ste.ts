/**
 * The STE prompts (simulated trial and error, spec `ste.md`): tooldrift's own wording with the structure of the
 * authors' prompts. One exploration *episode* is one growing conversation (short-term memory):
 *
 * ```text
 * system  STE_SYSTEM
 * user    ste/explore: the explored tool's documentation, the other tools, the step format, [long-term memory
 *         block — only in the query-synthesis call that opens an episode, never stored], the query request
 * assistant  User Query: <query>                    ← query synthesis (stop "Thought:")
 * assistant  Thought / Action / Action Input        ← ReAct step (stop "Observation:")
 * user    ste/observation: Observation: <observation>
 * …       (at most 4 calls per trial; Finish gives the final answer)
 * user    ste/reflect: did you fulfil the query? Yes or No
 * assistant  Yes|No …
 * user    ste/follow-up: imagine a follow-up query   ← the next trial of the same episode
 * ```
 *
 * The judge (three Yes/No criteria) and the paraphraser are separate conversations; the demonstrations block is
 * what an answering agent is given (queries with their action and action input, `---` separators, the turn).
 *
 * Every template starts or contains a fixed marker line, so a reader of the prompt alone (the simulated policy)
 * can tell which step it is asked for.
 */
import type { ChatMessage } from '../models/types.ts';
import type { PromptTemplate } from './types.ts';

const STE_VERSION = 'ste.2';

export const STE_SYSTEM = 'You are learning to use a tool by trying it out on queries you imagine yourself.';

/** The first line of the episode prompt (also how a reader recognises an STE exploration). */
export const STE_EXPLORE_HEADER = 'You are exploring this tool:';
/** The line that ends every query request; the model answers with `User Query: …`. */
export const STE_QUERY_LABEL = 'User Query:';
export const STE_QUERY_REQUEST = `Write the query on one line starting with "${STE_QUERY_LABEL}", then solve it step by step.`;
/** Introduces the long-term memory block (spec: "already explored, with whether they were solved"). */
export const STE_LTM_INTRO = 'These queries were already explored, each with whether it was solved:';
/** The same without Solved marks (Table 2's "− self-reflection": nothing judged whether a trial succeeded). */
export const STE_LTM_INTRO_UNMARKED = 'These queries were already explored:';
export const STE_LTM_OUTRO =
  'Explore a query that teaches you something new about the tool. Avoid queries that are too close to the ones above.';
export const STE_FOLLOW_UP_MARKER = 'Now imagine a follow-up query';
/**
 * The constraints of query synthesis (paper Table 10, the authors' `prompt_explore.txt`): a query that needs the
 * tool once, written as a user who does not know the tools would ask it (no tool names, no wording copied from
 * the documentation), and specific. ToolQA-D's tools are stateful — a filter works on a database loaded first —
 * so "once" becomes "once, plus the preparatory calls the tool needs": as few calls as the tools allow.
 */
export const STE_QUERY_RULES = [
  'Rules for the query:',
  '- It needs this tool once. If the tool only works on something another tool must prepare first (for example data that has to be loaded), the query may need those preparatory calls as well, but no other calls.',
  '- Write it the way a user who does not know the tools would ask: do not name the tool or any other tool, and do not copy wording from the documentation.',
  '- Make it specific: concrete names, dates and numbers rather than placeholders or general questions.',
].join('\n');
/** The follow-up's reminder of the same rules. */
export const STE_QUERY_RULES_AGAIN =
  'The same rules apply: one call of the tool (plus the preparatory calls it needs), no tool names or documentation wording, concrete values.';
/** What the model sees instead of a call's result in Table 2's "− execution feedback" ablation. */
export const STE_NO_FEEDBACK = 'The call was made; its result is not shown in this exploration.';
export const STE_REFLECT_QUESTION =
  'Looking back at your steps, did you fulfil the user query in the end? Answer Yes or No.';
export const STE_JUDGE_HEADER = 'Judge this attempt to answer a user query with a tool.';
export const STE_PARAPHRASE_HEADER = 'Paraphrase this user query.';
export const STE_PARAPHRASE_MORE =
  'Paraphrase the same query once more, differently from your earlier versions.';
export const STE_DEMOS_HEADER = 'Examples of calls that answered similar queries:';
export const STE_DEMO_SEPARATOR = '---';
export const STE_TURN = "Now it's your turn.";

/**
 * One long-term-memory line (spec: `Query: <query> | Solved: <Yes|No>`); `solved` is null when no reflection
 * judged the trial (the "− self-reflection" ablation), and the line is then the query alone.
 */
export interface SteMemoryLine {
  query: string;
  solved: boolean | null;
}

export function ltmLine(entry: SteMemoryLine): string {
  if (entry.solved === null) return `Query: ${entry.query}`;
  return `Query: ${entry.query} | Solved: ${entry.solved ? 'Yes' : 'No'}`;
}

/** The long-term-memory block ('' without memory): intro, one line per explored query, the instruction. */
export function renderLtmBlock(memory: readonly SteMemoryLine[]): string {
  if (memory.length === 0) return '';
  const intro = memory.some((m) => m.solved !== null) ? STE_LTM_INTRO : STE_LTM_INTRO_UNMARKED;
  return `${intro}\n${memory.map(ltmLine).join('\n')}\n${STE_LTM_OUTRO}`;
}

export interface SteExploreInput {
  /** The explored tool's documentation line (`Name[params], description`). */
  tool: string;
  /** Every tool of the documentation (`(n) Name[params], description` lines), for calls the query needs. */
  toolList: string;
  /** Long-term memory, oldest first; empty → no block (the first episode, or stored history). */
  memory: readonly SteMemoryLine[];
}

const STEP_FORMAT = [
  'Answer the query in steps. Each step is:',
  'Thought: your reasoning',
  'Action: the name of exactly one tool from the list',
  'Action Input: the parameters of that tool as one JSON object',
  'The environment then answers with an Observation. When you know the answer, call Finish with it.',
].join('\n');

export function renderExplore(input: SteExploreInput): string {
  const parts = [
    `${STE_EXPLORE_HEADER}\n${input.tool}`,
    `All tools you may call:\n${input.toolList}`,
    STEP_FORMAT,
    `Imagine a plausible query a user could ask that this tool helps to answer.\n${STE_QUERY_RULES}`,
  ];
  const ltm = renderLtmBlock(input.memory);
  if (ltm !== '') parts.push(ltm);
  parts.push(STE_QUERY_REQUEST);
  return parts.join('\n\n');
}

export const STE_EXPLORE_PROMPT: PromptTemplate<SteExploreInput> = {
  id: 'ste/explore',
  family: 'ste',
  version: STE_VERSION,
  description:
    'STE episode opening: the tool documentation, the tool list, the step format, the long-term-memory block (query-synthesis call only) and the request to imagine a query.',
  render(input): ChatMessage[] {
    return [
      { role: 'system', content: STE_SYSTEM },
      { role: 'user', content: renderExplore(input) },
    ];
  },
};

export interface SteFollowUpInput {
  /**
   * Long-term memory shown in this call only (the `trial` setting of `longTermMemory`: the paper's text loads it
   * at the start of every trial); empty → no block.
   */
  memory: readonly SteMemoryLine[];
}

export const STE_FOLLOW_UP_PROMPT: PromptTemplate<SteFollowUpInput> = {
  id: 'ste/follow-up',
  family: 'ste',
  version: STE_VERSION,
  description:
    'STE next trial of an episode: imagine a follow-up query in the same conversation (with the long-term-memory block when it is shown at every trial).',
  render(input): ChatMessage[] {
    const ltm = renderLtmBlock(input.memory);
    return [
      {
        role: 'user',
        content: [
          `${STE_FOLLOW_UP_MARKER} that builds on what you have seen so far, or explores another use of the tool. ${STE_QUERY_RULES_AGAIN}`,
          ...(ltm === '' ? [] : [ltm]),
          STE_QUERY_REQUEST,
        ].join('\n\n'),
      },
    ];
  },
};

export interface SteObservationInput {
  observation: string;
}

export const STE_OBSERVATION_PROMPT: PromptTemplate<SteObservationInput> = {
  id: 'ste/observation',
  family: 'ste',
  version: STE_VERSION,
  description:
    'STE ReAct step: the observation of the last call, after which the model writes its next step.',
  render(input): ChatMessage[] {
    return [{ role: 'user', content: `Observation: ${input.observation}` }];
  },
};

export type SteReflectInput = Record<string, never>;

export const STE_REFLECT_PROMPT: PromptTemplate<SteReflectInput> = {
  id: 'ste/reflect',
  family: 'ste',
  version: STE_VERSION,
  description: 'STE reflection after a trial: did the model fulfil the query (Yes/No)?',
  render(): ChatMessage[] {
    return [{ role: 'user', content: STE_REFLECT_QUESTION }];
  },
};

export interface SteJudgeInput {
  tool: string;
  query: string;
  /** The last successfully parsed call: action, action input and its observation. */
  action: string;
  actionInput: string;
  observation: string;
  finalAnswer: string;
}

/** The three criteria (spec: Filtering), in order. */
export const STE_JUDGE_CRITERIA: readonly string[] = [
  'Does the final answer answer the query, and is it informative?',
  'Is the final answer faithful to the execution results?',
  'Were the tool calls appropriate for the query?',
];

export const STE_JUDGE_PROMPT: PromptTemplate<SteJudgeInput> = {
  id: 'ste/judge',
  family: 'ste',
  version: STE_VERSION,
  description:
    'STE filter: judge a trial with a final answer on three Yes/No criteria (informative, faithful, appropriate calls).',
  render(input): ChatMessage[] {
    const criteria = STE_JUDGE_CRITERIA.map((c, i) => `${i + 1}. ${c}`).join('\n');
    return [
      { role: 'system', content: 'You check tool-use transcripts carefully.' },
      {
        role: 'user',
        content: [
          STE_JUDGE_HEADER,
          `Tool: ${input.tool}`,
          `${STE_QUERY_LABEL} ${input.query}`,
          `Action: ${input.action}\nAction Input: ${input.actionInput}\nObservation: ${input.observation}`,
          `Final Answer: ${input.finalAnswer}`,
          `Answer each question with Yes or No, one line each, as "1. Yes":\n${criteria}`,
        ].join('\n\n'),
      },
    ];
  },
};

export interface SteCallJudgeInput {
  api: string;
  /** The gold and the predicted arguments as JSON text. */
  gold: string;
  predicted: string;
}

export const STE_CALL_JUDGE_HEADER = 'Is this API call correct, compared with the reference call?';

/**
 * STE's evaluation judge (the authors' `eval_pred_file`): is a predicted call semantically correct against the
 * gold call — not necessarily identical, but missing no important detail of the arguments. The answer starts with
 * "Yes." or "No." (core/ste/evaluation.ts reads it: correct unless it contains "No.").
 */
export const STE_CALL_JUDGE_PROMPT: PromptTemplate<SteCallJudgeInput> = {
  id: 'ste/call-judge',
  family: 'ste',
  version: STE_VERSION,
  description:
    "STE evaluation: judge whether a model's first API call is semantically correct against the gold call (Yes./No.).",
  render(input): ChatMessage[] {
    return [
      { role: 'system', content: 'You are a helpful assistant.' },
      {
        role: 'user',
        content: [
          STE_CALL_JUDGE_HEADER,
          'The call need not be identical to the reference; it must mean the same and leave out no important detail of the arguments.',
          `Reference call:\nAPI name: ${input.api}\nAPI arguments: ${input.gold}`,
          `Call to check:\nAPI name: ${input.api}\nAPI arguments: ${input.predicted}`,
          'Begin your answer with "Yes." or "No.".\nYour answer:',
        ].join('\n\n'),
      },
    ];
  },
};

export interface SteTestInput {
  /** The documentation of the APIs the query may use (STE's `api_descriptions`). */
  apiDescriptions: string;
  apiNames: readonly string[];
  query: string;
  /** Retrieved demonstrations (STE's 8 nearest exemplars), when the protocol gives them. */
  demonstrations?: readonly SteDemonstration[];
}

export const STE_TEST_HEADER = 'Answer the user query with the API below, one call at a time.';

/**
 * STE's test-time prompt (the authors' `prompt_template.txt` structure, tooldrift's wording): the API documentation,
 * the call format, the allowed names, the JSON argument format, the demonstrations if any, then the query. Only the
 * model's first output is scored (core/ste/evaluation.ts).
 */
export const STE_TEST_PROMPT: PromptTemplate<SteTestInput> = {
  id: 'ste/test',
  family: 'ste',
  version: STE_VERSION,
  description:
    "STE evaluation: the test-time prompt (API documentation, call format, allowed names, demonstrations, the query); the model's first call is scored.",
  render(input): ChatMessage[] {
    const demos = renderDemonstrations(input.demonstrations ?? [], false);
    return [
      {
        role: 'user',
        content: [
          STE_TEST_HEADER,
          input.apiDescriptions,
          'Call an API by writing "Action:" with its name, then "Action Input:" with its arguments as one JSON object. The API\'s answer comes back after "Observation:". Make a single call at a time.',
          `The only names allowed after "Action:" are: ${input.apiNames.join(', ')}`,
          'Once you know the answer, write "Final Answer:" followed by it.',
          ...(demos !== '' ? [demos] : []),
          `${STE_QUERY_LABEL} ${input.query}`,
        ].join('\n\n'),
      },
    ];
  },
};

export interface SteParaphraseInput {
  query: string;
}

export const STE_PARAPHRASE_PROMPT: PromptTemplate<SteParaphraseInput> = {
  id: 'ste/paraphrase',
  family: 'ste',
  version: STE_VERSION,
  description:
    'STE paraphrase: reword an exemplar query keeping its meaning and values (later paraphrases follow in the same conversation).',
  render(input): ChatMessage[] {
    return [
      { role: 'system', content: 'You rewrite user queries.' },
      {
        role: 'user',
        content: `${STE_PARAPHRASE_HEADER} Keep its meaning and every value in it exactly; change the wording. Reply with the paraphrase only.\n\n${STE_QUERY_LABEL} ${input.query}`,
      },
    ];
  },
};

export const STE_PARAPHRASE_MORE_PROMPT: PromptTemplate<Record<string, never>> = {
  id: 'ste/paraphrase-more',
  family: 'ste',
  version: STE_VERSION,
  description: 'STE paraphrase, second and later: one more paraphrase in the same conversation.',
  render(): ChatMessage[] {
    return [{ role: 'user', content: STE_PARAPHRASE_MORE }];
  },
};

/** One in-context demonstration: a query with the action and action input that answered it. */
export interface SteDemonstration {
  query: string;
  action: string;
  actionInput: string;
}

export interface SteDemonstrationsInput {
  demonstrations: readonly SteDemonstration[];
}

/**
 * The demonstrations block (spec: Exploitation): each demonstration is the query followed by its action and
 * action input, separated by `---` lines, then the turn. Empty without demonstrations.
 */
export function renderDemonstrations(demos: readonly SteDemonstration[], turn = true): string {
  if (demos.length === 0) return '';
  const body = demos
    .map((d) => `${STE_QUERY_LABEL} ${d.query}\nAction: ${d.action}\nAction Input: ${d.actionInput}`)
    .join(`\n${STE_DEMO_SEPARATOR}\n`);
  return `${STE_DEMOS_HEADER}\n${body}\n${STE_DEMO_SEPARATOR}${turn ? `\n${STE_TURN}` : ''}`;
}

export const STE_DEMONSTRATIONS_PROMPT: PromptTemplate<SteDemonstrationsInput> = {
  id: 'ste/demonstrations',
  family: 'ste',
  version: STE_VERSION,
  description:
    'STE in-context demonstrations: retrieved exemplar queries with their action and action input, `---` separators, then the turn.',
  render(input): ChatMessage[] {
    return [{ role: 'user', content: renderDemonstrations(input.demonstrations) }];
  },
};
