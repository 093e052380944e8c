/**
 * DRAFT's loop for one tool (spec draft.md, Algorithm 1) as a resumable state machine: the state is a JSON value
 * and `advanceTool(state, ctx, budget)` takes at most `budget` steps, so a Durable Object can run a tool in
 * alarm-driven chunks and survive eviction between them. Each step is one model call or one exploration (tool
 * calls on the server surface); every model call's seed derives from (options.seed, tool, iteration, role,
 * attempt), so a chunked run with a serialise/deserialise round trip between chunks equals a run in one go.
 *
 * Per iteration i = 1 … I:
 * 1. explore — the Explorer answers {query, setup, parameters}; from iteration 2 the query must be diverse
 *    (rules.ts: cosine < φ to every earlier query, at most `diversityAttempts` attempts, the last accepted
 *    regardless); a rejection re-asks with the rejected queries listed as too similar;
 * 2. call — the preparatory calls and the explored call really run, in a fresh environment, on the exploration
 *    target (a kernel surface's adapter and the kernel, or an imported API's session step and its mock); each
 *    response is truncated to `responseChars` characters;
 * 3. analyze — the Analyzer's suggestions;
 * 4. rewrite — the Rewriter's next documentation and direction; Δ (rules.ts) against the previous version; stop
 *    when Δ > τ (unless the w/o-adaptive-termination ablation), or after I rewrites.
 *
 * A failed rewrite is not convergence: a rewrite *fails* when it returns the documentation unchanged although the
 * server rejected the iteration's explored call (a simulator role that failed, a model that ignored the evidence) —
 * Δ = 1 then, and the paper's rule would stop there as if the documentation had settled. With
 * `failedRewrite: 'stop'` (default) the loop stops where the paper's would, with the stop reason `rewrite-failed`;
 * with `retry` the failed rewrite does not count as convergence and the next iteration explores again. A loop
 * that ends without any exploration whose call succeeded ends as `no-success` (unless it ended on a failed
 * rewrite; a call counts as a success when the server accepted it, `explorationSucceeded`); the tool's `flags`
 * (docset.ts) say both, so a documentation set never passes such a tool off as done.
 *
 * Deliberate differences from the DRAFT paper:
 * - Stop reasons: the paper has one (Δ > τ or I); tooldrift names a loop that stopped on a failed rewrite
 *   (`rewrite-failed`) or without any call the server accepted (`no-success`) instead of calling it converged.
 *   The stopping iteration stays the paper's unless `failedRewrite: 'retry'` (then a failed rewrite is not counted
 *   as convergence and the loop explores again).
 */

import { cosineSimilarity } from '../models/embeddings.ts';
import type { EmbeddingModel, GenerateRequest, TextModel, Usage } from '../models/types.ts';
import { addUsage, emptyUsage } from '../models/types.ts';
import type { DraftExplorationText, DraftToolText } from '../prompts/draft.ts';
import { renderPrompt } from '../prompts/registry.ts';
import { kernelTarget, type ToolTarget, targetOf } from '../sessions/targets.ts';
import type { Surface } from '../surfaces/model.ts';
import { hash128 } from '../util/random.ts';
import type { KernelDeps } from '../world/kernel/kernel.ts';
import type { World } from '../world/types.ts';
import type { DraftOptions } from './config.ts';
import type { Category, DocFlag, DocVersion, StopReason, ToolDoc } from './docset.ts';
import { toolDocLine } from './docset.ts';
import { type ExploreCall, parseAnalyzeAnswer, parseExploreAnswer, parseRewriteAnswer } from './parse.ts';
import { converged, descriptionDelta, diversityVerdict } from './rules.ts';

export const DRAFT_STATE_FORMAT = 'draft-tool-state/1';

export interface CallRecord {
  tool: string;
  /** The parameters as JSON text. */
  parameters: string;
  /** The response, truncated to `responseChars`. */
  response: string;
  /** `ok`, `error:<reason>`, `rejected:<reason>` or `finished:…`. */
  outcome: string;
}

export interface Exploration {
  iteration: number;
  query: string;
  setup: CallRecord[];
  call: CallRecord;
}

export type DraftPhase = 'explore' | 'call' | 'analyze' | 'rewrite' | 'done';

