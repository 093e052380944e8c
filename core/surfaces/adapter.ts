/**
 * The surface adapter (spec §4.1): one agent step on a surface, generically over the ParamSpec kinds.
 *
 * `resolveCall` maps an exposed name and its decoded arguments onto a kernel call, or onto the observation that
 * replaces it:
 * 1. the name (trimmed, exact, case-sensitive) is looked up among the surface's tools, then its retired names;
 *    unknown → the invalid-action message; retired, or a tool whose lifecycle is sunset → its deprecation
 *    message (arguments are not inspected);
 * 2. the arguments are checked and translated: tools with a numbered parameter check keys by position (§4.3),
 *    every other tool requires the exact key set; then flags, prefixes and structured strings are checked in
 *    key order. A wrong key set answers with the tool family's parameter-error message, or with the
 *    invalid-action message when the tool says so (P_c, §4.2); a bad value with the family's value message
 *    (§4.8); a structured value that is not a string with Python's TypeError text;
 * 3. the result is a kernel call with kernel parameter names (renamed values are passed on unchanged).
 *
 * `stepSurface` runs a whole step: ReAct parsing (the surface's "filtered" message), lenient JSON decoding
 * (`argument error: …`), resolution, the step/load bookkeeping of the original's search tree (§8.2), the kernel
 * call, truncation of every observation to 1024 tokens except the "filtered" message (§3.0), and the surface's
 * response format.
 *
 * Response format `wrapped` renders `{"<stateKey>": "<success|failure>", "<messageKey>": "<observation>"}` with
 * Python json.dumps conventions (`", "` and `": "` separators, non-ASCII and control characters escaped, keys
 * in that order). The state is `success` when the kernel ran the tool without error (Finish included, correct
 * or not) and `failure` for everything else. The message is the truncated observation; the wrapper is added
 * after truncation so that the rendering is always valid JSON.
 *
 * Deliberate differences from ToolQA-D:
 * - Loads (the MCTS `max_load_db` counter) are counted for every step whose action name the surface maps to
 *   LoadDB or LoadGraph — served, retired or sunset, whether or not the call succeeds — and for no other
 *   name. The original counted the six names `LoadDB`, `LoadGraph`, `InitializeDatabase`,
 *   `InitializeGraphData`, `Init_DB`, `Import_Graph` under every API version, so it missed the v2-alt names
 *   `Init_LocalDB` / `ImportGraph` and counted e.g. `Init_DB` sent to P_c (an invalid action there).
 * - A prefixed value (SQL/Python code on P_s_in/P_s_OOD) that is not a string answers with the tool's
 *   missing-prefix message; the original crashed and aborted the whole question (§4.10 item 10).
 */
import { PyDict, PyFloat, PyInt, pyJsonString } from '../util/python-format.ts';
import { pythonStr } from '../world/answer-match.ts';
import { decodeActionInput } from '../world/kernel/json-decode.ts';
import {
  callKernel,
  KERNEL_TOOL_PARAMS,
  type KernelCall,
  type KernelDeps,
  type KernelOutcome,
  type KernelToolName,
  truncateObservation,
} from '../world/kernel/kernel.ts';
import {
  argumentError,
  EDGE_ARGUMENTS_WRONG,
  FILTER_ARGUMENTS_WRONG,
  PARAM_ERROR_COMMAND,
  PARAM_ERROR_FLAG,
  PARAM_ERROR_GETTING_VALUE,
  PARAM_ERROR_PYTHON_ARGUMENTS,
  PARAM_ERROR_PYTHON_COMMAND,
  PARAM_ERROR_SQL_ARGUMENTS,
  SQL_ERROR,
} from '../world/kernel/messages.ts';
import { PY_WS_CLASS, pyStrip, pyTypeName } from '../world/kernel/python-text.ts';
import { countLoad, countStep, type EnvState } from '../world/kernel/state.ts';
import { parseReact } from '../world/react-parse.ts';
import type { World } from '../world/types.ts';
import type { Lifecycle, LifecycleStatus, ParamSpec, ResponseFormat, Surface, SurfaceTool } from './model.ts';
import { deprecationMessage } from './signature.ts';

/** Decoded Action Input: a PyDict from the JSON decoder (key order kept) or a plain record. */
export type CallArgs = PyDict | Readonly<Record<string, unknown>>;

