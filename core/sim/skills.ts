/**
 * The simulated policy's skill knobs. Each knob is the probability that the simulator does the right thing in
 * one situation of its kind (per step: a step after a deprecation message is one situation, the next step after
 * another deprecation message is another):
 *
 * - `pUpdate` — after a deprecation message that names a replacement, switch to the replacement (otherwise the
 *   simulator calls the deprecated tool again, the typical failure of a model that does not adapt). Also the
 *   probability of recording a newly working tool with UpdateTool right after its first success (guideline 4).
 * - `pReflect` — read error texts and parameter examples: after a parameter error (or an unknown tool name that
 *   the simulator believed in), repair the call from the error text and the param example; and on the first call
 *   of an adopted replacement, shape its parameters like the param example (otherwise it keeps the old tool's
 *   parameter keys under the new name and meets a parameter error). Without it the simulator repeats the
 *   failing call.
 * - `pDemo` — follow an in-context demonstration (STE's demonstrations aid): for the first call of a kernel tool
 *   that a demonstration in the prompt shows under another name than the documented one, write the call the
 *   way the demonstration does (its name and argument shape) instead of the documented tool. A demonstration
 *   is attributed to a kernel tool by reading its query (see demonstrations.ts).
 * - `pMemory` — use an UpdateTool line of its tool list (its memory of a changed tool) for the first call of that
 *   tool, instead of the documented tool.
 *
 * UpdateTool lines also act without a knob, as a description in a real model's tool list does: after a
 * deprecation message whose replacement a line describes, switching (still a pUpdate roll) follows the line's
 * example with no pReflect roll, and `deprecated-again` noise never hits a kernel tool whose replacement a line
 * describes. Without such lines the knobs alone decide (policy.ts).
 * - `noise` — per step, the probability of a realistic failure, of one of the kinds in `noiseKinds` (weights):
 *   malformed output, a wrong argument value, a hallucinated tool name, calling a deprecated tool again although
 *   its replacement already worked, a premature Finish with a guess, a wrong answer in the final Finish.
 * - `reflectionPromptGain` — when the prompt carries the self-reflection paragraph (prompts/reflection.ts),
 *   `pUpdate` and `pReflect` become p + (1 − p) · gain: prompting for reflection helps, but cannot make a policy
 *   that never adapts adapt reliably.
 *
 * The defaults describe a capable model that was not trained to adapt (the "static" preset): it solves tasks
 * when its documentation matches the server, and mostly fails on drifted surfaces. `adaptive` describes a model
 * trained for tool evolution (ToolEVO-like); `oracle` never fails to adapt and makes no noise.
 */

export const NOISE_KINDS = [
  'malformed',
  'wrong-value',
  'hallucinated-tool',
  'deprecated-again',
  'premature-finish',
  'wrong-finish',
] as const;
export type NoiseKind = (typeof NOISE_KINDS)[number];

export interface SimSkills {
  pUpdate: number;
  pReflect: number;
  pMemory: number;
  pDemo: number;
  noise: number;
  noiseKinds: Record<NoiseKind, number>;
  reflectionPromptGain: number;
}

export const DEFAULT_NOISE_KINDS: Readonly<Record<NoiseKind, number>> = {
  malformed: 3,
  'wrong-value': 2,
  'hallucinated-tool': 2,
  'deprecated-again': 2,
  'premature-finish': 1,
  'wrong-finish': 1,
};

export const SIM_PRESETS = {
  static: {
    pUpdate: 0.15,
    pReflect: 0.2,
    pMemory: 0.8,
    pDemo: 0.8,
    noise: 0.03,
    noiseKinds: { ...DEFAULT_NOISE_KINDS },
    reflectionPromptGain: 0.15,
  },
  adaptive: {
    pUpdate: 0.9,
    pReflect: 0.85,
    pMemory: 0.95,
    pDemo: 0.95,
    noise: 0.03,
    noiseKinds: { ...DEFAULT_NOISE_KINDS },
    reflectionPromptGain: 0.15,
  },
  oracle: {
    pUpdate: 1,
    pReflect: 1,
    pMemory: 1,
    pDemo: 1,
    noise: 0,
    noiseKinds: { ...DEFAULT_NOISE_KINDS },
    reflectionPromptGain: 0,
  },
} as const satisfies Record<string, SimSkills>;

export type SimPreset = keyof typeof SIM_PRESETS;

export const DEFAULT_SKILLS: SimSkills = SIM_PRESETS.static;

export type SimSkillsInput = Partial<Omit<SimSkills, 'noiseKinds'>> & {
  noiseKinds?: Partial<Record<NoiseKind, number>>;
};

function probability(name: string, v: number): number {
  if (!(v >= 0 && v <= 1))
    throw new RangeError(`sim skill ${name} must be a probability in [0, 1], got ${v}`);
  return v;
}

/** The skills of a preset (default `static`) with the given knobs replaced; every value is checked. */
export function resolveSkills(input: SimSkillsInput = {}, preset: SimPreset = 'static'): SimSkills {
  const base = SIM_PRESETS[preset];
  const kinds = { ...base.noiseKinds, ...input.noiseKinds };
  for (const k of Object.keys(kinds)) {
    if (!(NOISE_KINDS as readonly string[]).includes(k)) throw new RangeError(`unknown noise kind ${k}`);
    const w = kinds[k as NoiseKind];
    if (!(w >= 0) || !Number.isFinite(w))
      throw new RangeError(`noise kind ${k} needs a weight ≥ 0, got ${w}`);
  }
  return {
    pUpdate: probability('pUpdate', input.pUpdate ?? base.pUpdate),
    pReflect: probability('pReflect', input.pReflect ?? base.pReflect),
    pMemory: probability('pMemory', input.pMemory ?? base.pMemory),
    pDemo: probability('pDemo', input.pDemo ?? base.pDemo),
    noise: probability('noise', input.noise ?? base.noise),
    noiseKinds: kinds,
    reflectionPromptGain: probability(
      'reflectionPromptGain',
      input.reflectionPromptGain ?? base.reflectionPromptGain,
    ),
  };
}
