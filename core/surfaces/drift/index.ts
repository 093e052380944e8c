/**
 * The drift generator: from a base surface, a seed and a list of drift kinds it derives a new surface in front of
 * the same kernel tools, of the kinds ToolQA-D's P_s_in and P_s_OOD are made of (spec §4.3–§4.6), but as many as
 * there are seeds. `describeDrift` tells what changed between two surfaces.
 *
 * The folder:
 * - `kinds/` — one module per drift kind (its id, summary, place in the sequence and apply function, with the
 *   kind's examples in its header) and `kinds/index.ts` listing them; a kind that finds nothing to change on a
 *   base leaves it as it is. `kind.ts` says what a kind module is.
 * - `generate.ts` — `generateSurface`: drafts, the kinds in sequence, documentation, examples, lifecycle.
 * - `names.ts` (names and keys several kinds share), `kernel-facts.ts`, `tool-docs.ts` (descriptions of changed
 *   tools), `validity.ts` (`driftProblems`), `diff.ts` (`describeDrift`).
 *
 * What the generator keeps and guarantees:
 * - Determinism: the surface is a function of (base, seed, kinds) drawn only from `Rng`. The kinds are a set
 *   (order and repeats do not matter) and each kind draws from its own stream, so adding a kind never changes
 *   what the others chose. Same input → deep-equal surface.
 * - Finish and UpdateTool keep their names and parameters (as in ToolQA-D). A tool no kind changed keeps its
 *   name, parameters, descriptions, example and key-mismatch answer; a changed tool answers a wrong key set with
 *   its parameter-error message (spec §4.8, as the drifted ToolQA-D surfaces do) and gets regenerated parameter
 *   descriptions, tool description and example (the example is the base tool's example call translated onto
 *   the new tool with translateCall, so it resolves to the same kernel call).
 * - Lifecycle: every served tool is active. A renamed tool's old name becomes a retired name answering with the
 *   §4.6-style message written by `deprecationMessage`; the base's retired names (and any of its tools that
 *   duplicate a kernel tool, e.g. deprecated ones from a schedule) point at the new tool, with their message
 *   rewritten when the successor changed (the old signature is taken from the old message).
 * - Validity (`driftProblems`, checked before returning): `validateSurface` finds nothing; tool names, retired
 *   names and parameter keys are exposed names (letters, digits and ToolEvo's `_ - @ % # . ? &`); no two names of the surface are equal ignoring
 *   case; no name is a name that a built-in surface uses for a different kernel tool. Every value a P_c call can
 *   carry still has a translation, except the ones translateCall documents (text with `]` or line breaks in a
 *   structured slot, code with surrounding whitespace under a trimmed prefix), which no kind puts in the way of
 *   the task plans (see `merge-params` and `structured-params`).
 */
export type { FlagInfo, ParamCarrier, RetiredRef, SurfaceDrift, ToolDrift } from './diff.ts';
export { describeDrift } from './diff.ts';
export type { DriftOptions } from './generate.ts';
export { driftSurfaceId, generateSurface } from './generate.ts';
export type { DriftKindModule } from './kind.ts';
export type { DriftKind } from './kinds/index.ts';
export { DRIFT_KIND_MODULES, DRIFT_KINDS, driftKindSummary, normalizeDriftKinds } from './kinds/index.ts';
export type { SpecialCharSet } from './names.ts';
export { PAPER_SPECIAL_CHARS, SPECIAL_CHAR_SETS, SPECIAL_SEPARATORS } from './names.ts';
export { driftProblems, EXPOSED_NAME, FUNCTION_CALLING_NAME } from './validity.ts';
