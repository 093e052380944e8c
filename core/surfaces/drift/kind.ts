/**
 * What a drift kind is: a module declaring its id, a one-line summary, its place in the generator's sequence and
 * the function that applies it to the surface being drafted. The kinds are listed in `kinds/index.ts`; adding a
 * kind is one module there and one entry in that list.
 */
import type { Rng } from '../../util/random.ts';
import type { KernelToolName } from '../../world/kernel/kernel.ts';
import type { ParamSpec, ResponseFormat, Surface, SurfaceTool } from '../model.ts';
import type { SpecialCharSet } from './names.ts';

/** One tool of the surface being drafted: the base tool serving a kernel tool, with its new name and params. */
export interface ToolDraft {
  base: SurfaceTool;
  kernel: KernelToolName;
  name: string;
  params: ParamSpec[];
}

/** The surface being drafted, which the active kinds change in turn. */
export interface DriftWork {
  readonly base: Surface;
  /** The active kinds, as a set in canonical order (a kind may look at which others take part). */
  readonly kinds: readonly string[];
  /**
   * The generator's root stream. A kind draws only from forks labelled with its own id (`root.fork('flags')`,
   * `root.fork('rename-params/word/node')`), so adding a kind never changes what the others chose.
   */
  readonly root: Rng;
  /** One draft per kernel tool the base serves (the tool translateCall picks for it). */
  readonly tools: ToolDraft[];
  response: ResponseFormat;
  /** The characters `special-chars` joins words with (generate.ts `DriftOptions.specialChars`). */
  readonly specialChars: SpecialCharSet;
}

export interface DriftKindModule<Id extends string = string> {
  readonly id: Id;
  /** One line, used in a generated surface's description (`Generated from pc with seed 7: …`). */
  readonly summary: string;
  /**
   * Place in the generator's sequence, lower first. The sequence matters where one kind reshapes what another
   * renames: parameters are split, exchanged, merged and prefixed before their keys are renamed, flags are added
   * after the renaming (their names are drawn apart from the renamed keys), and tool names come last.
   */
  readonly order: number;
  apply(work: DriftWork): void;
}

/** Declares a kind, keeping its id as a literal type (so that `DriftKind` is the union of the listed ids). */
export function defineDriftKind<const Id extends string>(kind: DriftKindModule<Id>): DriftKindModule<Id> {
  return kind;
}

/** Chooses the drafts a kind changes: each with probability p, at least one when any is eligible. */
export function choose<T>(items: readonly T[], p: number, rng: Rng): T[] {
  const chosen = items.filter(() => rng.chance(p));
  if (chosen.length === 0 && items.length > 0) chosen.push(rng.pick(items));
  return chosen;
}