export interface DraftToolState {
  format: typeof DRAFT_STATE_FORMAT;
  key: string;
  category: Category;
  options: DraftOptions;
  /** The other tools' documentation lines when the run started (for preparatory calls). */
  otherTools: string[];
  /** The current iteration, 1-based. */
  iteration: number;
  phase: DraftPhase;
  /** Explorer attempts made in this iteration. */
  attempt: number;
  /** Queries of this iteration rejected as too similar. */
  rejected: string[];
  doc: ToolDoc;
  versions: DocVersion[];
  explorations: Exploration[];
  /** The accepted explorer answer waiting for its calls. */
  candidate: { query: string; setup: ExploreCall[]; parameters: Record<string, unknown> } | null;
  /** The analyzer's suggestions of this iteration. */
  suggestions: string[];
  /** The rewriter's direction for the next exploration. */
  exploreNext: string;
  stop: StopReason | null;
  /** Set when the loop ends: `rewrite-failed` and `no-success` as they apply (absent in older stored states). */
  flags?: DocFlag[];
  usage: Usage;
  modelCalls: number;
  toolCalls: number;
  /** Diversity checks: per iteration the attempts and the highest similarity of each rejected one. */
  diversity: { iteration: number; attempts: number; rejectedSimilarities: number[] }[];
  /** The model as the provider names it (the simulator says so). */
  model: string | null;
}

interface DraftContextBase {
  model: TextModel;
  embedder: EmbeddingModel;
  now?: Date;
  signal?: AbortSignal;
}

/**
 * What answers the explorations: a kernel surface over the world (the fields below), or any backend's tools as an
 * exploration target (`core/sessions/targets.ts`: an imported API's operations through its session step, the
 * analyzer then reads the API's real answers and errors).
 */
export type DraftContext = DraftContextBase &
  (
    | {
        world: World;
        /** The surface that answers the calls. */
        server: Surface;
        /** Kernel dependencies for one exploration (a fresh SQL/Python sandbox is fine). */
        deps: KernelDeps;
        target?: undefined;
      }
    | { target: ToolTarget }
  );

/** The context's exploration target (a kernel surface's is built once per context). */
export function draftTarget(ctx: DraftContext): ToolTarget {
  if (ctx.target) return ctx.target;
  return targetOf(
    ctx,
    () =>
      kernelTarget({
        world: ctx.world,
        surface: ctx.server,
        deps: ctx.deps,
        ...(ctx.now ? { now: ctx.now } : {}),
      }) as ToolTarget,
  );
}

export function initialToolState(
  key: string,
  category: Category,
  doc: ToolDoc,
  otherTools: readonly string[],
  options: DraftOptions,
): DraftToolState {
  return {
    format: DRAFT_STATE_FORMAT,
    key,
    category,
    options,
    otherTools: [...otherTools],
    iteration: 1,
    phase: 'explore',
    attempt: 0,
    rejected: [],
    doc,
    versions: [{ iteration: 0, doc, bleu: null, cos: null, delta: null }],
    explorations: [],
    candidate: null,
    suggestions: [],
    exploreNext: '',
    stop: null,
    usage: emptyUsage(),
    modelCalls: 0,
    toolCalls: 0,
    diversity: [],
    model: null,
  };
}

function toolText(state: DraftToolState): DraftToolText {
  return {
    category: state.category,
    name: state.doc.name,
    description: state.doc.description,
    params: state.doc.params,
  };
}

function explorationText(e: Exploration): DraftExplorationText {
  return { query: e.query, setup: e.setup, call: e.call };
}

/** The seed of one model call: a function of the run seed, the tool, the iteration, the role and the attempt. */
export function callSeed(
  options: DraftOptions,
  key: string,
  iteration: number,
  role: string,
  attempt = 0,
): number {
  return hash128(`draft/${options.seed}/${key}/${iteration}/${role}/${attempt}`)[0] as number;
}

async function ask(
  state: DraftToolState,
  ctx: DraftContext,
  messages: GenerateRequest['messages'],
  seed: number,
): Promise<{ text: string; state: DraftToolState }> {
  const o = state.options;
  const response = await ctx.model.generate(
    { messages, temperature: o.temperature, topP: o.topP, maxTokens: o.maxTokens, seed },
    ctx.signal,
  );
  const text = response.candidates[0]?.text ?? '';
  return {
    text,
    state: {
      ...state,
      usage: addUsage(state.usage, response.usage),
      modelCalls: state.modelCalls + response.usage.calls,
      model: response.model,
    },
  };
}

