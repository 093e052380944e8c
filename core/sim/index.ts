/**
 * `sim` — the simulated policy: a deterministic, non-neural stand-in for an LLM agent that writes ReAct steps
 * (Thought / Action / Action Input) from the prompt text alone. It knows the world's task templates (as a model
 * fine-tuned on them would) and plans with them in terms of the tool documentation in its prompt; it never reads
 * server-side truth (which surface is deployed, gold answers). How it copes with drift is governed by the skill
 * knobs of skills.ts; everything it reports is labelled as a simulator (`capabilities.simulated`, the model name
 * `tooldrift-sim-v1 (simulator)`).
 *
 * Sampling contract:
 * - temperature 0 (greedy): the output is a function of the prompt (and the policy seed of the options): the same
 *   for every request seed and every candidate (see decider.ts for what the knobs mean then);
 * - temperature > 0: candidate i draws from a stream seeded by (policy seed, request seed, prompt hash, i), so the
 *   same seed repeats the same candidates; candidates are re-drawn (up to 8 times) when they repeat an earlier
 *   candidate's text, so k candidates differ whenever the policy has that many different steps to offer.
 *   The temperature's value beyond > 0 does not matter: the knobs are the sampling probabilities.
 * - `stop` strings cut the text (the policy never writes `Observation:` itself); `maxTokens` cuts it at that many
 *   whitespace-separated words, with finishReason `length`.
 * - log-probabilities (when asked for): `sum` is the log-probability of the choices that produced the candidate
 *   under the simulator's own sampling process (knob outcomes, noise kind, wording), `count` the candidate's
 *   word count — so the geometric mean MCTS uses as a prior is a genuine per-word share of that probability.
 * - usage counts words, not tokens; latency and cost are 0 (nothing is called); `topP` and `jsonSchema` are
 *   ignored (no structured output).
 *
 * Modules: prompt-reader (the prompt's question, tool list, steps), observations (what an observation says),
 * shapes (how a tool wants its arguments, from docs or a param example), knowledge (tools and history read
 * together), questions (task template recognition), replay (the plan so far), policy (the next step), noise,
 * phrasing, decider (choices and their probabilities), skills (the knobs and presets); ste (the STE prompt
 * kinds: imagining queries, reflecting, judging, paraphrasing — ste-queries holds its query grammar) and
 * demonstrations (reading STE's in-context demonstrations).
 */

import type {
  Candidate,
  Capabilities,
  GenerateRequest,
  GenerateResponse,
  TextModel,
} from '../models/types.ts';
import { promptText } from '../prompts/types.ts';
import { hash128, Rng } from '../util/random.ts';
import { Decider } from './decider.ts';
import { nextStep, type PolicyStep } from './policy.ts';
import { readPrompt } from './prompt-reader.ts';
import { resolveSkills, SIM_PRESETS, type SimPreset, type SimSkills, type SimSkillsInput } from './skills.ts';
import { steKind, steReply } from './ste.ts';

export type { PolicyStep, StepKind } from './policy.ts';
export {
  NOISE_KINDS,
  type NoiseKind,
  resolveSkills,
  SIM_PRESETS,
  type SimPreset,
  type SimSkills,
  type SimSkillsInput,
} from './skills.ts';

export const SIM_PROVIDER = 'sim';
export const SIM_MODEL_NAME = 'tooldrift-sim-v1';
/** How the simulator names itself in responses, logs and reports. */
export const SIM_MODEL_LABEL = `${SIM_MODEL_NAME} (simulator)`;

export const SIM_CAPABILITIES: Capabilities = {
  n: true,
  logprobs: true,
  seed: true,
  embeddings: false,
  simulated: true,
  structuredOutput: false,
};

/**
 * Options, also accepted as a model configuration of core/models/factory.ts (`{provider: 'sim', model, seed,
 * preset, skills}`); any other key is an error, so that a misspelt knob never silently falls back to a default.
 */
export interface SimModelOptions {
  provider?: typeof SIM_PROVIDER;
  /** Only `tooldrift-sim-v1`. */
  model?: string;
  /** Start from a preset (default `static`). */
  preset?: SimPreset;
  /** Knobs that replace the preset's. */
  skills?: SimSkillsInput;
  /**
   * The policy seed, the simulator's "weights": which situations its greedy choices get right. Two simulators
   * with the same skills and different policy seeds behave alike on average but differ case by case. (The
   * request's numeric `seed` drives sampling.)
   */
  seed?: string;
}

const OPTION_KEYS = new Set(['provider', 'model', 'preset', 'skills', 'seed']);

function checkOptions(options: Readonly<Record<string, unknown>>): void {
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) throw new RangeError(`unknown sim option ${key}`);
  }
  if (options.provider !== undefined && options.provider !== SIM_PROVIDER) {
    throw new RangeError(`the sim factory cannot build provider ${String(options.provider)}`);
  }
  if (options.model !== undefined && options.model !== SIM_MODEL_NAME) {
    throw new RangeError(`the sim provider serves ${SIM_MODEL_NAME}, not ${String(options.model)}`);
  }
  if (options.preset !== undefined && !Object.hasOwn(SIM_PRESETS, options.preset as string)) {
    throw new RangeError(
      `unknown sim preset ${String(options.preset)}; known: ${Object.keys(SIM_PRESETS).join(', ')}`,
    );
  }
  if (options.seed !== undefined && typeof options.seed !== 'string') {
    throw new RangeError('the sim policy seed must be a string');
  }
}

