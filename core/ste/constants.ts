/**
 * STE's constants (spec `ste.md`, tables "Exploration", "Filtering", "Exploitation", "Continual learning").
 * Where the paper and the authors' code differ the code's value is the default and the other stays reachable by
 * an option (trials per episode: code default 3, the authors' run script and the paper 4 — tooldrift uses 4).
 */

/** Episodes per tool (paper and code). */
export const STE_EPISODES = 15;
/** Trials per episode = short-term-memory slots (the run script's and the paper's 4; 15 × 4 = 60 trials). */
export const STE_TRIALS = 4;
/** The code's own default number of trials per episode, reachable by option. */
export const STE_TRIALS_CODE_DEFAULT = 3;
/** Model calls (ReAct turns) per trial, `max_turn`; a parse error uses up a turn. */
export const STE_MAX_CALLS = 4;
/** Exploration sampling: temperature 1.0, at most 360 new tokens. */
export const STE_TEMPERATURE = 1.0;
export const STE_MAX_TOKENS = 360;
/** Stop strings: "Thought:" when synthesising a query, "Observation:" otherwise. */
export const STE_QUERY_STOP = ['Thought:'];
export const STE_STEP_STOP = ['Observation:'];
/** The judge of the filter: temperature 1.0, 512 tokens. */
export const STE_JUDGE_MAX_TOKENS = 512;
/** Paraphrasing: temperature 1.0, 256 tokens. */
export const STE_PARAPHRASE_MAX_TOKENS = 256;
/** Paraphrase target: about 150 training examples per tool, at most 6 paraphrases per exemplar. */
export const STE_PARAPHRASE_TARGET = 150;
export const STE_PARAPHRASE_MAX = 6;
/** In-context learning: the 8 most similar exemplar queries. */
export const STE_RETRIEVAL_K = 8;
/**
 * When the long-term memory is shown (paper §2.1): `episode` — the query call opening each episode (the authors'
 * code as the spec describes it; default); `trial` — the start of every trial (the paper's text, Figure 2);
 * `off` — never (Table 2's "− long-term memory").
 */
export const STE_LONG_TERM_MEMORY = ['episode', 'trial', 'off'] as const;
export type SteLongTermMemory = (typeof STE_LONG_TERM_MEMORY)[number];
/** Continual learning: replay 10 % of each earlier round's exemplars. */
export const STE_REHEARSAL_FRACTION = 0.1;

/** Paraphrases per kept exemplar of a tool with n kept exemplars: `min(round(150 / n) − 1, 6)` (never < 0). */
export function paraphraseCount(n: number): number {
  if (!(n > 0)) return 0;
  // Python's round() rounds halves to even; 150 / n is a half only for n = 4, 12, 20, 60, 100, 300 (37.5 → 38,
  // 12.5 → 12, 7.5 → 8, 2.5 → 2, 1.5 → 2, 0.5 → 0).
  const x = STE_PARAPHRASE_TARGET / n;
  const floor = Math.floor(x);
  const r = x - floor === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(x);
  return Math.max(0, Math.min(r - 1, STE_PARAPHRASE_MAX));
}

/**
 * The most model calls the exploration of one tool makes (core/ste/engine.ts): per trial one query (or follow-up),
 * at most `maxCalls` ReAct steps and one reflection; one judge call per trial; and the paraphrases of the kept
 * exemplars, at most `max over n ≤ trials of n × paraphraseCount(n)`. What a quota check counts before a run starts
 * (edge/metering.ts).
 */
export function steToolModelCalls(o: {
  episodes: number;
  trials: number;
  maxCalls: number;
  paraphrase: boolean;
}): number {
  const trials = o.episodes * o.trials;
  let paraphrases = 0;
  if (o.paraphrase)
    for (let n = 1; n <= trials; n++) paraphrases = Math.max(paraphrases, n * paraphraseCount(n));
  return trials * (o.maxCalls + 2) + trials + paraphrases;
}