export interface ResolveOptions {
  /** The current time, for `deprecatedAt` / `sunsetAt`; without it only `lifecycle.status` counts. */
  now?: Date;
}

/** Why a name is (being) phased out, for HTTP `Deprecation` / `Sunset` headers and for metrics. */
export interface DeprecationNotice {
  /** The name that was called. */
  tool: string;
  /** `deprecated`: still served; `sunset`: a tool past its sunset; `retired`: a retired name. */
  status: 'deprecated' | 'sunset' | 'retired';
  successor?: string;
  deprecatedAt?: string;
  sunsetAt?: string;
}

export type Resolution =
  | { kind: 'call'; call: KernelCall; tool: SurfaceTool; deprecation?: DeprecationNotice }
  | {
      kind: 'rejected';
      reason: 'invalid-action' | 'retired' | 'param-error';
      observation: string;
      /** The kernel tool behind the name, when the surface knows the name. */
      kernel?: KernelToolName;
      deprecation?: DeprecationNotice;
      /** The parameter a known tool was called with wrongly. */
      param?: ParamProblem;
    };

/** The parameter-error messages of one kernel tool family (spec §4.8). */
export interface ParamErrors {
  /** Wrong key set, or a key out of position. */
  keys: string;
  /** A flag, prefix or structured value that does not pass its check. */
  value: string;
}

const GENERIC_ERRORS: ParamErrors = { keys: PARAM_ERROR_COMMAND, value: PARAM_ERROR_FLAG };

const FAMILY_ERRORS: Partial<Record<KernelToolName, ParamErrors>> = {
  FilterDB: { keys: FILTER_ARGUMENTS_WRONG, value: FILTER_ARGUMENTS_WRONG },
  GetValue: { keys: PARAM_ERROR_GETTING_VALUE, value: PARAM_ERROR_GETTING_VALUE },
  EdgeCheck: { keys: EDGE_ARGUMENTS_WRONG, value: EDGE_ARGUMENTS_WRONG },
  SQLInterpreter: { keys: PARAM_ERROR_SQL_ARGUMENTS, value: SQL_ERROR },
  PythonInterpreter: { keys: PARAM_ERROR_PYTHON_ARGUMENTS, value: PARAM_ERROR_PYTHON_COMMAND },
};

export function paramErrors(kernel: KernelToolName): ParamErrors {
  return FAMILY_ERRORS[kernel] ?? GENERIC_ERRORS;
}

function reached(date: string | undefined, now: Date | undefined): boolean {
  if (date === undefined || now === undefined) return false;
  const t = Date.parse(date);
  return !Number.isNaN(t) && t <= now.getTime();
}

/** A tool's lifecycle status at `now` (dates only count when `now` is given); any tool with a lifecycle. */
export function toolStatus(tool: { lifecycle: Lifecycle }, now?: Date): LifecycleStatus {
  const l = tool.lifecycle;
  if (l.status === 'sunset' || reached(l.sunsetAt, now)) return 'sunset';
  if (l.status === 'deprecated' || reached(l.deprecatedAt, now)) return 'deprecated';
  return 'active';
}

/** The notice of a deprecated or sunset tool, from its lifecycle (any tool with a name and a lifecycle). */
export function lifecycleNotice(
  tool: { name: string; lifecycle: Lifecycle },
  status: 'deprecated' | 'sunset',
): DeprecationNotice {
  const n: DeprecationNotice = { tool: tool.name, status };
  const l = tool.lifecycle;
  if (l.successor !== undefined) n.successor = l.successor;
  if (l.deprecatedAt !== undefined) n.deprecatedAt = l.deprecatedAt;
  if (l.sunsetAt !== undefined) n.sunsetAt = l.sunsetAt;
  return n;
}

/** The kernel tool a name stands for on this surface (served, sunset or retired), if any. */
export function kernelOfName(surface: Surface, name: string): KernelToolName | undefined {
  const n = pyStrip(name);
  return (surface.tools.find((t) => t.name === n) ?? surface.retired.find((r) => r.name === n))?.kernel;
}

export function isLoadTool(kernel: KernelToolName | undefined): boolean {
  return kernel === 'LoadDB' || kernel === 'LoadGraph';
}

type Entry = readonly [string, unknown];

