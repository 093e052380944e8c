/**
 * The STE exploration engine for one tool (spec `ste.md`, "Exploration" and "Filtering"), as a resumable state
 * machine: `advance(ctx, state, budget)` makes at most `budget` model calls and returns the new state, which is
 * a plain JSON value (store it, send it, resume it anywhere). Running the engine in many small chunks with the
 * state serialised between them gives exactly the result of one run: every request's seed is derived from the
 * run seed and the call's position (tool, phase, episode, trial, turn), never from a counter of the chunk.
 *
 * Phases, in order:
 * 1. `query` — query synthesis (paper §2.1, Table 10: a query that needs the tool once — plus the preparatory
 *    calls a stateful tool needs —, names no tool, copies no documentation, is specific): at the start of an
 *    episode the `ste/explore` prompt with the long-term-memory block (every query explored so far for the tool,
 *    `Query: … | Solved: Yes/No`) — the block is sent in that call only and the stored conversation keeps the
 *    prompt without it; later trials of the episode append `ste/follow-up` to the same conversation (short-term
 *    memory), with the block too when `longTermMemory: 'trial'` (the paper's text: "loaded into the context at
 *    the beginning of every trial … and then offloaded"). Stop at "Thought:".
 * 2. `step` — ReAct steps (stop at "Observation:"), each run on the exploration target
 *    (`core/sessions/targets.ts`: a kernel surface through its adapter, or an imported API through its session
 *    step); at most `maxCalls` per trial, a parse error uses a turn and its error text is the observation; Finish
 *    ends the trial with a final answer. Without execution
 *    feedback (Table 2) the calls still run — the exemplar and the judge see the real result — but the model is
 *    shown `STE_NO_FEEDBACK` instead.
 * 3. `reflect` — `ste/reflect`; the trial failed if the reply contains "No" anywhere (the authors' parse). The
 *    result is the `Solved:` mark of the trial's long-term-memory line. Without self-reflection (Table 2) there
 *    is no call and the line has no mark.
 *
 * The paper's ablations (§4.2, Table 2) are options: `executionFeedback: false`, `shortTermMemory: false` (every
 * trial its own episode: episodes × trials episodes of one trial, "we extend the number of episodes to preserve
 * the total number of trials"), `longTermMemory: 'off'`, `selfReflection: false`.
 * 4. `judge` — every trial that ended with a final answer and made a call before it is judged on the three
 *    criteria (`ste/judge`, the last successfully parsed call with its observation and the final answer); any
 *    "No" rejects it. Trials without a final answer are not judged (dropped as `no-final-answer`); a final
 *    answer without any parsed call is dropped without a judge call (`no-call`: an exemplar needs an action —
 *    a tooldrift decision, the authors' filter had nothing to show either).
 * 5. `paraphrase` — each kept exemplar is paraphrased `paraphraseCount(kept)` times, the first in one call and
 *    the rest in the same conversation (`ste/paraphrase`, `ste/paraphrase-more`).
 * 6. `done`.
 *
 * The environment state is fresh for each trial (every imagined query is a new task); the conversation keeps
 * the earlier trials of the episode. The paper's 15 held-out test queries per API are never exploration data: a
 * run given their keys (`heldOut`, held-out.ts) records a trial that imagined one as `held-out` (not judged, no
 * exemplar) and drops a paraphrase reproducing one.
 *
 * Deliberate differences from the STE paper and the authors' code:
 * - Long-term memory defaults to the query call that opens an episode (the spec's reading of the authors' code);
 *   the paper's text loads it at the start of every trial (`longTermMemory: 'trial'`). The authors' `main.py`
 *   at the stored commit also adds it to every follow-up query — i.e. the paper's behaviour.
 * - "Once" in the query-synthesis constraint allows the preparatory calls a stateful tool needs (a filter needs a
 *   loaded database); ToolBench's endpoints were stateless. The query request and the solving are one turn (the
 *   authors ask for the query alone, then send the solving instructions).
 * - Table 2's ablations are tooldrift's readings where the paper gives no mechanism: without execution feedback
 *   the calls still run (the judge and the exemplar see the real result) and the model is shown a fixed notice,
 *   parse errors included; without self-reflection no reflection call is made and memory lines carry no mark.
 */
