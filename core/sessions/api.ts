/**
 * A session on an imported API (issue 22 §5): one query (free text, or an item of a query set with its gold)
 * played by an external agent against an API surface — or a schedule of API surfaces — with a step budget. The
 * agent calls tools by name (ReAct text, action objects, the REST tool route, MCP) or the API itself at the
 * surface's paths (`/v1/sessions/{id}/http/<path>`); every call is resolved by the surface
 * (`core/apis/surface/`: names, routes, parameters, lifecycle), answered by the backend (`core/apis/mock/`:
 * the seeded mock, the document's examples or the real upstream) and reshaped by the surface again.
 *
 * `Finish` (with `{"answer": …}`) ends the session. At the end the session is scored: Correct Path Rate in both
 * definitions, computed from the operations the calls ran against the query's gold path (written against the
 * base API; the score also shows the gold path as the surface in force exposes it), and the answer against the
 * gold answer when the query has one, differing numbers never matching (its reward is then ±1; without one it
 * stays null and the answer is kept).
 *
 * ReAct text is parsed as ToolQA-D parses it, except that `Action Input: {}` (nothing between the braces, which
 * ToolQA-D's pattern refuses) calls an operation without arguments.
 *
 * Observations (what ReAct and MCP clients read): a 2xx answer is its JSON body; an error is
 * `Error <status>: <body>`; a call the surface refuses is its message (naming the parameter, or the successor of
 * a retired name). Every observation is cut to 1024 tokens, as ToolQA-D cuts tool outputs (spec §3.0).
 */

import { type BackendOptions, callBackend } from '../apis/mock/index.ts';
import { emptyOverlay } from '../apis/mock/state.ts';
import type { MockWorld } from '../apis/mock/world.ts';
import type { GoldCall } from '../apis/querysets.ts';
import { correctPath } from '../apis/scoring.ts';
import { apiToolList } from '../apis/surface/docs.ts';
import type { ApiSurface } from '../apis/surface/model.ts';
import { type ApiCallInput, resolveApiCall } from '../apis/surface/resolve.ts';
import { resolveApiSchedule } from '../apis/surface/schedule.ts';
import { shapeApiResponse } from '../apis/surface/shape.ts';
import { toolRoute } from '../apis/surface/tools.ts';
import { translateGoldCall } from '../apis/surface/translate.ts';
import type { ApiCatalog, MockMode } from '../apis/types.ts';
import { type ProblemOptions, type ProblemSlug, problemBody } from '../http/problems.ts';
import { plainJson } from '../util/python-format.ts';
import { answerMatches } from '../world/answer-match.ts';
import { decodeActionInput } from '../world/kernel/json-decode.ts';
import { truncateObservation } from '../world/kernel/kernel.ts';
import { parseReact } from '../world/react-parse.ts';
import type { ApiScore, ApiSessionState } from './api-state.ts';
import {
  closeStep,
  type HttpAnswer,
  isHttpInput,
  type ServerOf,
  type SessionBase,
  SessionFinishedError,
  type SessionInput,
  type SessionProgress,
  type SessionStepResult,
  type StepVia,
  sessionNow,
  surfaceInForce,
  type TranscriptEntry,
} from './episode.ts';

/** The imported API a session plays, as its configuration keeps it. */
export interface ApiRef {
  id: string;
  title: string;
  mode: MockMode;
  seed: string;
  worldSize: number;
  upstream: string | null;
}

/** The query of an API session: free text, or an item of a query set with its gold. */
export interface ApiSessionQuery {
  text: string;
  queryset?: string;
  index?: number;
  gold?: { path: GoldCall[]; answer?: unknown };
}

export type ApiServerSpec = ServerOf<ApiSurface>;

export interface ApiSessionConfig extends SessionBase {
  backend: 'api';
  api: ApiRef;
  query: ApiSessionQuery | null;
  server: ApiServerSpec;
  /** The surface whose documentation the agent is given (by default the API as imported: stale once drifted). */
  promptSurface: ApiSurface;
}

/** What a step needs besides the session: the API's catalog, its mock world and how the backend answers. */
export interface ApiStepDeps {
  catalog: ApiCatalog;
  world: MockWorld;
  backend: BackendOptions;
}

/** The tool that ends the session; not an operation of the API. */
export const FINISH = 'Finish';

/** What an unparsable ReAct step is told (the kernel's surfaces have ToolQA-D's own message). */
export const API_FILTERED_MESSAGE =
  'Your output could not be parsed. Write "Action: <tool name>" and then "Action Input: <a JSON object of its parameters>".';

/** The surface the server speaks at `now`, and when that will next change (for MCP list_changed). */
export function apiSurfaceAt(
  server: ApiServerSpec,
  now: Date,
): { surface: ApiSurface; nextChangeAt: Date | null } {
  return surfaceInForce(server, resolveApiSchedule, now);
}