function entriesOf(args: CallArgs): readonly Entry[] {
  return args instanceof PyDict ? args.entries : Object.entries(args);
}

/** Python `value == accepted` for the values a JSON decoder yields (`True == 1 == 1.0`). */
function pyEquals(value: unknown, accepted: string | boolean): boolean {
  if (typeof accepted === 'string' || typeof value === 'boolean') return value === accepted;
  const n = accepted ? 1 : 0;
  if (typeof value === 'number') return value === n;
  if (value instanceof PyInt)
    return typeof value.value === 'bigint' ? value.value === BigInt(n) : value.value === n;
  if (value instanceof PyFloat) return value.value === n;
  return false;
}

const structuredRegexes = new WeakMap<object, RegExp>();

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * The structured-string grammar as a regex (Python's `\s`; `.` without DOTALL, i.e. anything but `\n`):
 * `\s*L1\s*\[(.*?)\]\s*,\s*L2\s*\[(.*?)\]…\s*,\s*Ln\[(.*?)\]`.
 */
function structuredRegex(spec: Extract<ParamSpec, { kind: 'structured' }>): RegExp {
  let re = structuredRegexes.get(spec);
  if (!re) {
    const ws = `${PY_WS_CLASS}*`;
    const parts = spec.slots.map(
      (s, i) => `${escapeRegex(s.label)}${i < spec.slots.length - 1 ? ws : ''}\\[([^\\n]*?)\\]`,
    );
    re = new RegExp(`${ws}${parts.join(`${ws},${ws}`)}`);
    structuredRegexes.set(spec, re);
  }
  return re;
}

/**
 * Which parameter a rejected call got wrong, for clients that read more than the observation (the REST tool
 * routes answer it as the problem's `field` and `errors[]`); the agent still sees only the observation.
 */
export interface ParamProblem {
  /** The exposed parameter name (as the caller spelt it, for an unknown one). */
  field: string;
  message: string;
}

type BindError = ({ error: 'keys' } | { error: 'value' } | { error: 'text'; text: string }) & {
  param: ParamProblem;
};
type Bound = { args: Record<string, unknown> } | BindError;

/** Checks one non-numbered argument and writes its kernel arguments into `out`. */
function bindOne(
  spec: Exclude<ParamSpec, { kind: 'numbered' }>,
  value: unknown,
  out: Record<string, unknown>,
): BindError | null {
  const bad = (message: string): BindError => ({ error: 'value', param: { field: spec.name, message } });
  switch (spec.kind) {
    case 'rename':
      out[spec.kernel] = value;
      return null;
    case 'ignored':
      return null;
    case 'flag':
      return spec.accepted.some((a) => pyEquals(value, a))
        ? null
        : bad(`expected one of ${spec.accepted.map((a) => JSON.stringify(a)).join(', ')}`);
    case 'prefixed': {
      if (typeof value !== 'string' || !value.startsWith(spec.prefix))
        return bad(`expected a string starting with ${JSON.stringify(spec.prefix)}`);
      const rest = value.slice(spec.prefix.length);
      out[spec.kernel] = spec.trim ? pyStrip(rest) : rest;
      return null;
    }
    case 'structured': {
      if (typeof value !== 'string') {
        const text = `expected string or bytes-like object, got '${pyTypeName(value)}'`;
        return { error: 'text', text, param: { field: spec.name, message: text } };
      }
      const m = structuredRegex(spec).exec(value);
      if (!m) return bad(`expected ${spec.slots.map((s) => `${s.label}[…]`).join(', ')}`);
      spec.slots.forEach((s, i) => {
        out[s.kernel] = pyStrip(m[i + 1] as string);
      });
      return null;
    }
  }
}

function isRequired(spec: ParamSpec): boolean {
  return !(spec.kind === 'flag' && spec.optional);
}

/** §4.2–§4.3: the argument check and translation of one tool. */
function bindArgs(tool: SurfaceTool, entries: readonly Entry[]): Bound {
  const numbered = tool.params.find((p) => p.kind === 'numbered');
  const named = new Map<string, Exclude<ParamSpec, { kind: 'numbered' }>>();
  for (const p of tool.params) if (p.kind !== 'numbered') named.set(p.name, p);
  const keys = entries.map(([k]) => k);
  const names = tool.params.map((p) => (p.kind === 'numbered' ? `${p.prefix}1, ${p.prefix}2, …` : p.name));
  const keyError = (field: string, message: string): BindError => ({
    error: 'keys',
    param: { field, message: `${message} (the parameters of ${tool.name}: ${names.join(', ')})` },
  });
  const missing = () => [...named.values()].find((p) => isRequired(p) && !keys.includes(p.name));
  const missingError = (): BindError | null => {
    const p = missing();
    return p ? keyError(p.name, 'required parameter missing') : null;
  };
  const out: Record<string, unknown> = {};

  if (!numbered) {
    const unknown = keys.find((k) => !named.has(k));
    if (unknown !== undefined) return keyError(unknown, 'unknown parameter');
    const absent = missingError();
    if (absent) return absent;
    for (const [key, value] of entries) {
      const err = bindOne(named.get(key) as Exclude<ParamSpec, { kind: 'numbered' }>, value, out);
      if (err) return err;
    }
    return { args: out };
  }

  const companions = numbered.singleKeyWith ?? [];
  const singleForm =
    numbered.singleKey !== undefined &&
    keys.length === 1 + companions.length &&
    companions.every((c) => keys.includes(c));
  const parts: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const [key, value] = entries[i] as Entry;
    if (key === `${numbered.prefix}${i + 1}` || (singleForm && key === numbered.singleKey)) {
      parts.push(pythonStr(value));
      continue;
    }
    const spec = named.get(key);
    if (!spec) return keyError(key, 'unknown parameter or out of position');
    const err = bindOne(spec, value, out);
    if (err) return err;
  }
  const absent = missingError();
  if (absent) return absent;
  out[numbered.kernel] = parts.join(numbered.joiner);
  return { args: out };
}

