/**
 * Names and keys shared by several kinds: special separators (`special-chars`, also inside renamed tool names),
 * renaming every key of a tool while keeping the keys distinct (`rename-params`, `special-chars`), free keys and
 * structured-string keys (`structured-params`, `merge-params`, `flags`), and giving the domain tools new names
 * (`rename-tool`, `special-chars`).
 */
import type { Rng } from '../../util/random.ts';
import type { KernelToolName } from '../../world/kernel/kernel.ts';
import type { ParamSpec } from '../model.ts';
import { STRUCTURED_KEY_HEADS, STRUCTURED_KEY_TAILS } from '../vocab/drift-terms.ts';
import { joinWords, NAME_STYLES, QUALIFIERS, splitWords, styleName, wordGaps } from '../vocab/synonyms.ts';
import { isDomain } from './kernel-facts.ts';
import type { DriftWork, ToolDraft } from './kind.ts';
import { builtinClash, EXPOSED_NAME } from './validity.ts';

/**
 * The special characters ToolEvo studies in tool names and parameters (§5.3, App. B.2): `_ - @ % # . ? &`. The
 * `special-chars` kind puts one of them between words by default (`specialChars: 'paper'`).
 */
export const PAPER_SPECIAL_CHARS: readonly string[] = ['_', '-', '@', '%', '#', '.', '?', '&'];

/**
 * The separators of `specialChars: 'function-calling'` (tooldrift's earlier set, an option), with their weights:
 * names that function-calling APIs (`^[a-zA-Z0-9_-]{1,64}$`) and MCP clients take — mostly a single `-`, never
 * `__` (a namespace separator for MCP clients), `.` or `/`.
 */
export const SPECIAL_SEPARATORS: readonly string[] = ['-', '_', '--', '-_', '_-'];
const SPECIAL_WEIGHTS: readonly number[] = [6, 2, 1, 1, 1];

export const SPECIAL_CHAR_SETS = ['paper', 'function-calling'] as const;
export type SpecialCharSet = (typeof SPECIAL_CHAR_SETS)[number];

/** A name's words, lower-cased and space-joined (to tell whether a new name only restyled the old one). */
export function normalisedWords(name: string): string {
  return splitWords(name)
    .map((w) => w.toLowerCase())
    .join(' ');
}

/**
 * Special separators for the gaps of a name: with `paper`, one of ToolEvo's characters per gap, at least one of
 * them other than `_` (so the name is never plain snake case); with `function-calling`, the earlier set with at
 * least one `-`.
 */
function specialJoiners(gaps: number, rng: Rng, set: SpecialCharSet): string[] {
  if (set === 'paper') {
    const joiners = Array.from({ length: gaps }, () => rng.pick(PAPER_SPECIAL_CHARS));
    if (gaps > 0 && !joiners.some((j) => j !== '_'))
      joiners[rng.int(0, gaps - 1)] = rng.pick(PAPER_SPECIAL_CHARS.filter((c) => c !== '_'));
    return joiners;
  }
  const joiners = Array.from({ length: gaps }, () => rng.weighted(SPECIAL_SEPARATORS, SPECIAL_WEIGHTS));
  if (gaps > 0 && !joiners.some((j) => j.includes('-'))) {
    joiners[rng.int(0, gaps - 1)] = rng.pick(SPECIAL_SEPARATORS.filter((s) => s.includes('-')));
  }
  return joiners;
}

/** Joiners for every word boundary (digit runs get none from joinWords), with the special ones at the gaps. */
export function joinSpecial(words: readonly string[], rng: Rng, set: SpecialCharSet = 'paper'): string {
  const special = specialJoiners(wordGaps(words), rng, set);
  let g = 0;
  const joiners = words.slice(1).map((w) => (/^[0-9]+$/.test(w) ? '' : (special[g++] as string)));
  return joinWords(words, joiners);
}

/**
 * Gives every domain tool a new name: the first candidate (`candidate(draft, attempt)` for attempt 0, 1, …; null
 * skips an attempt) that differs from the base tool's name, is an exposed name, is not yet a name of the base or
 * of another new tool (ignoring case) and is not a built-in name of another kernel tool.
 */