async function exploreStep(state: DraftToolState, ctx: DraftContext): Promise<DraftToolState> {
  const o = state.options;
  const attempt = state.attempt + 1;
  const messages = renderPrompt('draft/explore', {
    tool: toolText(state),
    otherTools: state.otherTools,
    setupCalls: o.setupCalls,
    explored: state.explorations.map(explorationText),
    suggestions: state.exploreNext,
    rejected: state.rejected,
  });
  const asked = await ask(state, ctx, messages, callSeed(o, state.key, state.iteration, 'explore', attempt));
  const answer = parseExploreAnswer(asked.text, o.setupCalls);
  const earlier = state.explorations.map((e) => e.query);
  let similarities: number[] = [];
  if (o.diversity && state.iteration > 1 && earlier.length > 0) {
    const vectors = await ctx.embedder.embed([answer.query, ...earlier], ctx.signal);
    similarities = vectors.slice(1).map((v) => cosineSimilarity(vectors[0]!, v));
  }
  const verdict = diversityVerdict({
    similarities,
    attempt,
    iteration: state.iteration,
    phi: o.phi,
    attempts: o.diversityAttempts,
    enabled: o.diversity,
  });
  const log = state.diversity.filter((d) => d.iteration !== state.iteration);
  const mine = state.diversity.find((d) => d.iteration === state.iteration) ?? {
    iteration: state.iteration,
    attempts: 0,
    rejectedSimilarities: [],
  };
  const entry = {
    iteration: state.iteration,
    attempts: attempt,
    rejectedSimilarities: verdict.accept
      ? mine.rejectedSimilarities
      : [...mine.rejectedSimilarities, verdict.maxSimilarity],
  };
  const next = { ...asked.state, diversity: [...log, entry], attempt };
  if (!verdict.accept) return { ...next, rejected: [...state.rejected, answer.query] };
  return {
    ...next,
    phase: 'call',
    candidate: { query: answer.query, setup: answer.setup, parameters: answer.parameters },
  };
}

function truncate(text: string, chars: number): string {
  return text.length <= chars ? text : text.slice(0, chars);
}

async function oneCall(
  ctx: DraftContext,
  env: unknown,
  call: ExploreCall,
  chars: number,
): Promise<{ env: unknown; record: CallRecord }> {
  const parameters = JSON.stringify(call.parameters);
  const step = await draftTarget(ctx).step(env, { action: call.tool, actionInput: parameters });
  return {
    env: step.env,
    record: { tool: call.tool, parameters, response: truncate(step.observation, chars), outcome: step.label },
  };
}

async function callStep(state: DraftToolState, ctx: DraftContext): Promise<DraftToolState> {
  const c = state.candidate;
  if (!c) throw new Error('draft: call phase without an accepted exploration');
  const chars = state.options.responseChars;
  let env = draftTarget(ctx).fresh();
  const setup: CallRecord[] = [];
  for (const s of c.setup) {
    const r = await oneCall(ctx, env, s, chars);
    env = r.env;
    setup.push(r.record);
  }
  const main = await oneCall(ctx, env, { tool: state.doc.name, parameters: c.parameters }, chars);
  const exploration: Exploration = { iteration: state.iteration, query: c.query, setup, call: main.record };
  let doc = state.doc;
  if (main.record.outcome === 'ok') doc = { ...doc, example: c.parameters };
  return {
    ...state,
    doc,
    phase: 'analyze',
    candidate: null,
    explorations: [...state.explorations, exploration],
    toolCalls: state.toolCalls + setup.length + 1,
  };
}

function history(state: DraftToolState): string[] {
  // Earlier versions only from iteration 2 on (the spec's analyzer/rewriter inputs).
  return state.iteration > 1 ? state.versions.map((v) => toolDocLine(v.doc)) : [];
}

function currentExploration(state: DraftToolState): Exploration {
  const e = state.explorations.at(-1);
  if (!e || e.iteration !== state.iteration) throw new Error('draft: no exploration for this iteration');
  return e;
}

async function analyzeStep(state: DraftToolState, ctx: DraftContext): Promise<DraftToolState> {
  const messages = renderPrompt('draft/analyze', {
    tool: toolText(state),
    exploration: explorationText(currentExploration(state)),
    history: history(state),
  });
  const asked = await ask(
    state,
    ctx,
    messages,
    callSeed(state.options, state.key, state.iteration, 'analyze'),
  );
  return { ...asked.state, phase: 'rewrite', suggestions: parseAnalyzeAnswer(asked.text) };
}