import type { ChatMessage, GenerateRequest, TextModel, Usage } from '../models/types.ts';
import { addUsage, emptyUsage } from '../models/types.ts';
import { renderPrompt } from '../prompts/registry.ts';
import { STE_NO_FEEDBACK, STE_QUERY_LABEL, type SteMemoryLine } from '../prompts/ste.ts';
import { PROMPT_VERSION } from '../prompts/types.ts';
import { kernelTarget, type ToolTarget, targetOf } from '../sessions/targets.ts';
import type { Surface } from '../surfaces/model.ts';
import { hash128 } from '../util/random.ts';
import type { KernelDeps } from '../world/kernel/kernel.ts';
import { pyStrip } from '../world/kernel/python-text.ts';
import { createKernelDeps } from '../world/kernel-deps.ts';
import { parseReact } from '../world/react-parse.ts';
import type { World } from '../world/types.ts';
import {
  paraphraseCount,
  STE_EPISODES,
  STE_JUDGE_MAX_TOKENS,
  STE_LONG_TERM_MEMORY,
  STE_MAX_CALLS,
  STE_MAX_TOKENS,
  STE_PARAPHRASE_MAX_TOKENS,
  STE_QUERY_STOP,
  STE_STEP_STOP,
  STE_TEMPERATURE,
  STE_TRIALS,
  type SteLongTermMemory,
} from './constants.ts';
import { heldOutTest } from './held-out.ts';

export interface SteOptions {
  /** The exposed name of the explored tool on the server surface. */
  tool: string;
  /** Run seed: every request's seed derives from it and the call's position. */
  seed: string;
  episodes: number;
  trials: number;
  maxCalls: number;
  /** Filter and paraphrase after exploring (default true); false stops after the last reflection. */
  filter: boolean;
  paraphrase: boolean;
  /**
   * When the long-term-memory block is shown (§2.1): `episode` — in the query call that opens an episode (the
   * authors' code as the spec describes it; default); `trial` — at the start of every trial (the paper's text
   * and Figure 2); `off` — never (Table 2, "− long-term memory").
   */
  longTermMemory: SteLongTermMemory;
  /** Table 2 "− execution feedback" when false: the model is not shown what its calls returned. */
  executionFeedback: boolean;
  /**
   * Table 2 "− short-term memory" when false: every trial is its own episode (a fresh conversation), and the
   * trial count is kept — `episodes` × `trials` episodes of one trial each (resolved by `steOptions`).
   */
  shortTermMemory: boolean;
  /** Table 2 "− self-reflection" when false: no reflection call; memory lines carry no Solved mark. */
  selfReflection: boolean;
  /**
   * Keys of held-out test queries (held-out.ts): a trial whose query is one never becomes an exemplar (verdict
   * `held-out`, not judged) and a paraphrase reproducing one is dropped. Absent: none.
   */
  heldOut?: string[];
}

export type SteOptionsInput = Pick<SteOptions, 'tool' | 'seed'> & Partial<Omit<SteOptions, 'tool' | 'seed'>>;

/** One ReAct step of a trial. */
export interface SteStep {
  /** The generated text (cut at "Observation:"). */
  text: string;
  observation: string;
  /** The parsed action name (absent when the text could not be parsed). */
  action?: string;
  /** The raw Action Input text (absent when the text could not be parsed). */
  actionInput?: string;
  /** The call reached the kernel and did not fail (Finish included). */
  ok: boolean;
  /** The step gave the final answer (Finish). */
  final?: true;
}

export interface SteTrial {
  episode: number;
  trial: number;
  query: string;
  steps: SteStep[];
  /** Python str() of the Finish answer, or null when the trial ended without one. */
  finalAnswer: string | null;
  /** The reflection reply and its parse (failed if "No" appears anywhere); '' and null without self-reflection. */
  reflection: string;
  solved: boolean | null;
}

export type SteVerdict =
  | { kind: 'kept'; reply: string; criteria: (boolean | null)[] }
  | { kind: 'rejected'; reply: string; criteria: (boolean | null)[] }
  | { kind: 'no-final-answer' }
  | { kind: 'no-call' }
  /** The query is one of the held-out test queries: never exploration data (held-out.ts). */
  | { kind: 'held-out' };

export interface SteExemplar {
  /** `{tool}/{episode}.{trial}` for an explored exemplar, `…/p{n}` for its paraphrases. */
  id: string;
  tool: string;
  query: string;
  action: string;
  actionInput: string;
  observation: string;
  finalAnswer: string;
  episode: number;
  trial: number;
  /** The id of the exemplar this one paraphrases. */
  paraphraseOf?: string;
}

export type StePhase = 'query' | 'step' | 'reflect' | 'judge' | 'paraphrase' | 'done';

