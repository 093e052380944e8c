/**
 * A backend's tools as the exploring methods see them (STE's trials, DRAFT's explorations): the documentation
 * their prompts show, the tools worth exploring, a fresh environment and one step. One interface over both session
 * backends — the ToolQA-D kernel behind a kernel surface, an imported API behind an API surface — so STE and DRAFT
 * run unchanged on either; the API target steps through `runApiStep`, the very step an API session's Durable Object
 * runs (resolution by the surface, the seeded mock or the upstream, reshaping, refusals naming the field).
 *
 * `TOOL_TARGETS` is the registry: one builder per backend, keyed like `SessionConfig.backend`.
 */

import { emptyOverlay } from '../apis/mock/state.ts';
import { apiToolList, toolAbout } from '../apis/surface/docs.ts';
import type { ApiSurface } from '../apis/surface/model.ts';
import { toolCallText as apiToolCallText, servedTools } from '../apis/surface/tools.ts';
import { outcomeLabel } from '../methods/method.ts';
import { type StepInput, type StepOutcome, stepSurface, toolStatus } from '../surfaces/adapter.ts';
import { renderToolList } from '../surfaces/docs.ts';
import type { Surface } from '../surfaces/model.ts';
import { toolCallText } from '../surfaces/signature.ts';
import type { KernelDeps, KernelToolName } from '../world/kernel/kernel.ts';
import { type EnvState, initialState } from '../world/kernel/state.ts';
import type { World } from '../world/types.ts';
import {
  type ApiRef,
  type ApiServerSpec,
  type ApiSessionConfig,
  type ApiSessionQuery,
  type ApiStepDeps,
  apiSurfaceAt,
  runApiStep,
  scoreApiSession,
} from './api.ts';
import type { ApiScore } from './api-state.ts';
import { type ApiStepOutcome, initialProgress, type SessionProgress } from './episode.ts';

/** What one step did, whatever the backend. */
export interface TargetStep<E> {
  env: E;
  /** What the agent reads (after Finish: the backend's acknowledgement). */
  observation: string;
  /**
   * ok: the call ran and succeeded; error: it ran and failed; rejected: refused before running; refused: a kernel
   * sandbox or a per-key bound would not run it (the observation is still the tool's error text); finished: Finish.
   */
  kind: 'ok' | 'error' | 'rejected' | 'refused' | 'finished';
  /** `ok`, `error:<reason>`, `rejected:<reason>` or `finished:…` (transcripts, DRAFT's call records). */
  label: string;
  /** The final answer's text when `kind` is `finished`. */
  answer?: string;
  /** The backend's own outcome (the kernel's `StepOutcome`, an API session's `ApiStepOutcome`). */
  outcome: StepOutcome | ApiStepOutcome;
  /** The called name as parsed (absent when the step could not be parsed). */
  action?: string;
  /** The kernel tool behind the called name (kernel targets, when the surface knows the name). */
  kernel?: KernelToolName;
}

/**
 * Where an episode stands: Finish's answer and verdict (null: none yet, or no gold), the UpdateTool lines, and the
 * load counter of ToolQA-D's `max_load_db` rule (kernel: LoadDB calls; an API has no LoadDB: 0).
 */
export interface TargetStatus {
  answer: string | null;
  correct: boolean | null;
  newTools: string[];
  loads: number;
}

export interface ToolTarget<E = unknown> {
  backend: 'kernel' | 'api';
  /** The id of the surface that answers the calls. */
  surfaceId: string;
  /** The exposed names worth exploring: every served tool but the protocol's (Finish, UpdateTool). */
  explorable(): string[];
  /** One tool's documentation as the prompts show it: its call form and description (the name if unknown). */
  toolLine(name: string): string;
  /** The whole numbered tool list of the agent prompt (Finish included). */
  toolList(): string;
  /**
   * A fresh environment: every exploration, trial or episode is a new task. A JSON value. `newTools` are UpdateTool
   * lines carried in from earlier episodes (kernel only; an API has no UpdateTool).
   */
  fresh(newTools?: readonly string[]): E;
  step(env: E, input: StepInput): Promise<TargetStep<E>>;
  status(env: E): TargetStatus;
  /**
   * A finished episode judged against the task's gold — the Finish reward of a tree search (±1, ToolEVO §3.2):
   * kernel, the answer matcher's verdict (as the environment answers CORRECT/INCORRECT); an imported API, the
   * answer matcher when the query has a gold answer, else its gold path as an ordered subsequence of the calls
   * (Correct Path Rate, the paper's definition). Null: not finished, or nothing to judge against.
   */
  verdict(env: E): boolean | null;
}

const PROTOCOL_TOOLS = new Set(['Finish', 'UpdateTool']);

export interface KernelTargetSpec {
  world: World;
  /** The surface that answers the calls. */
  surface: Surface;
  /** The surface whose documentation the prompts show (default: `surface`). */
  docs?: Surface;
  deps: KernelDeps;
  now?: Date;
}