/** Maps an exposed call onto a kernel call, or onto the observation that answers it (spec §4.1–§4.3, §4.8). */
export function resolveCall(
  surface: Surface,
  actionName: string,
  args: CallArgs,
  opts: ResolveOptions = {},
): Resolution {
  const name = pyStrip(actionName);
  const tool = surface.tools.find((t) => t.name === name);
  if (!tool) {
    const retired = surface.retired.find((r) => r.name === name);
    if (!retired)
      return { kind: 'rejected', reason: 'invalid-action', observation: surface.messages.invalidAction };
    return {
      kind: 'rejected',
      reason: 'retired',
      observation: retired.message,
      kernel: retired.kernel,
      deprecation: { tool: retired.name, status: 'retired', successor: retired.successor },
    };
  }
  const status = toolStatus(tool, opts.now);
  if (status === 'sunset') {
    const successorName = tool.lifecycle.successor;
    if (successorName === undefined) {
      return {
        kind: 'rejected',
        reason: 'invalid-action',
        observation: surface.messages.invalidAction,
        kernel: tool.kernel,
        deprecation: lifecycleNotice(tool, 'sunset'),
      };
    }
    const successor = surface.tools.find((t) => t.name === successorName);
    return {
      kind: 'rejected',
      reason: 'retired',
      observation: deprecationMessage(tool, successor ?? successorName),
      kernel: tool.kernel,
      deprecation: lifecycleNotice(tool, 'sunset'),
    };
  }
  const deprecation = status === 'deprecated' ? lifecycleNotice(tool, 'deprecated') : undefined;
  const bound = bindArgs(tool, entriesOf(args));
  if ('args' in bound) {
    const call: KernelCall = { tool: tool.kernel, args: bound.args };
    return deprecation ? { kind: 'call', call, tool, deprecation } : { kind: 'call', call, tool };
  }
  let reason: 'invalid-action' | 'param-error' = 'param-error';
  let observation: string;
  if (bound.error === 'text') observation = bound.text;
  else if (bound.error === 'value') observation = paramErrors(tool.kernel).value;
  else if (tool.keyMismatch === 'invalid-action') {
    reason = 'invalid-action';
    observation = surface.messages.invalidAction;
  } else observation = paramErrors(tool.kernel).keys;
  const rejected: Resolution = {
    kind: 'rejected',
    reason,
    observation,
    kernel: tool.kernel,
    param: bound.param,
  };
  if (deprecation) rejected.deprecation = deprecation;
  return rejected;
}

export type RejectReason = 'filtered' | 'argument-error' | 'invalid-action' | 'retired' | 'param-error';

