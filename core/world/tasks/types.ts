/**
 * Tasks: questions over the generated world with gold answers computed from the corpus and reference plans
 * (sequences of P_c tool calls) that solve them.
 *
 * A template has three independent parts, so that a test can check one against another:
 * - `sample` draws slots and computes the gold answer directly from the world's data;
 * - `question` is the wording, a pattern with `{slot}` placeholders (tooldrift's own wording of the ToolQA-D
 *   template kinds, spec §7);
 * - `solve` is a scripted solver that works only through tool observations (like an agent would), yielding P_c
 *   calls and receiving their observations; it returns the answer to submit with Finish.
 * A task is kept only if its solver, run through the kernel tools, finishes with an answer that matches gold.
 */

import type { Rng } from '../../util/random.ts';
import type { TypedNumber } from '../answer-match.ts';
import type { KernelToolName } from '../kernel/kernel.ts';
import type { DatasetName, World } from '../types.ts';

export const DIFFICULTIES = ['easy', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const SPLITS = ['train', 'dev', 'test'] as const;
export type Split = (typeof SPLITS)[number];

/** A gold answer: a string, or a number with its Python type (EM renders it with Python str()). */
export type Gold = string | TypedNumber;

export type SlotValue = string | number;
export type Slots = Record<string, SlotValue>;

/** One P_c tool call of a plan. */
export interface PlanCall {
  tool: KernelToolName;
  args: Record<string, unknown>;
}

/** A solver yields tool calls, receives each call's observation, and returns the answer for Finish. */
export type Solver = Generator<PlanCall, unknown, string>;

export interface SampleContext {
  rng: Rng;
  world: World;
}

export interface TaskTemplate<S extends Slots = Slots> {
  /** Stable id, `{dataset}-{difficulty}-{label}` (e.g. `flights-easy-E1`). */
  id: string;
  dataset: DatasetName;
  difficulty: Difficulty;
  /** The ToolQA-D template this one corresponds to (spec §7 label, e.g. `E1`, `H11`). */
  label: string;
  /** Question pattern with `{slot}` placeholders; every slot of `sample` appears in it. */
  question: string;
  /** How the gold answer is defined, in one sentence (shown in the task API and the docs). */
  goldRule: string;
  /** Draws slots and computes gold from the data; null when this draw cannot make a good question. */
  sample(ctx: SampleContext): { slots: S; gold: Gold } | null;
  /** The reference solver: tool calls in P_c terms, reading observations only. */
  solve(slots: S): Solver;
}

/** A generated task as stored and served. */
export interface Task {
  /** `{dataset}-{difficulty}-{split}-{nnnn}`. */
  id: string;
  split: Split;
  dataset: DatasetName;
  difficulty: Difficulty;
  templateId: string;
  question: string;
  slots: Slots;
  gold: Gold;
  /** The reference plan: the solver's calls with their observations, ending with Finish. */
  plan: PlanStep[];
}

export interface PlanStep extends PlanCall {
  observation: string;
}

/** Fills a question pattern. */
export function renderQuestion(pattern: string, slots: Slots): string {
  return pattern.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = slots[name];
    if (v === undefined) throw new Error(`pattern ${JSON.stringify(pattern)} needs slot ${name}`);
    return String(v);
  });
}

/** The slot names of a question pattern, in order. */
export function patternSlots(pattern: string): string[] {
  return [...pattern.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}

/** Declares a template with typed slots and stores it among templates of any slots. */
export function defineTemplate<S extends Slots>(template: TaskTemplate<S>): TaskTemplate {
  return template as unknown as TaskTemplate;
}
