/**
 * What an API session keeps besides the common progress (`episode.ts`): the mock's overlay (its writes and the
 * entities its searches materialised), every call that reached an operation, and at the end its answer and score.
 */
import type { MockOverlay } from '../apis/mock/state.ts';

export interface ApiCallRecord {
  /** The base operation the call ran. */
  operation: string;
  /** The call as the surface exposed it: `GET /people/{id}`, or the tool name for a catalog tool. */
  exposed: string;
  status: number;
}

/** How a finished API session scored (issue 22 §5). */
export interface ApiScore {
  /**
   * Correct Path Rate of this episode (1 or 0 each): `subsequence` — the paper's definition, the gold path is an
   * ordered subsequence of the operations called; `set` — DRAFT's released code, every gold operation was
   * called. Null when the query has no gold path.
   */
  correctPath: { subsequence: boolean; set: boolean } | null;
  /** The gold path in the base API's terms (operation names). */
  goldPath: string[];
  /** The operations the episode called, in call order (what `correctPath` compared with the gold path). */
  called: string[];
  /** The same path on the surface in force at the end (its routes or names; null where no tool serves it). */
  goldOnSurface: (string | null)[];
  /** The Finish answer (null when the budget ran out first), kept for later judging. */
  answer: unknown;
  /** Whether the answer matched the gold answer; null when the query has none. */
  correct: boolean | null;
}

export interface ApiSessionState {
  overlay: MockOverlay;
  calls: ApiCallRecord[];
  score?: ApiScore;
}
