/**
 * A surface is one version of the world's tools as a client sees them: names, parameters and their shapes,
 * response format and lifecycle. Every surface is a thin adapter in front of the same kernel tools (spec §4.1):
 * an exposed call is looked up by name, its arguments are checked and translated into kernel arguments, the
 * kernel runs, and the observation is returned in the surface's response format.
 *
 * Surfaces are plain JSON values (they are stored in D1, sent over HTTP and validated against a published
 * schema), so everything here is data; the behaviour lives in adapter.ts.
 */
import type { KernelToolName } from '../world/kernel/kernel.ts';

/** A kernel parameter name (`DBName`, `condition`, `Node1`, …). */
export type KernelParam = string;

/** How exposed arguments become one or more kernel arguments. */
export type ParamSpec =
  /** The kernel parameter under another name (identity in P_c). */
  | { kind: 'rename'; name: string; kernel: KernelParam; description: string }
  /** A required parameter whose value is accepted and ignored (ToolQA-D's `return_num`, `passage_num`). */
  | { kind: 'ignored'; name: string; description: string; example: unknown }
  /**
   * A flag whose value must be one of `accepted`, compared with Python `==` after JSON decoding (so the string
   * `"True"` and the boolean `true` are different values, while `1` and `1.0` equal `true`); dropped before the
   * kernel call. Optional flags may be omitted.
   */
  | { kind: 'flag'; name: string; accepted: (string | boolean)[]; optional: boolean; description: string }
  /**
   * One kernel string split into positional numbered parameters `{prefix}1`, `{prefix}2`, …: the key at
   * position i of the JSON object (1-based, counting every key, so a flag in front shifts the numbering — spec
   * §4.3) must be `{prefix}{i}`. Values are converted with Python str() and joined with `joiner`. `singleKey`
   * allows the whole value under one unnumbered key instead, but only when the object holds exactly that key
   * plus the keys of `singleKeyWith` (ToolQA-D: a lone `condition`; `column` only together with
   * `ReturnResult`).
   */
  | {
      kind: 'numbered';
      prefix: string;
      kernel: KernelParam;
      joiner: string;
      singleKey?: string;
      singleKeyWith?: string[];
      description: string;
    }
  /**
   * Several kernel parameters carried in one string of labelled brackets, e.g.
   * `FirstNode[Chao Zhang], SecondNode[Weihong Lin]` for slots `[{label: 'FirstNode', kernel: 'Node1'},
   * {label: 'SecondNode', kernel: 'Node2'}]`. Grammar (spec §4.3 `NodeInfos`, §4.4 `CheckInfos`), searched
   * anywhere in the string: each label, optional whitespace before its `[` except for the last label, the
   * shortest text up to `]` (no line breaks), and the brackets separated by optional whitespace, `,`, optional
   * whitespace; each text is trimmed. A value that is not a string answers with Python's TypeError text.
   */
  | {
      kind: 'structured';
      name: string;
      slots: { label: string; kernel: KernelParam }[];
      description: string;
    }
  /** A string value that must start with a literal `prefix`, which is removed (and the rest trimmed if `trim`). */
  | {
      kind: 'prefixed';
      name: string;
      kernel: KernelParam;
      prefix: string;
      trim: boolean;
      description: string;
    };

export type LifecycleStatus = 'active' | 'deprecated' | 'sunset';

/**
 * Where a tool stands: `active`; `deprecated` (still served, reported so that HTTP can send `Deprecation` and
 * `Sunset` headers); `sunset` (answers like a retired name, with a deprecation message naming `successor`).
 * `deprecatedAt` / `sunsetAt` switch the status when the caller passes the current time (the adapter never
 * reads a clock itself). Dates are ISO 8601 (`2026-03-01` or a full timestamp).
 */
export interface Lifecycle {
  status: LifecycleStatus;
  deprecatedAt?: string;
  sunsetAt?: string;
  /** Name of the tool that replaces this one. */
  successor?: string;
}

/** One tool as a surface exposes it. */
export interface SurfaceTool {
  kernel: KernelToolName;
  name: string;
  /** In documentation order; `numbered` and `flag` positions follow the spec's positional rules. */
  params: ParamSpec[];
  /**
   * What a wrong key set answers: P_c reports it as an invalid action (spec §4.2), drifted surfaces with the
   * tool's parameter-error message (§4.8).
   */
  keyMismatch: 'invalid-action' | 'param-error';
  /** Prompt description after the signature, e.g. `which loads the database DBName and returns the database.` */
  description: string;
  /** A valid argument object, shown in docs and deprecation messages. */
  example: Record<string, unknown>;
  lifecycle: Lifecycle;
}

/** A name the surface no longer serves: calling it answers with a deprecation message. */
export interface RetiredName {
  /** The old exposed name, e.g. `LoadDB`. */
  name: string;
  kernel: KernelToolName;
  /** The exact observation (spec §4.6 for the built-in surfaces). */
  message: string;
  /** The tool to use instead. */
  successor: string;
}

export type ResponseFormat =
  | { kind: 'plain' }
  /** The observation wrapped in a JSON object, e.g. `{"State": "Success", "Message": "…"}`. */
  | { kind: 'wrapped'; stateKey: string; messageKey: string; success: string; failure: string };

export interface Surface {
  /** Lower-case slug: `pc`, `s-in`, `s-ood`, `s-ood-alt`, or a generated/custom id. */
  id: string;
  title: string;
  description: string;
  /** The surface this one was derived from (generated or custom surfaces). */
  derivedFrom?: string;
  /** How a generated surface was made (seed and drift kinds), for reproducibility. */
  drift?: { seed: string; kinds: string[] };
  tools: SurfaceTool[];
  /**
   * Set on documentation that retrieval chose from a pool of `pool` tools (the toolPool aid,
   * core/retrieval/tool-pool.ts): it documents only some of the served tools, so a prompt's worked examples show
   * only calls of tools it documents (core/prompts/few-shots.ts `usesDocumentedTools`).
   */
  retrieved?: { pool: number };
  retired: RetiredName[];
  response: ResponseFormat;
  messages: {
    /** Answer to an unknown tool name (spec §4.7). */
    invalidAction: string;
    /** Answer to unparsable ReAct output (spec §3.0 step 1). */
    filtered: string;
  };
}
