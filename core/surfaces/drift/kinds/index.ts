/**
 * The drift kinds, in canonical order (the order of a surface's `drift.kinds`, its description and its default
 * id). Adding a kind is one module in this folder (see `../kind.ts`) and one entry here.
 */
import type { DriftKindModule } from '../kind.ts';
import { flags } from './flags.ts';
import { mergeParams } from './merge-params.ts';
import { prefixes } from './prefixes.ts';
import { renameParams } from './rename-params.ts';
import { renameTool } from './rename-tool.ts';
import { specialChars } from './special-chars.ts';
import { splitParams } from './split-params.ts';
import { structuredParams } from './structured-params.ts';
import { wrapResponse } from './wrap-response.ts';

export const DRIFT_KIND_MODULES = [
  renameTool,
  specialChars,
  renameParams,
  splitParams,
  mergeParams,
  structuredParams,
  flags,
  prefixes,
  wrapResponse,
] as const;

export type DriftKind = (typeof DRIFT_KIND_MODULES)[number]['id'];

export const DRIFT_KINDS: readonly DriftKind[] = DRIFT_KIND_MODULES.map((k) => k.id);

/** The kinds as a set in canonical order; an unknown kind is an error. */
export function normalizeDriftKinds(kinds: readonly string[]): DriftKind[] {
  for (const k of kinds) {
    if (!(DRIFT_KINDS as readonly string[]).includes(k)) {
      throw new RangeError(`unknown drift kind ${JSON.stringify(k)}; known: ${DRIFT_KINDS.join(', ')}`);
    }
  }
  return DRIFT_KINDS.filter((k) => kinds.includes(k));
}

/** The modules of a set of kinds, in the generator's sequence (by `order`). */
export function driftSequence(kinds: readonly DriftKind[]): DriftKindModule[] {
  return DRIFT_KIND_MODULES.filter((k) => kinds.includes(k.id)).sort((a, b) => a.order - b.order);
}

/** A kind's one-line summary. */
export function driftKindSummary(kind: DriftKind): string {
  return (DRIFT_KIND_MODULES.find((k) => k.id === kind) as DriftKindModule).summary;
}
