/**
 * `rename-tool` — every domain tool gets a new name: the words of its name are replaced by synonyms (at least one
 * word changes; filler words such as `On`, `The`, `Call` may be dropped) and written in a name style (PascalCase,
 * camelCase, snake_case, Pascal_Snake, Pascal_Mixed; vocab/synonyms.ts). `LoadDB` → `Mount_Database`,
 * `NeighbourCheck` → `adjacentProbe`. With `special-chars`, the words are joined by special separators instead
 * of the style's own.
 */
import type { Rng } from '../../../util/random.ts';
import {
  canonicalWord,
  caseWords,
  FILLER_WORDS,
  joinWords,
  NAME_STYLES,
  type NameStyle,
  QUALIFIERS,
  splitWords,
  styleJoiners,
  synonymsOf,
} from '../../vocab/synonyms.ts';
import { defineDriftKind } from '../kind.ts';
import { joinSpecial, normalisedWords, renameTools } from '../names.ts';

/** A tool name's words, renamed. */
function renamedToolWords(baseName: string, rng: Rng): string[] {
  let words = splitWords(baseName);
  // Drop some filler words, keeping at least two words.
  const kept = words.filter((w) => !(FILLER_WORDS.has(w.toLowerCase()) && rng.chance(0.4)));
  if (kept.length >= 2) words = kept;
  const out = words.map((w) => {
    const syn = synonymsOf(w);
    return syn.length > 0 && rng.chance(0.75) ? rng.pick(syn) : canonicalWord(w);
  });
  const changed = out.some((w, i) => w.toLowerCase() !== (words[i] as string).toLowerCase());
  if (!changed && words.length === splitWords(baseName).length) {
    const candidates = words.flatMap((w, i) => (synonymsOf(w).length > 0 ? [i] : []));
    if (candidates.length > 0) {
      const i = rng.pick(candidates);
      out[i] = rng.pick(synonymsOf(words[i] as string));
    } else out.push(rng.pick(QUALIFIERS));
  }
  return out;
}

export const renameTool = defineDriftKind({
  id: 'rename-tool',
  summary: 'tools renamed with synonyms',
  order: 80,
  apply(work) {
    const { root } = work;
    const special = work.kinds.includes('special-chars');
    renameTools(work, (d, attempt) => {
      const rng = root.fork(`rename-tool/${d.kernel}/${attempt}`);
      const words = renamedToolWords(d.base.name, rng);
      const style: NameStyle = rng.pick(NAME_STYLES);
      const name = special
        ? joinSpecial(
            caseWords(words, style),
            root.fork(`special-chars/tool/${d.kernel}/${attempt}`),
            work.specialChars,
          )
        : joinWords(caseWords(words, style), styleJoiners(style, words.length, rng));
      return normalisedWords(name) === normalisedWords(d.base.name) ? null : name;
    });
  },
});