/** The tool list of the agent's prompt (its prompt surface's tools, then Finish). */
export function apiPromptToolList(config: ApiSessionConfig, now?: Date): string {
  return apiToolList(config.promptSurface, now ? { now } : {});
}

/** The observation of an answer: its JSON body for a 2xx, `Error <status>: <body>` otherwise; cut to 1024 tokens. */
export function apiObservation(status: number, body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? null);
  return truncateObservation(status >= 200 && status < 300 ? text : `Error ${status}: ${text}`);
}

/** tooldrift's own problem types (`/problems/<slug>`) for what the surface refuses, by status. */
const REFUSALS: Record<number, ProblemSlug> = {
  400: 'validation-error',
  404: 'not-found',
  405: 'method-not-allowed',
  410: 'gone',
};

/** The RFC 9457 answer of a refused call, as every tooldrift problem (the request id is the route's to add). */
function problemAnswer(
  status: number,
  detail: string,
  options: Omit<ProblemOptions, 'detail'> = {},
): HttpAnswer {
  return {
    status,
    headers: { 'content-type': 'application/problem+json' },
    body: problemBody(REFUSALS[status] ?? 'validation-error', { ...options, detail, status }),
  };
}

type Parsed =
  | { ok: true; action: string; args: Record<string, unknown> }
  | { ok: false; reason: 'filtered' | 'argument-error'; message: string; action?: string };

/** A named call's action and its decoded, plain-JSON arguments. */
function parseNamed(input: Exclude<SessionInput, { http: unknown }>): Parsed {
  let action: string;
  let raw: unknown;
  if (typeof input === 'string') {
    const parsed = parseReact(input, API_FILTERED_MESSAGE);
    // ToolQA-D's parse needs a character between the braces; an operation without parameters is called with `{}`.
    const empty = parsed.ok ? null : /Action:\s*(\S[^\n]*?)\s*Action Input:\s*\{\s*\}\s*$/.exec(input);
    if (!parsed.ok && !empty) return { ok: false, reason: 'filtered', message: parsed.observation };
    action = parsed.ok ? parsed.action.trim() : String(empty?.[1] ?? '').trim();
    raw = parsed.ok ? parsed.actionInput : '{}';
  } else {
    action = input.action.trim();
    raw = input.actionInput;
    if (action === '' || (typeof raw === 'string' && raw.trim() === '')) {
      return { ok: false, reason: 'filtered', message: API_FILTERED_MESSAGE };
    }
  }
  if (typeof raw === 'string') {
    const decoded = decodeActionInput(raw);
    if (!decoded.ok) return { ok: false, reason: 'argument-error', message: decoded.observation, action };
    raw = plainJson(decoded.params);
  } else raw = plainJson(raw);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      ok: false,
      reason: 'argument-error',
      message: 'The action input must be a JSON object of parameters.',
      action,
    };
  }
  return { ok: true, action, args: raw as Record<string, unknown> };
}

/** The score of an ended session (see the module header). */
export function scoreApiSession(
  config: ApiSessionConfig,
  state: ApiSessionState,
  surface: ApiSurface,
  answer: unknown,
  correct: boolean | null,
): ApiScore {
  const gold = config.query?.gold?.path ?? [];
  const called = state.calls.map((c) => c.operation);
  return {
    correctPath:
      gold.length > 0
        ? correctPath(
            gold.map((g) => g.operation),
            called,
          )
        : null,
    goldPath: gold.map((g) => g.operation),
    called,
    goldOnSurface: gold.map((g) => {
      const t = translateGoldCall(surface, g);
      return t ? (t.method && t.path ? `${t.method.toUpperCase()} ${t.path}` : t.name) : null;
    }),
    answer,
    correct,
  };
}