export interface SteState {
  version: 1;
  options: SteOptions;
  phase: StePhase;
  episode: number;
  trial: number;
  /** The current episode's conversation (short-term memory), without the long-term-memory block. */
  conversation: ChatMessage[];
  /** The trial in progress; `env` is the target's environment (a JSON value: the kernel's state, an API session's). */
  current: { query: string; steps: SteStep[]; env: unknown; finalAnswer: string | null } | null;
  /** Long-term memory: every query explored for the tool, with the reflection's mark. */
  memory: SteMemoryLine[];
  trials: SteTrial[];
  /** Index into `trials` of the next trial to judge. */
  judged: number;
  verdicts: SteVerdict[];
  exemplars: SteExemplar[];
  /** Paraphrasing: the kept exemplar being paraphrased, the paraphrases made of it, its conversation. */
  paraphrasing: { index: number; made: number; conversation: ChatMessage[] };
  calls: number;
  usage: Usage;
  /** The model as the provider named it in the last response (the simulator labels itself). */
  model: string | null;
  promptVersion: string;
}

interface SteContextBase {
  model: TextModel;
  /** The filter's judge (the authors used a stronger model); default: `model`. */
  judge?: TextModel;
  now?: Date;
  signal?: AbortSignal;
}

/**
 * Where the explored tool lives: a kernel surface over the world (the fields below), or any backend's tools as an
 * exploration target (`core/sessions/targets.ts`: an imported API's operations through its session step).
 */
export type SteContext = SteContextBase &
  (
    | {
        world: World;
        /** The surface the server runs; tool calls go through its adapter. */
        surface: Surface;
        /** The surface whose documentation the prompts show (default: `surface`). */
        docs?: Surface;
        deps?: KernelDeps;
        target?: undefined;
      }
    | { target: ToolTarget }
  );

/** The context's exploration target (a kernel surface's is built once per context). */
export function steTarget(ctx: SteContext): ToolTarget {
  if (ctx.target) return ctx.target;
  return targetOf(
    ctx,
    () =>
      kernelTarget({
        world: ctx.world,
        surface: ctx.surface,
        ...(ctx.docs ? { docs: ctx.docs } : {}),
        deps: ctx.deps ?? createKernelDeps({}),
        ...(ctx.now ? { now: ctx.now } : {}),
      }) as ToolTarget,
  );
}

/**
 * The options with defaults filled in. Without short-term memory the trial count is kept by turning the episodes
 * into episodes × trials episodes of one trial (idempotent: a resolved value has one trial per episode).
 */
export function steOptions(input: SteOptionsInput): SteOptions {
  const shortTermMemory = input.shortTermMemory ?? true;
  const episodes = input.episodes ?? STE_EPISODES;
  const trials = input.trials ?? STE_TRIALS;
  const o: SteOptions = {
    tool: input.tool,
    seed: input.seed,
    episodes: shortTermMemory ? episodes : episodes * trials,
    trials: shortTermMemory ? trials : 1,
    maxCalls: input.maxCalls ?? STE_MAX_CALLS,
    filter: input.filter ?? true,
    paraphrase: input.paraphrase ?? true,
    longTermMemory: input.longTermMemory ?? 'episode',
    executionFeedback: input.executionFeedback ?? true,
    shortTermMemory,
    selfReflection: input.selfReflection ?? true,
  };
  if (input.heldOut && input.heldOut.length > 0) o.heldOut = [...input.heldOut];
  if (!STE_LONG_TERM_MEMORY.includes(o.longTermMemory))
    throw new RangeError(`STE longTermMemory must be one of ${STE_LONG_TERM_MEMORY.join(', ')}`);
  for (const [k, v] of [
    ['episodes', o.episodes],
    ['trials', o.trials],
    ['maxCalls', o.maxCalls],
  ] as const) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`STE ${k} must be an integer ≥ 1, got ${v}`);
  }
  return o;
}

export function initialSteState(input: SteOptionsInput): SteState {
  return {
    version: 1,
    options: steOptions(input),
    phase: 'query',
    episode: 0,
    trial: 0,
    conversation: [],
    current: null,
    memory: [],
    trials: [],
    judged: 0,
    verdicts: [],
    exemplars: [],
    paraphrasing: { index: 0, made: 0, conversation: [] },
    calls: 0,
    usage: emptyUsage(),
    model: null,
    promptVersion: PROMPT_VERSION,
  };
}

/** The explored tool's documentation line and the whole tool list, as the target documents them. */
export function toolDocs(target: ToolTarget, tool: string): { tool: string; toolList: string } {
  return { tool: target.toolLine(tool), toolList: target.toolList() };
}