export type StepOutcome = KernelOutcome | { kind: 'rejected'; reason: RejectReason };

/** What the agent sent: generated ReAct text, or an action name with its Action Input (JSON text or decoded). */
export type StepInput = string | { action: string; actionInput: string | CallArgs };

export interface SurfaceStep {
  state: EnvState;
  /** What the agent sees, in the surface's response format. */
  observation: string;
  outcome: StepOutcome;
  /** The action name as parsed and trimmed (absent when the step was filtered). */
  action?: string;
  /** The kernel call, when the step reached the kernel. */
  call?: KernelCall;
  /** The kernel tool behind the called name, when the surface knows the name (also for rejected calls). */
  kernel?: KernelToolName;
  deprecation?: DeprecationNotice;
  /** For a call rejected for its parameters: which one, and why. */
  param?: ParamProblem;
}

/** The observation in the surface's response format (see the module header for the exact rendering). */
export function formatObservation(format: ResponseFormat, observation: string, success: boolean): string {
  if (format.kind === 'plain') return observation;
  const state = success ? format.success : format.failure;
  return `{${pyJsonString(format.stateKey)}: ${pyJsonString(state)}, ${pyJsonString(format.messageKey)}: ${pyJsonString(observation)}}`;
}

function rejectedStep(
  surface: Surface,
  state: EnvState,
  reason: RejectReason,
  observation: string,
  extra: {
    action?: string;
    kernel?: KernelToolName;
    deprecation?: DeprecationNotice;
    param?: ParamProblem;
  } = {},
): SurfaceStep {
  let next = countStep(state);
  if (isLoadTool(extra.kernel)) next = countLoad(next);
  // §3.0: the "filtered" answer is returned as it is; every other observation is truncated.
  const text = reason === 'filtered' ? observation : truncateObservation(observation);
  const step: SurfaceStep = {
    state: next,
    observation: formatObservation(surface.response, text, false),
    outcome: { kind: 'rejected', reason },
  };
  if (extra.action !== undefined) step.action = extra.action;
  if (extra.kernel) step.kernel = extra.kernel;
  if (extra.deprecation) step.deprecation = extra.deprecation;
  if (extra.param) step.param = extra.param;
  return step;
}

function isCallArgs(v: unknown): v is CallArgs {
  return (
    v instanceof PyDict ||
    (typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      !(v instanceof PyInt) &&
      !(v instanceof PyFloat))
  );
}

/** One agent step on a surface: parse, decode, resolve, run the kernel, format (see the module header). */
export async function stepSurface(
  world: World,
  surface: Surface,
  state: EnvState,
  input: StepInput,
  deps: KernelDeps,
  opts: ResolveOptions = {},
): Promise<SurfaceStep> {
  let action: string;
  let rawInput: string | CallArgs;
  if (typeof input === 'string') {
    const parsed = parseReact(input, surface.messages.filtered);
    if (!parsed.ok) return rejectedStep(surface, state, 'filtered', parsed.observation);
    action = parsed.action;
    rawInput = parsed.actionInput;
  } else {
    action = pyStrip(input.action);
    rawInput = input.actionInput;
    const empty = typeof rawInput === 'string' && pyStrip(rawInput) === '';
    if (action === '' || empty) return rejectedStep(surface, state, 'filtered', surface.messages.filtered);
  }

  let args: CallArgs;
  if (typeof rawInput === 'string') {
    const decoded = decodeActionInput(rawInput);
    if (!decoded.ok) {
      return rejectedStep(surface, state, 'argument-error', decoded.observation, {
        action,
        kernel: kernelOfName(surface, action),
      });
    }
    args = decoded.params;
  } else if (isCallArgs(rawInput)) {
    args = rawInput;
  } else {
    const message = argumentError(`the action input must be a JSON object, not ${pyTypeName(rawInput)}`);
    return rejectedStep(surface, state, 'argument-error', message, {
      action,
      kernel: kernelOfName(surface, action),
    });
  }

  const resolution = resolveCall(surface, action, args, opts);
  if (resolution.kind === 'rejected') {
    return rejectedStep(surface, state, resolution.reason, resolution.observation, {
      action,
      kernel: resolution.kernel,
      deprecation: resolution.deprecation,
      param: resolution.param,
    });
  }
  // The kernel counts the step (and the load) itself and truncates its observation.
  const result = await callKernel(world, state, resolution.call, deps);
  // A refused call (SQL guard, Python budget) answered with the tool's error text: a failure, like an error.
  const success = result.outcome.kind !== 'error' && result.outcome.kind !== 'refused';
  const step: SurfaceStep = {
    state: result.state,
    observation: formatObservation(surface.response, result.observation, success),
    outcome: result.outcome,
    action,
    call: resolution.call,
    kernel: resolution.call.tool,
  };
  if (resolution.deprecation) step.deprecation = resolution.deprecation;
  return step;
}

