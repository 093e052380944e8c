/**
 * Evaluation suites from the command line: `--suite file.json` (a suite object as in POST /v1/evals) overlaid
 * with flags, then validated with the API's own schema (EvalSuiteSchema, core/evals/suite.ts). Flag values are
 * put into the suite as the user wrote them — numbers only when they look like numbers — so that a bad value
 * meets the same schema rule, with the same message, that the API would apply to the same JSON.
 */
import { readFileSync } from 'node:fs';
import type { ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { EvalSuiteSchema, SEARCH_METHODS, TABLE5_METHODS } from '../core/evals/suite.ts';
import { METHOD_IDS, METHODS, optionsJsonSchema } from '../core/methods/registry.ts';
import { EXIT_USAGE } from './http.ts';
import { CliError, problemLines } from './problem.ts';
import { validateBody } from './validation.ts';

/** The methods that take the ReAct options (a `prompt` option: greedy, greedy-memory, react-reflexion). */
const REACT_METHODS: readonly string[] = METHODS.filter((m) =>
  Object.hasOwn((optionsJsonSchema(m).properties as object | undefined) ?? {}, 'prompt'),
).map((m) => m.id);

export const MODEL_OPTIONS = {
  'model-provider': { type: 'string' },
  model: { type: 'string' },
  temperature: { type: 'string' },
  'model-k': { type: 'string' },
  'model-seed': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export const SUITE_OPTIONS = {
  suite: { type: 'string' },
  name: { type: 'string' },
  methods: { type: 'string' },
  surfaces: { type: 'string' },
  'prompt-surface': { type: 'string' },
  datasets: { type: 'string' },
  difficulties: { type: 'string' },
  split: { type: 'string' },
  sample: { type: 'string' },
  'max-steps': { type: 'string' },
  seed: { type: 'string' },
  'mcts-simulations': { type: 'string' },
  'mcts-k': { type: 'string' },
  'mcts-depth': { type: 'string' },
  'mcts-max-calls': { type: 'string' },
  'mcts-depth-preset': { type: 'string' },
  'reflection-prompt': { type: 'boolean' },
  prompt: { type: 'string' },
  'few-shots': { type: 'string' },
  'drift-hint': { type: 'boolean' },
  table5: { type: 'boolean' },
  aids: { type: 'string' },
  ...MODEL_OPTIONS,
} as const satisfies ParseArgsConfig['options'];

export const MODEL_HELP = `Model (default: the instance's configured model; the simulator offline):
  --model-provider P   sim | workers-ai | openai
  --model NAME         model name of that provider
  --temperature T      sampling temperature 0..2
  --model-k K          candidates per call
  --model-seed N       provider seed`;

export const SUITE_HELP = `Suite (flags override --suite):
  --suite FILE            a suite as JSON (the body of POST /v1/evals)
  --name NAME             a label for the evaluation
  --methods LIST          ${METHOD_IDS.join(',')} (default greedy;
                          \`tooldrift methods\` describes them; mcts-oracle is an upper bound)
  --table5                the Table 5 ablation suite: mcts and its three ablations (w/o self-reflection
                          removes reflection on invocation errors only; add --reflection-prompt for
                          tooldrift's explicit reflection prompt)
  --surfaces LIST         surface ids (default pc,s-in,s-ood)
  --prompt-surface ID     surface whose docs the agent reads (default pc)
  --datasets LIST         flights,coffee,airbnb,yelp,agenda,scirex,dblp (default all seven), or
                          gsm8k (generated arithmetic problems, easy only)
  --difficulties LIST     easy,hard (default both)
  --split S               test | dev | train (default test)
  --sample N|all          tasks per dataset × difficulty, 1..200, or all (the full split) (default 5)
  --max-steps N           greedy step limit, 1..50 (default 20)
  --aids JSON             what the agents are given, e.g. '{"updateMemory":{"lines":["..."]}}'
  --seed S                sampling seed (default '0')
  --mcts-simulations N, --mcts-k N, --mcts-depth N   MCTS settings (defaults 8, 3, 15)
  --mcts-max-calls N      an explicit model-call cap per task run (default none); runs that hit it are
                          reported as budget exhausted, not as wrong answers
  --mcts-depth-preset P   paper (T = --mcts-depth, depth > T) | toolevo-code (the authors' per-dataset T)
  --reflection-prompt     tooldrift's explicit reflection prompt on error states (default off)
  --prompt P              ReAct methods: agent (ToolEvo's few-shot prompt, default) | sft (ToolEvo's SFT
                          prompt, the layout of \`tooldrift export sft\`: for a model fine-tuned on it)
  --few-shots F           ReAct methods: per-call (1 UpdateTool + 2 examples of the task's dataset per call,
                          default) | fixed (tooldrift's three fixed examples)
  --drift-hint            ReAct methods: tooldrift's hint that tools drift in the guidelines (default off)`;

/** SUITE_HELP without the lines of the given flags (a command that gives them another meaning lists its own). */
export function suiteHelpWithout(...flags: string[]): string {
  return SUITE_HELP.split('\n')
    .filter((line) => !flags.some((f) => line.trimStart().startsWith(`${f} `)))
    .join('\n');
}

/** A flag value as JSON would carry it: a number when it is written as one, else the string. */
export function flagValue(raw: string): string | number {
  return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
}

/** `a, b,,c` → ['a', 'b', 'c']; an empty value gives an empty list (which the schema then rejects). */
export function listValue(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A `--tools` value: `all` (every explorable tool, said explicitly), or a comma-separated list. */
export function toolsValue(raw: string): string[] | 'all' {
  return raw.trim() === 'all' ? 'all' : listValue(raw);
}

/** Flags as parseArgs gives them, for the functions that turn them into request bodies. */
export type FlagValues = Record<string, string | boolean | undefined>;

/** A string flag's value; undefined when it is not given. */
export function stringFlag(values: FlagValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/**
 * Sets `target[member]` for each `member: flag` whose flag is given: its text as written, or as `read` takes it
 * (flagValue, listValue). A flag not given leaves its member unset, to the API's default. Whether any was given.
 */
export function setFlags(
  target: Record<string, unknown>,
  values: FlagValues,
  members: Record<string, string>,
  read: (raw: string) => unknown = (raw) => raw,
): boolean {
  let given = false;
  for (const [member, flag] of Object.entries(members)) {
    const raw = stringFlag(values, flag);
    if (raw === undefined) continue;
    target[member] = read(raw);
    given = true;
  }
  return given;
}

/** The `model` member from the model flags (merged over `base`), or undefined when none is given. */
export function modelFromFlags(values: FlagValues, base?: unknown): Record<string, unknown> | undefined {
  const model: Record<string, unknown> =
    base && typeof base === 'object' && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : {};
  setFlags(model, values, { provider: 'model-provider', model: 'model' });
  setFlags(model, values, { temperature: 'temperature', k: 'model-k', seed: 'model-seed' }, flagValue);
  return Object.keys(model).length > 0 || base !== undefined ? model : undefined;
}

export function readJsonFile(path: string, flag: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CliError([`Cannot read ${flag} ${path}: ${(err as Error).message}`], EXIT_USAGE);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError([`${flag} ${path} is not valid JSON: ${(err as Error).message}`], EXIT_USAGE);
  }
}

/** The suite object the flags describe (not yet validated). */
export function suiteFromFlags(values: FlagValues): Record<string, unknown> {
  const file = stringFlag(values, 'suite');
  const base = file ? readJsonFile(file, '--suite') : {};
  if (!base || typeof base !== 'object' || Array.isArray(base))
    throw new CliError([`--suite ${file} must hold a JSON object (a suite).`], EXIT_USAGE);
  const suite: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  setFlags(suite, values, { name: 'name' });
  setFlags(suite, values, { methods: 'methods', surfaces: 'surfaces' }, listValue);
  setFlags(suite, values, { promptSurface: 'prompt-surface' });
  setFlags(suite, values, { datasets: 'datasets', difficulties: 'difficulties' }, listValue);
  setFlags(suite, values, { split: 'split' });
  setFlags(suite, values, { sampleSize: 'sample', maxSteps: 'max-steps' }, flagValue);
  setFlags(suite, values, { seed: 'seed' });
  if (values.table5 === true && suite.methods === undefined) suite.methods = [...TABLE5_METHODS];
  setMethodOptionFlags(suite, values);
  setAidsAndModel(suite, values);
  return suite;
}

/**
 * The method option members from their flags (either kind of suite): `--mcts-*` and `--reflection-prompt` on
 * `mcts` and every listed search variant, `--prompt`, `--few-shots` and `--drift-hint` on every listed ReAct method.
 */
export function setMethodOptionFlags(suite: Record<string, unknown>, values: FlagValues): void {
  const mcts: Record<string, unknown> =
    suite.mcts && typeof suite.mcts === 'object' ? { ...(suite.mcts as Record<string, unknown>) } : {};
  let mctsSet = suite.mcts !== undefined;
  const mctsNumbers = {
    simulations: 'mcts-simulations',
    k: 'mcts-k',
    maxDepth: 'mcts-depth',
    maxModelCalls: 'mcts-max-calls',
  };
  if (setFlags(mcts, values, mctsNumbers, flagValue)) mctsSet = true;
  if (setFlags(mcts, values, { depthPreset: 'mcts-depth-preset' })) mctsSet = true;
  if (values['reflection-prompt'] === true) {
    mcts.reflectionPrompt = true;
    mctsSet = true;
  }
  if (mctsSet) {
    suite.mcts = suite.mcts !== undefined && typeof suite.mcts !== 'object' ? suite.mcts : mcts;
    // The search variants (mcts-oracle, the Table 5 ablations) take the same settings from the --mcts-* flags.
    const listed = Array.isArray(suite.methods) ? (suite.methods as unknown[]) : [];
    for (const m of listed)
      if (
        typeof m === 'string' &&
        m !== 'mcts' &&
        SEARCH_METHODS.includes(m as never) &&
        suite[m] === undefined
      )
        suite[m] = { ...mcts };
  }
  // The ReAct methods' options (core/methods/react.ts), set on every listed method that takes them.
  const react: Record<string, unknown> = {};
  setFlags(react, values, { prompt: 'prompt', fewShots: 'few-shots' });
  if (values['drift-hint'] === true) react.driftHint = true;
  if (Object.keys(react).length > 0) {
    const listed = Array.isArray(suite.methods) ? (suite.methods as unknown[]) : ['greedy'];
    for (const m of listed)
      if (typeof m === 'string' && REACT_METHODS.includes(m)) {
        const base = suite[m];
        suite[m] = {
          ...(base && typeof base === 'object' ? (base as Record<string, unknown>) : {}),
          ...react,
        };
      }
  }
}

/** `suite.aids` from `--aids JSON` and `suite.model` from the model flags, when given (either kind of suite). */
export function setAidsAndModel(suite: Record<string, unknown>, values: FlagValues): void {
  const aids = stringFlag(values, 'aids');
  if (aids !== undefined) {
    try {
      suite.aids = JSON.parse(aids);
    } catch (err) {
      throw new CliError([`--aids is not valid JSON: ${(err as Error).message}`], EXIT_USAGE);
    }
  }
  const model = modelFromFlags(values, suite.model);
  if (model !== undefined) suite.model = model;
}

/** Validates a suite as POST /v1/evals does; a failure is the API's validation problem, exit code 2. */
export function validateSuite(suite: unknown): void {
  const checked = validateBody(EvalSuiteSchema, suite);
  if (!checked.ok) throw new CliError(problemLines(checked.problem), EXIT_USAGE, checked.problem);
}

/** The suite member of POST /v1/schedules, checked where the API reports it (`json.suite.<field>`). */
const ScheduleSuite = z.object({ suite: EvalSuiteSchema });

export function validateScheduleSuite(suite: unknown): void {
  const checked = validateBody(ScheduleSuite, { suite });
  if (!checked.ok) throw new CliError(problemLines(checked.problem), EXIT_USAGE, checked.problem);
}