function requestSeed(state: SteState, label: string): number {
  return hash128(`${state.options.seed}/${state.options.tool}/${label}`)[0];
}

function cut(text: string, stops: readonly string[]): string {
  let end = text.length;
  for (const s of stops) {
    const at = text.indexOf(s);
    if (at >= 0 && at < end) end = at;
  }
  return text.slice(0, end);
}

/** The query out of a query-synthesis reply: the text after `User Query:` up to the line end (else the first line). */
export function parseQuery(reply: string): string {
  const at = reply.indexOf(STE_QUERY_LABEL);
  const from = at >= 0 ? reply.slice(at + STE_QUERY_LABEL.length) : reply;
  return pyStrip(from.trim().split('\n')[0] ?? '');
}

/** The authors' reflection parse: the trial failed if "No" appears anywhere in the reply. */
export function reflectionSolved(reply: string): boolean {
  return !reply.includes('No');
}

/**
 * The judge's three Yes/No answers (null where a criterion was not answered) and the decision: kept only when
 * no "No" appears (any "No" rejects, as in the reflection parse) and at least one "Yes" does.
 */
export function parseJudge(reply: string): { kept: boolean; criteria: (boolean | null)[] } {
  const criteria: (boolean | null)[] = [null, null, null];
  for (const m of reply.matchAll(/(?:^|\n)\s*\(?([123])[.):]?\s*(Yes|No)\b/g)) {
    criteria[Number(m[1]) - 1] = m[2] === 'Yes';
  }
  const kept = !reply.includes('No') && /Yes/.test(reply);
  return { kept, criteria };
}

/** A paraphrase reply → the query (first non-empty line, without a label or quotes). */
export function parseParaphrase(reply: string): string {
  const line = reply.split('\n').find((l) => l.trim() !== '') ?? '';
  return pyStrip(
    line
      .trim()
      .replace(/^(User Query:|Paraphrase:|Query:)\s*/i, '')
      .replace(/^"(.*)"$/, '$1'),
  );
}

async function call(
  ctx: SteContext,
  state: SteState,
  model: TextModel,
  messages: ChatMessage[],
  label: string,
  opts: { stop?: string[]; maxTokens: number },
): Promise<string> {
  const request: GenerateRequest = {
    messages,
    n: 1,
    temperature: STE_TEMPERATURE,
    maxTokens: opts.maxTokens,
    seed: requestSeed(state, label),
  };
  if (opts.stop) request.stop = opts.stop;
  const response = await model.generate(request, ctx.signal);
  state.calls++;
  state.usage = addUsage(state.usage, response.usage);
  state.model = response.model;
  return response.candidates[0]?.text ?? '';
}

/** The last successfully parsed call before the final answer (what the judge and the exemplar show). */
export function lastCall(steps: readonly SteStep[]): SteStep | null {
  return steps.findLast((s) => s.action !== undefined && s.actionInput !== undefined && !s.final) ?? null;
}

function nextTrialOrEpisode(state: SteState): void {
  state.current = null;
  if (state.trial + 1 < state.options.trials) {
    state.trial++;
  } else {
    state.trial = 0;
    state.episode++;
    state.conversation = [];
  }
  if (state.episode >= state.options.episodes) {
    state.phase = state.options.filter ? 'judge' : 'done';
  } else {
    state.phase = 'query';
  }
}

async function queryCall(ctx: SteContext, state: SteState): Promise<void> {
  const label = `q/${state.episode}/${state.trial}`;
  let sent: ChatMessage[];
  let kept: ChatMessage[];
  // Long-term memory only in this call (§2.1: loaded for the query, offloaded afterwards); the stored
  // conversation keeps the prompt without it.
  const ltm = state.options.longTermMemory;
  if (state.trial === 0) {
    const docs = toolDocs(steTarget(ctx), state.options.tool);
    sent = renderPrompt('ste/explore', { ...docs, memory: ltm === 'off' ? [] : state.memory });
    kept = renderPrompt('ste/explore', { ...docs, memory: [] });
  } else {
    sent = [
      ...state.conversation,
      ...renderPrompt('ste/follow-up', { memory: ltm === 'trial' ? state.memory : [] }),
    ];
    kept = [...state.conversation, ...renderPrompt('ste/follow-up', { memory: [] })];
  }
  const reply = cut(
    await call(ctx, state, ctx.model, sent, label, { stop: STE_QUERY_STOP, maxTokens: STE_MAX_TOKENS }),
    STE_QUERY_STOP,
  );
  const query = parseQuery(reply);
  state.conversation = [...kept, { role: 'assistant', content: `${STE_QUERY_LABEL} ${query}` }];
  state.current = { query, steps: [], env: steTarget(ctx).fresh(), finalAnswer: null };
  state.phase = 'step';
}