/**
 * Consistency problems of a surface (empty when it is usable): duplicate or untrimmed names, parameters that
 * collide or do not cover the kernel tool's parameters, flags without accepted values, successors that do not
 * exist, and examples that do not resolve to a kernel call.
 */
export function validateSurface(surface: Surface): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const n of [...surface.tools.map((t) => t.name), ...surface.retired.map((r) => r.name)]) {
    if (n !== pyStrip(n) || n === '') problems.push(`name ${JSON.stringify(n)} is empty or not trimmed`);
    if (names.has(n)) problems.push(`name ${n} is used twice`);
    names.add(n);
  }
  if (surface.response.kind === 'wrapped' && surface.response.stateKey === surface.response.messageKey) {
    problems.push('the wrapped response uses the same key for state and message');
  }
  for (const tool of surface.tools) {
    const where = `${tool.name}:`;
    const keys = new Set<string>();
    const kernelArgs: string[] = [];
    const numbered = tool.params.filter((p) => p.kind === 'numbered');
    if (numbered.length > 1) problems.push(`${where} more than one numbered parameter`);
    for (const p of tool.params) {
      if (p.kind === 'numbered') {
        kernelArgs.push(p.kernel);
        if (p.singleKey !== undefined) keys.add(p.singleKey);
        continue;
      }
      if (keys.has(p.name)) problems.push(`${where} parameter ${p.name} is declared twice`);
      keys.add(p.name);
      if (p.kind === 'rename' || p.kind === 'prefixed') kernelArgs.push(p.kernel);
      if (p.kind === 'structured') kernelArgs.push(...p.slots.map((s) => s.kernel));
      if (p.kind === 'structured' && p.slots.length === 0) problems.push(`${where} ${p.name} has no slots`);
      if (p.kind === 'flag' && p.accepted.length === 0)
        problems.push(`${where} flag ${p.name} accepts nothing`);
    }
    for (const p of numbered) {
      if (p.prefix === '' || /[0-9]$/.test(p.prefix)) {
        problems.push(`${where} numbered prefix ${JSON.stringify(p.prefix)} is empty or ends with a digit`);
      }
      for (const k of keys) {
        if (k !== p.singleKey && new RegExp(`^${escapeRegex(p.prefix)}[0-9]+$`).test(k)) {
          problems.push(
            `${where} parameter ${k} collides with the numbered keys ${p.prefix}1, ${p.prefix}2, …`,
          );
        }
      }
      for (const c of p.singleKeyWith ?? []) {
        if (!keys.has(c)) problems.push(`${where} singleKeyWith names ${c}, which is not a parameter`);
      }
    }
    const expected = [...KERNEL_TOOL_PARAMS[tool.kernel]].sort();
    const got = [...kernelArgs].sort();
    if (got.length !== expected.length || got.some((k, i) => k !== expected[i])) {
      problems.push(
        `${where} kernel arguments ${got.join(', ')} do not match ${tool.kernel}[${expected.join(', ')}]`,
      );
    }
    const successor = tool.lifecycle.successor;
    if (successor !== undefined && !surface.tools.some((t) => t.name === successor)) {
      problems.push(`${where} successor ${successor} is not a tool of the surface`);
    }
    const resolved = resolveCall(
      { ...surface, tools: [{ ...tool, lifecycle: { status: 'active' } }] },
      tool.name,
      tool.example,
    );
    if (resolved.kind !== 'call')
      problems.push(`${where} the example does not resolve: ${resolved.observation}`);
  }
  for (const r of surface.retired) {
    if (!surface.tools.some((t) => t.name === r.successor)) {
      problems.push(`retired ${r.name}: successor ${r.successor} is not a tool of the surface`);
    }
  }
  return problems;
}