async function rewriteStep(state: DraftToolState, ctx: DraftContext): Promise<DraftToolState> {
  const o = state.options;
  const messages = renderPrompt('draft/rewrite', {
    tool: toolText(state),
    exploration: explorationText(currentExploration(state)),
    history: history(state),
    suggestions: state.suggestions,
  });
  const asked = await ask(state, ctx, messages, callSeed(o, state.key, state.iteration, 'rewrite'));
  const answer = parseRewriteAnswer(asked.text, state.doc);
  const doc = { ...answer.doc };
  // The example belongs to a name: a renamed tool keeps it only if a call under the new name worked.
  const worked = [...state.explorations]
    .reverse()
    .find((e) => e.call.tool === doc.name && e.call.outcome === 'ok');
  if (worked) doc.example = JSON.parse(worked.call.parameters) as Record<string, unknown>;
  else delete doc.example;
  // Δ between consecutive descriptions (eq. 3); in tooldrift the call form is part of the description text.
  const d = await descriptionDelta(toolDocLine(state.doc), toolDocLine(doc), ctx.embedder, ctx.signal);
  const version: DocVersion = { iteration: state.iteration, doc, bleu: d.bleu, cos: d.cos, delta: d.delta };
  const failed = rewriteFailed(state.doc, doc, currentExploration(state));
  const explorations = state.explorations;
  let stop: StopReason | null = null;
  // Eq. 4: Δ > τ stops the loop; a failed rewrite stops it only under `failedRewrite: 'stop'`, and not as
  // convergence.
  if (o.adaptiveTermination && converged(d.delta, o.tau) && !(failed && o.failedRewrite === 'retry'))
    stop = endReason(failed, explorations, 'converged');
  else if (state.iteration >= o.iterations) stop = endReason(failed, explorations, 'max-iterations');
  const next: DraftToolState = {
    ...asked.state,
    doc,
    versions: [...state.versions, version],
    exploreNext: answer.exploreNext,
    suggestions: [],
  };
  if (stop) return { ...next, phase: 'done', stop, flags: loopFlags(stop, explorations) };
  return { ...next, phase: 'explore', iteration: state.iteration + 1, attempt: 0, rejected: [] };
}

/**
 * Whether an exploration succeeded: the server accepted its explored call — the documented name and parameters —
 * and ran the tool (`ok`, or `error:<reason>` when the tool itself reported a problem with the values or the
 * state, such as an unknown node: the call form is confirmed all the same). A rejection (`rejected:<reason>`: an
 * unknown or retired name, a parameter error, unparsable input) confirms nothing.
 */
export function explorationSucceeded(e: Exploration): boolean {
  return e.call.outcome === 'ok' || e.call.outcome.startsWith('error:');
}

/**
 * A failed rewrite: the documentation came back unchanged — the text Δ compares, `Name[params], description` —
 * although the server rejected the iteration's explored call: the evidence said the documentation is wrong and
 * the rewrite acted on none of it. An unchanged rewrite after a call the server accepted is agreement, not
 * failure.
 */
export function rewriteFailed(before: ToolDoc, after: ToolDoc, exploration: Exploration): boolean {
  return toolDocLine(before) === toolDocLine(after) && !explorationSucceeded(exploration);
}

/** The stop reason of a loop that ends now: a failed last rewrite, else no successful exploration, else `fallback`. */
function endReason(
  failed: boolean,
  explorations: readonly Exploration[],
  fallback: 'converged' | 'max-iterations',
): StopReason {
  if (failed) return 'rewrite-failed';
  if (!explorations.some(explorationSucceeded)) return 'no-success';
  return fallback;
}

function loopFlags(stop: StopReason, explorations: readonly Exploration[]): DocFlag[] {
  const flags: DocFlag[] = [];
  if (stop === 'rewrite-failed') flags.push('rewrite-failed');
  if (!explorations.some(explorationSucceeded)) flags.push('no-success');
  return flags;
}

/** One step: a model call (explore, analyze, rewrite) or an exploration's tool calls. */
export async function stepTool(state: DraftToolState, ctx: DraftContext): Promise<DraftToolState> {
  switch (state.phase) {
    case 'explore':
      return exploreStep(state, ctx);
    case 'call':
      return callStep(state, ctx);
    case 'analyze':
      return analyzeStep(state, ctx);
    case 'rewrite':
      return rewriteStep(state, ctx);
    case 'done':
      return state;
  }
}

/** Takes at most `budget` steps (all remaining ones when omitted). */
export async function advanceTool(
  state: DraftToolState,
  ctx: DraftContext,
  budget = Number.POSITIVE_INFINITY,
): Promise<DraftToolState> {
  if (state.format !== DRAFT_STATE_FORMAT)
    throw new Error(`draft: unknown state format ${String(state.format)}`);
  let s = state;
  for (let i = 0; i < budget && s.phase !== 'done'; i++) s = await stepTool(s, ctx);
  return s;
}