async function stepCall(ctx: SteContext, state: SteState): Promise<void> {
  const current = state.current as NonNullable<SteState['current']>;
  const turn = current.steps.length;
  const text = pyStrip(
    cut(
      await call(ctx, state, ctx.model, state.conversation, `s/${state.episode}/${state.trial}/${turn}`, {
        stop: STE_STEP_STOP,
        maxTokens: STE_MAX_TOKENS,
      }),
      STE_STEP_STOP,
    ),
  );
  const result = await steTarget(ctx).step(current.env, text);
  current.env = result.env;
  const parsed = parseReact(text, '');
  const finished = result.kind === 'finished';
  const step: SteStep = {
    text,
    observation: finished ? '' : result.observation,
    ok: result.kind === 'ok' || finished,
  };
  if (parsed.ok) {
    step.action = parsed.action;
    step.actionInput = parsed.actionInput;
  } else if ((result.kind === 'ok' || result.kind === 'error') && result.action !== undefined) {
    // The target ran a call ToolQA-D's pattern does not parse: an imported API's operation without parameters,
    // called with `{}` (the kernel pattern needs a character inside the braces). It is a call all the same.
    step.action = result.action;
    step.actionInput = /Action Input:\s*([\s\S]*)$/.exec(text)?.[1]?.trim() ?? '{}';
  }
  if (finished) step.final = true;
  current.steps.push(step);
  state.conversation.push({ role: 'assistant', content: text });
  if (finished) {
    current.finalAnswer = result.answer ?? '';
    state.phase = 'reflect';
    return;
  }
  // Table 2 "− execution feedback": the call ran (the step keeps its real observation for the judge and the
  // exemplar), but the model is not told what it returned.
  const shown = state.options.executionFeedback ? result.observation : STE_NO_FEEDBACK;
  state.conversation.push(...renderPrompt('ste/observation', { observation: shown }));
  if (current.steps.length >= state.options.maxCalls) state.phase = 'reflect';
}

/** Ends the trial: the reflection call (unless Table 2's "− self-reflection"); true when a model call was made. */
async function reflectCall(ctx: SteContext, state: SteState): Promise<boolean> {
  const current = state.current as NonNullable<SteState['current']>;
  let reply = '';
  let solved: boolean | null = null;
  if (state.options.selfReflection) {
    const messages = [...state.conversation, ...renderPrompt('ste/reflect', {})];
    reply = pyStrip(
      await call(ctx, state, ctx.model, messages, `r/${state.episode}/${state.trial}`, {
        maxTokens: STE_MAX_TOKENS,
      }),
    );
    solved = reflectionSolved(reply);
    state.conversation = [...messages, { role: 'assistant', content: reply }];
  }
  state.trials.push({
    episode: state.episode,
    trial: state.trial,
    query: current.query,
    steps: current.steps,
    finalAnswer: current.finalAnswer,
    reflection: reply,
    solved,
  });
  state.memory.push({ query: current.query, solved });
  nextTrialOrEpisode(state);
  return state.options.selfReflection;
}

function exemplarOf(state: SteState, trial: SteTrial, last: SteStep): SteExemplar {
  return {
    id: `${state.options.tool}/${trial.episode}.${trial.trial}`,
    tool: state.options.tool,
    query: trial.query,
    action: last.action as string,
    actionInput: last.actionInput as string,
    observation: last.observation,
    finalAnswer: trial.finalAnswer as string,
    episode: trial.episode,
    trial: trial.trial,
  };
}