export function renameTools(
  work: DriftWork,
  candidate: (d: ToolDraft, attempt: number) => string | null,
): void {
  const taken = new Set([...work.base.tools, ...work.base.retired].map((t) => t.name.toLowerCase()));
  for (const d of work.tools) {
    if (!isDomain(d.kernel)) continue;
    let name = '';
    for (let attempt = 0; ; attempt++) {
      if (attempt >= 200) throw new Error(`drift: no free name for ${d.base.name}`);
      const next = candidate(d, attempt);
      if (next === null) continue;
      name = next;
      const lower = name.toLowerCase();
      if (
        name !== d.base.name &&
        EXPOSED_NAME.test(name) &&
        !taken.has(lower) &&
        !builtinClash(name, d.kernel)
      )
        break;
    }
    taken.add(name.toLowerCase());
    d.name = name;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Keys inside one tool

type KeyRole = 'key' | 'prefix';

/**
 * Renames every key of a tool's parameters with `fresh(old, attempt, role)`, keeping the keys distinct (ignoring
 * case), numbered prefixes free of trailing digits and of clashes with `{prefix}{n}` keys; the single key of a
 * numbered parameter follows its prefix when it was equal to it.
 */
export function renameKeys(
  params: readonly ParamSpec[],
  fresh: (old: string, attempt: number, role: KeyRole) => string,
): ParamSpec[] {
  const assigned = new Map<string, string>();
  const used: { key: string; role: KeyRole }[] = [];
  const clashes = (k: string, role: KeyRole) =>
    !EXPOSED_NAME.test(k) ||
    (role === 'prefix' && /[0-9]$/.test(k)) ||
    used.some(
      (u) =>
        u.key.toLowerCase() === k.toLowerCase() ||
        (u.role === 'prefix' && new RegExp(`^${escapeRegex(u.key)}[0-9]+$`, 'i').test(k)) ||
        (role === 'prefix' && new RegExp(`^${escapeRegex(k)}[0-9]+$`, 'i').test(u.key)),
    );
  const rename = (old: string, role: KeyRole): string => {
    const hit = assigned.get(`${role}:${old}`);
    if (hit !== undefined) return hit;
    for (let attempt = 0; attempt < 200; attempt++) {
      const k = fresh(old, attempt, role);
      if (!clashes(k, role)) {
        assigned.set(`${role}:${old}`, k);
        used.push({ key: k, role });
        return k;
      }
    }
    throw new Error(`drift: no free key for ${old}`);
  };
  return params.map((p): ParamSpec => {
    if (p.kind !== 'numbered') return { ...p, name: rename(p.name, 'key') };
    const prefix = rename(p.prefix, 'prefix');
    const out: ParamSpec = { ...p, prefix };
    if (p.singleKey !== undefined)
      out.singleKey = p.singleKey === p.prefix ? prefix : rename(p.singleKey, 'key');
    return out;
  });
}

/** Carries renamed keys into `singleKeyWith` (which names other keys of the same tool). */
export function renameCompanions(before: readonly ParamSpec[], after: ParamSpec[]): ParamSpec[] {
  const map = new Map<string, string>();
  before.forEach((p, i) => {
    const q = after[i] as ParamSpec;
    if (p.kind !== 'numbered' && q.kind !== 'numbered') map.set(p.name, q.name);
  });
  return after.map((p) =>
    p.kind === 'numbered' && p.singleKeyWith
      ? { ...p, singleKeyWith: p.singleKeyWith.map((k) => map.get(k) ?? k) }
      : p,
  );
}

export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

export function keysOf(params: readonly ParamSpec[]): string[] {
  return params.flatMap((p) => (p.kind === 'numbered' ? [p.prefix, p.singleKey ?? p.prefix] : [p.name]));
}

/** A key not yet used by the tool (ignoring case): the candidate, else the candidate with a qualifier. */
export function freeKey(params: readonly ParamSpec[], candidate: string): string {
  const taken = new Set(keysOf(params).map((k) => k.toLowerCase()));
  if (!taken.has(candidate.toLowerCase())) return candidate;
  for (const q of QUALIFIERS) if (!taken.has(`${candidate}${q}`.toLowerCase())) return `${candidate}${q}`;
  for (let n = 2; ; n++) if (!taken.has(`${candidate}X${n}`.toLowerCase())) return `${candidate}X${n}`;
}

/** A key for a structured string of a kernel tool (`NodeSpec`, `dataset_info`). */
export function structuredKey(kernel: KernelToolName, rng: Rng): string {
  const head = rng.pick(STRUCTURED_KEY_HEADS[kernel] ?? ['Input']);
  return styleName([head, rng.pick(STRUCTURED_KEY_TAILS)], rng.pick(NAME_STYLES), rng);
}