export interface SimModel extends TextModel {
  readonly skills: SimSkills;
}

/** Upper bound on candidates per call. */
export const SIM_MAX_CANDIDATES = 64;
const DISTINCT_REDRAWS = 8;

function wordCount(text: string): number {
  const t = text.trim();
  return t === '' ? 0 : t.split(/\s+/).length;
}

function cutAtStop(text: string, stop: readonly string[] | undefined): { text: string; stopped: boolean } {
  let end = text.length;
  for (const s of stop ?? []) {
    if (s === '') continue;
    const at = text.indexOf(s);
    if (at >= 0 && at < end) end = at;
  }
  return { text: text.slice(0, end), stopped: end < text.length };
}

function cutAtWords(text: string, max: number): { text: string; cut: boolean } {
  if (max <= 0) return { text: '', cut: text.trim() !== '' };
  const re = /\S+/g;
  let count = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    count++;
    if (count === max) {
      const end = m.index + m[0].length;
      return { text: text.slice(0, end), cut: end < text.trimEnd().length };
    }
  }
  return { text, cut: false };
}

function hashHex(text: string): string {
  return hash128(text)
    .map((x) => x.toString(16).padStart(8, '0'))
    .join('');
}

export interface SimStepOptions {
  skills: SimSkills;
  temperature?: number;
  seed?: number;
  candidate?: number;
  policySeed?: string;
}

/** One step of the policy for a prompt text, with what kind of step it is (for tests and diagnostics). */
export function simulateStep(text: string, opts: SimStepOptions): PolicyStep & { logprob: number } {
  const decider = makeDecider(
    opts.policySeed ?? SIM_MODEL_NAME,
    hashHex(text),
    opts.temperature ?? 0,
    opts.seed ?? 0,
    `${opts.candidate ?? 0}`,
  );
  const step = nextStep(readPrompt(text), opts.skills, decider);
  return { ...step, logprob: decider.logprob };
}

function makeDecider(policySeed: string, hash: string, temperature: number, seed: number, draw: string) {
  return temperature <= 0
    ? new Decider({ kind: 'greedy', key: `${policySeed}/${hash}` })
    : new Decider({ kind: 'sample', rng: new Rng(`${policySeed}/${seed}/${hash}/${draw}`) });
}

export function createSimModel(options: SimModelOptions & Readonly<Record<string, unknown>> = {}): SimModel {
  checkOptions(options);
  const skills = resolveSkills(options.skills, options.preset);
  const policySeed = options.seed ?? SIM_MODEL_NAME;
  return {
    provider: SIM_PROVIDER,
    model: SIM_MODEL_NAME,
    capabilities: SIM_CAPABILITIES,
    skills,
    async generate(request: GenerateRequest, signal?: AbortSignal): Promise<GenerateResponse> {
      if (signal?.aborted)
        throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
      if (request.model !== undefined && request.model !== SIM_MODEL_NAME) {
        throw new RangeError(`the sim provider serves ${SIM_MODEL_NAME}, not ${request.model}`);
      }
      const n = request.n ?? 1;
      if (!Number.isInteger(n) || n < 1 || n > SIM_MAX_CANDIDATES) {
        throw new RangeError(`n must be an integer in [1, ${SIM_MAX_CANDIDATES}], got ${n}`);
      }
      const temperature = request.temperature ?? 1;
      if (!(temperature >= 0)) throw new RangeError(`temperature must be ≥ 0, got ${temperature}`);
      const seed = request.seed ?? 0;
      const text = promptText(request.messages);
      const prompt = readPrompt(text);
      const hash = hashHex(text);

      const candidates: Candidate[] = [];
      const seen = new Set<string>();
      let outputTokens = 0;
      for (let i = 0; i < n; i++) {
        let step: PolicyStep | null = null;
        let logprob = 0;
        const draws = temperature > 0 ? DISTINCT_REDRAWS : 1;
        for (let r = 0; r < draws; r++) {
          const decider = makeDecider(policySeed, hash, temperature, seed, r === 0 ? `${i}` : `${i}/${r}`);
          const ste = steKind(request.messages) !== null ? steReply(request.messages, skills, decider) : null;
          step = ste !== null ? { text: ste, kind: 'call' } : nextStep(prompt, skills, decider);
          logprob = decider.logprob;
          if (!seen.has(step.text)) break;
        }
        const full = (step as PolicyStep).text;
        seen.add(full);
        const stopped = cutAtStop(full, request.stop);
        let out = stopped.text;
        let finishReason: Candidate['finishReason'] = 'stop';
        if (request.maxTokens !== undefined) {
          const cut = cutAtWords(out, Math.max(0, request.maxTokens));
          if (cut.cut) {
            out = cut.text;
            finishReason = 'length';
          }
        }
        const count = wordCount(out);
        outputTokens += count;
        const candidate: Candidate = { text: out, finishReason };
        if (request.logprobs) candidate.logprob = { sum: logprob, count };
        candidates.push(candidate);
      }
      return {
        candidates,
        model: SIM_MODEL_LABEL,
        usage: {
          calls: 1,
          inputTokens: wordCount(text),
          outputTokens,
          latencyMs: 0,
          costUsd: 0,
        },
      };
    },
  };
}