/** Judges the next trial; trials that cannot be judged are recorded without a model call. */
async function judgeNext(ctx: SteContext, state: SteState): Promise<boolean> {
  const trial = state.trials[state.judged] as SteTrial;
  const last = lastCall(trial.steps);
  let called = false;
  if (heldOutTest(state.options.heldOut)(trial.query)) state.verdicts.push({ kind: 'held-out' });
  else if (trial.finalAnswer === null) state.verdicts.push({ kind: 'no-final-answer' });
  else if (!last) state.verdicts.push({ kind: 'no-call' });
  else {
    const docs = toolDocs(steTarget(ctx), state.options.tool);
    const messages = renderPrompt('ste/judge', {
      tool: docs.tool,
      query: trial.query,
      action: last.action as string,
      actionInput: last.actionInput as string,
      observation: last.observation,
      finalAnswer: trial.finalAnswer,
    });
    const reply = pyStrip(
      await call(ctx, state, ctx.judge ?? ctx.model, messages, `j/${trial.episode}/${trial.trial}`, {
        maxTokens: STE_JUDGE_MAX_TOKENS,
      }),
    );
    called = true;
    const { kept, criteria } = parseJudge(reply);
    state.verdicts.push({ kind: kept ? 'kept' : 'rejected', reply, criteria });
    if (kept) state.exemplars.push(exemplarOf(state, trial, last));
  }
  state.judged++;
  if (state.judged >= state.trials.length) {
    state.phase = state.options.paraphrase ? 'paraphrase' : 'done';
    state.paraphrasing = { index: 0, made: 0, conversation: [] };
  }
  return called;
}

/** The explored exemplars (not paraphrases), in the order they were kept. */
export function originalExemplars(state: SteState): SteExemplar[] {
  return state.exemplars.filter((e) => e.paraphraseOf === undefined);
}

async function paraphraseNext(ctx: SteContext, state: SteState): Promise<boolean> {
  const originals = originalExemplars(state);
  const count = paraphraseCount(originals.length);
  const p = state.paraphrasing;
  if (p.index >= originals.length || count === 0) {
    state.phase = 'done';
    return false;
  }
  const source = originals[p.index] as SteExemplar;
  const messages =
    p.made === 0
      ? renderPrompt('ste/paraphrase', { query: source.query })
      : [...p.conversation, ...renderPrompt('ste/paraphrase-more', {})];
  const reply = await call(ctx, state, ctx.model, messages, `p/${source.id}/${p.made}`, {
    maxTokens: STE_PARAPHRASE_MAX_TOKENS,
  });
  const query = parseParaphrase(reply);
  p.conversation = [...messages, { role: 'assistant', content: pyStrip(reply) }];
  p.made++;
  const seen = state.exemplars.some(
    (e) => (e.id === source.id || e.paraphraseOf === source.id) && e.query === query,
  );
  if (query !== '' && !seen && !heldOutTest(state.options.heldOut)(query)) {
    state.exemplars.push({ ...source, id: `${source.id}/p${p.made}`, query, paraphraseOf: source.id });
  }
  if (p.made >= count) state.paraphrasing = { index: p.index + 1, made: 0, conversation: [] };
  if (state.paraphrasing.index >= originals.length) state.phase = 'done';
  return true;
}

/** Budget of one `advance` chunk: model calls (a trial step is one model call plus one tool call). */
export interface SteBudget {
  calls: number;
}

/**
 * Makes at most `budget.calls` model calls and returns the new state (the input is not modified). Judging a
 * trial that needs no call, and ending a trial without self-reflection, do not count against the budget.
 */
export async function advance(ctx: SteContext, input: SteState, budget: SteBudget): Promise<SteState> {
  const state = structuredClone(input);
  let spent = 0;
  while (spent < budget.calls && state.phase !== 'done') {
    switch (state.phase) {
      case 'query':
        await queryCall(ctx, state);
        spent++;
        break;
      case 'step':
        await stepCall(ctx, state);
        spent++;
        break;
      case 'reflect':
        if (await reflectCall(ctx, state)) spent++;
        break;
      case 'judge':
        if (state.trials.length === 0) state.phase = 'done';
        else if (await judgeNext(ctx, state)) spent++;
        break;
      case 'paraphrase':
        if (await paraphraseNext(ctx, state)) spent++;
        break;
    }
  }
  return state;
}

/** Runs the engine to the end. */
export async function exploreTool(ctx: SteContext, input: SteOptionsInput | SteState): Promise<SteState> {
  let state = 'version' in input ? input : initialSteState(input);
  while (state.phase !== 'done') state = await advance(ctx, state, { calls: 64 });
  return state;
}

/** Progress of an exploration: trials done of all, for progress bars. */
export function steProgress(state: SteState): {
  phase: StePhase;
  trialsDone: number;
  trialsTotal: number;
  judged: number;
  kept: number;
  exemplars: number;
  calls: number;
} {
  return {
    phase: state.phase,
    trialsDone: state.trials.length,
    trialsTotal: state.options.episodes * state.options.trials,
    judged: state.judged,
    kept: originalExemplars(state).length,
    exemplars: state.exemplars.length,
    calls: state.calls,
  };
}