export function kernelTarget(spec: KernelTargetSpec): ToolTarget<EnvState> {
  const docs = spec.docs ?? spec.surface;
  const opts = spec.now ? { now: spec.now } : {};
  return {
    backend: 'kernel',
    surfaceId: spec.surface.id,
    explorable: () =>
      spec.surface.tools
        .filter((t) => !PROTOCOL_TOOLS.has(t.kernel) && toolStatus(t, spec.now) !== 'sunset')
        .map((t) => t.name),
    toolLine(name) {
      const t = docs.tools.find((x) => x.name === name);
      return t ? `${toolCallText(t)}, ${t.description}` : name;
    },
    toolList: () => renderToolList(docs, opts),
    fresh: (newTools) => (newTools?.length ? { ...initialState(), newTools: [...newTools] } : initialState()),
    async step(env, input) {
      const r = await stepSurface(spec.world, spec.surface, env, input, spec.deps, opts);
      const kind = r.outcome.kind;
      const out: TargetStep<EnvState> = {
        env: r.state,
        observation: r.observation,
        kind,
        label: outcomeLabel(r.outcome),
        outcome: r.outcome,
      };
      if (r.action !== undefined) out.action = r.action;
      if (r.kernel !== undefined) out.kernel = r.kernel;
      if (kind === 'finished') out.answer = r.state.answer ?? '';
      return out;
    },
    status: (env) => ({ answer: env.answer, correct: env.correct, newTools: env.newTools, loads: env.loads }),
    verdict: (env) => (env.finished ? env.correct : null),
  };
}

export interface ApiTargetSpec {
  api: ApiRef;
  /** The surface (or schedule of surfaces) that answers the calls. */
  server: ApiServerSpec;
  /** The surface whose documentation the prompts show (default: the server's surface at `now`). */
  docs?: ApiSurface;
  deps: ApiStepDeps;
  /** The session clock of every step (a schedule resolves at it). */
  now: Date;
  /** Seeds the session (fault injection); the mock's world has the API's own seed. */
  seed?: string;
  /** The query an agent episode answers (its gold scores Finish and the path); explorations have none. */
  query?: ApiSessionQuery;
}

/**
 * An imported API as an exploration target. The environment is an API session's progress (the mock's overlay of
 * writes and materialised search results): a trial's calls see each other's effects, the next trial starts clean.
 */
function answerText(answer: unknown): string {
  return typeof answer === 'string' ? answer : JSON.stringify(answer);
}

/** An API target also scores an episode: Correct Path Rate (both definitions) and the answer against the gold. */
export interface ApiToolTarget extends ToolTarget<SessionProgress> {
  score(env: SessionProgress): ApiScore;
}

export function apiTarget(spec: ApiTargetSpec): ApiToolTarget {
  const served = apiSurfaceAt(spec.server, spec.now).surface;
  const docs = spec.docs ?? served;
  const config: ApiSessionConfig = {
    backend: 'api',
    id: `explore-${served.id}`,
    api: spec.api,
    query: spec.query ?? null,
    server: spec.server,
    promptSurface: docs,
    // Explorations bound their own calls (STE's 4 per trial, DRAFT's setup calls plus one).
    stepBudget: Number.MAX_SAFE_INTEGER,
    seed: spec.seed ?? spec.api.seed,
    createdAt: spec.now.toISOString(),
    expiresAt: spec.now.toISOString(),
  };
  return {
    backend: 'api',
    surfaceId: served.id,
    explorable: () => servedTools(served, spec.now).map((t) => t.name),
    toolLine(name) {
      const t = servedTools(docs, spec.now).find((x) => x.name === name);
      return t ? `${apiToolCallText(t)}, ${toolAbout(t) || 'No description.'}` : name;
    },
    toolList: () => apiToolList(docs, { now: spec.now }),
    fresh: () => initialProgress(),
    async step(env, input) {
      const via = typeof input === 'string' ? 'react' : 'action';
      const r = await runApiStep(config, env, input, via, spec.deps, spec.now);
      const outcome = r.entry.outcome as ApiStepOutcome;
      const out: TargetStep<SessionProgress> = {
        env: r.progress,
        observation: r.entry.observation,
        kind: outcome.kind,
        label: outcomeLabel(outcome),
        outcome,
      };
      if (r.entry.action !== undefined) out.action = r.entry.action;
      if (outcome.kind === 'finished') out.answer = answerText(r.progress.api?.score?.answer ?? null);
      return out;
    },
    status(env) {
      const score = env.api?.score;
      return {
        answer: score ? answerText(score.answer) : null,
        correct: score?.correct ?? null,
        newTools: [],
        loads: 0,
      };
    },
    verdict(env) {
      const score = env.api?.score;
      if (!score || !env.done) return null;
      return score.correct ?? score.correctPath?.subsequence ?? null;
    },
    score(env) {
      if (env.api?.score) return env.api.score;
      // No Finish: scored like a session whose budget ran out (no answer; wrong when the query has a gold answer).
      const noAnswer = config.query?.gold?.answer !== undefined ? false : null;
      return scoreApiSession(
        config,
        env.api ?? { overlay: emptyOverlay(), calls: [] },
        served,
        null,
        noAnswer,
      );
    },
  };
}

const built = new WeakMap<object, ToolTarget>();

/**
 * The target a context owns, built once per context (STE's and DRAFT's contexts name a kernel surface and get its
 * target on first use).
 */
export function targetOf(owner: object, build: () => ToolTarget): ToolTarget {
  let t = built.get(owner);
  if (!t) {
    t = build();
    built.set(owner, t);
  }
  return t;
}

/** The registry: how each session backend becomes an exploration target. */
export const TOOL_TARGETS = {
  kernel: kernelTarget,
  api: apiTarget,
} as const;

export type ToolTargetSpec =
  | ({ backend: 'kernel' } & KernelTargetSpec)
  | ({ backend: 'api' } & ApiTargetSpec);

/** The target of a backend named in the spec. */
export function toolTarget(spec: ToolTargetSpec): ToolTarget {
  return (spec.backend === 'api' ? TOOL_TARGETS.api(spec) : TOOL_TARGETS.kernel(spec)) as ToolTarget;
}