/** One agent step on an imported API. Throws SessionFinishedError after the episode ended. */
export async function runApiStep(
  config: ApiSessionConfig,
  progress: SessionProgress,
  input: SessionInput,
  via: StepVia,
  deps: ApiStepDeps,
  realNow: Date,
): Promise<SessionStepResult> {
  if (progress.done) throw new SessionFinishedError(progress);
  const now = sessionNow(progress, realNow);
  const { surface } = apiSurfaceAt(config.server, now);
  let state: ApiSessionState = progress.api ?? { overlay: emptyOverlay(), calls: [] };
  const entry: TranscriptEntry = {
    index: progress.steps,
    at: now.toISOString(),
    via,
    input: isHttpInput(input) ? { http: { ...input.http, headers: {} } } : input,
    observation: '',
    outcome: { kind: 'rejected', reason: 'filtered', status: 400 },
    surfaceId: surface.id,
    reward: null,
    done: false,
  };
  let response: HttpAnswer = problemAnswer(400, API_FILTERED_MESSAGE);
  let finished: { answer: unknown; correct: boolean | null } | null = null;

  let callInput: ApiCallInput | null = null;
  if (isHttpInput(input)) {
    callInput = { via: 'http', ...input.http };
    entry.http = { method: input.http.method.toUpperCase(), path: input.http.path, status: 0 };
  } else {
    const parsed = parseNamed(input);
    if (!parsed.ok) {
      if (parsed.action !== undefined) entry.action = parsed.action;
      entry.observation = parsed.message;
      entry.outcome = { kind: 'rejected', reason: parsed.reason, status: 400 };
      response = problemAnswer(400, parsed.message);
    } else if (parsed.action === FINISH) {
      entry.action = FINISH;
      const answer = parsed.args.answer;
      const goldAnswer = config.query?.gold?.answer;
      // An imported API's gold answer is not ToolQA-D's: differing numbers never match (the strict rule), not
      // ToolEVO's fall-through to the string test that the kernel's EM keeps for fidelity (spec §6.1).
      const correct =
        goldAnswer === undefined ? null : answerMatches(goldAnswer, answer, { numbers: 'strict' });
      finished = { answer: answer ?? null, correct };
      entry.outcome = { kind: 'finished', correct };
      entry.observation =
        correct === null ? 'Answer recorded.' : correct ? 'Answer is CORRECT' : 'Answer is INCORRECT';
      response = { status: 200, headers: { 'content-type': 'application/json' }, body: { answer, correct } };
    } else {
      entry.action = parsed.action;
      callInput = { via: 'name', name: parsed.action, args: parsed.args };
    }
  }

  if (callInput) {
    const resolution = resolveApiCall(surface, deps.catalog, callInput, { now });
    if (resolution.operation) entry.operation = resolution.operation;
    if (resolution.deprecation) entry.deprecation = resolution.deprecation;
    if (resolution.kind === 'rejected') {
      entry.observation = truncateObservation(resolution.message);
      entry.outcome = { kind: 'rejected', reason: resolution.reason, status: resolution.status };
      response = problemAnswer(resolution.status, resolution.message, {
        // As every tooldrift problem locates a field: where it travels, its name and its JSON pointer.
        ...(resolution.errors
          ? {
              errors: resolution.errors.map((e) => ({
                in: e.in ?? 'body',
                field: e.field,
                pointer: `/${e.field.replaceAll('~', '~0').replaceAll('/', '~1')}`,
                message: e.message,
              })),
            }
          : {}),
        ...(resolution.deprecation?.successor
          ? { extensions: { successor: resolution.deprecation.successor } }
          : {}),
      });
      if (resolution.allow) response.headers.allow = resolution.allow.map((m) => m.toUpperCase()).join(', ');
    } else {
      const answer = await callBackend(
        deps.world,
        deps.backend,
        resolution.operation,
        resolution.args,
        state.overlay,
      );
      const shaped = shapeApiResponse(surface, resolution.context, answer);
      const exposed = toolRoute(resolution.tool) ?? resolution.tool.name;
      state = {
        ...state,
        overlay: answer.overlay,
        calls: [...state.calls, { operation: resolution.operation, exposed, status: shaped.status }],
      };
      entry.call = { tool: resolution.operation, args: resolution.args };
      entry.observation = apiObservation(shaped.status, shaped.body);
      entry.outcome =
        shaped.status >= 200 && shaped.status < 300
          ? { kind: 'ok', status: shaped.status }
          : { kind: 'error', reason: 'status', status: shaped.status };
      response = shaped;
    }
  }
  const answerHttp = response;
  if (entry.http) entry.http.status = answerHttp.status;
  else if (entry.outcome.kind !== 'finished') {
    const tool = entry.operation ? surface.tools.find((t) => t.name === entry.action) : undefined;
    entry.http = {
      ...(tool?.method ? { method: tool.method.toUpperCase() } : {}),
      ...(tool?.path ? { path: tool.path } : {}),
      status: answerHttp.status,
    };
  }

  const hasGoldAnswer = config.query?.gold?.answer !== undefined;
  const closed = closeStep(
    progress,
    config.stepBudget,
    finished ? { reward: finished.correct === null ? null : finished.correct ? 1 : -1 } : null,
    hasGoldAnswer ? -1 : null,
  );
  if (closed.done) {
    state = {
      ...state,
      score: scoreApiSession(
        config,
        state,
        surface,
        finished?.answer ?? null,
        finished?.correct ?? (hasGoldAnswer ? false : null),
      ),
    };
  }
  entry.reward = closed.reward;
  entry.done = closed.done;
  const next: SessionProgress = { ...progress, ...closed, api: state };
  return { progress: next, entry, response: answerHttp };
}
