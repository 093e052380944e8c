/**
 * The API drift kinds, in canonical order (the order of a surface's `drift.kinds`, its description and its
 * default id). Adding a kind is one module in this folder (see `../kind.ts`) and one entry here.
 */
import type { ApiDriftKindModule } from '../kind.ts';
import { deprecateOperation } from './deprecate-operation.ts';
import { mergeParams } from './merge-params.ts';
import { moveParams } from './move-params.ts';
import { pagination } from './pagination.ts';
import { renameOperation } from './rename-operation.ts';
import { renameParams } from './rename-params.ts';
import { renamePath } from './rename-path.ts';
import { reshapeResponse } from './reshape-response.ts';
import { retypeParams } from './retype-params.ts';
import { splitParams } from './split-params.ts';
import { versionPrefix } from './version-prefix.ts';

export const API_DRIFT_KIND_MODULES = [
  renameOperation,
  renamePath,
  renameParams,
  mergeParams,
  splitParams,
  moveParams,
  retypeParams,
  reshapeResponse,
  versionPrefix,
  pagination,
  deprecateOperation,
] as const;

export type ApiDriftKind = (typeof API_DRIFT_KIND_MODULES)[number]['id'];

export const API_DRIFT_KINDS: readonly ApiDriftKind[] = API_DRIFT_KIND_MODULES.map((k) => k.id);

/** The kinds as a set in canonical order; an unknown kind is an error naming the known ones. */
export function normalizeApiDriftKinds(kinds: readonly string[]): ApiDriftKind[] {
  for (const k of kinds) {
    if (!(API_DRIFT_KINDS as readonly string[]).includes(k)) {
      throw new RangeError(
        `unknown API drift kind ${JSON.stringify(k)}; known: ${API_DRIFT_KINDS.join(', ')}`,
      );
    }
  }
  return API_DRIFT_KINDS.filter((k) => kinds.includes(k));
}

/** The modules of a set of kinds, in the generator's sequence (by `order`). */
export function apiDriftSequence(kinds: readonly ApiDriftKind[]): ApiDriftKindModule[] {
  return API_DRIFT_KIND_MODULES.filter((k) => kinds.includes(k.id)).sort((a, b) => a.order - b.order);
}

/** A kind's one-line summary. */
export function apiDriftKindSummary(kind: ApiDriftKind): string {
  return (API_DRIFT_KIND_MODULES.find((k) => k.id === kind) as ApiDriftKindModule).summary;
}
