/**
 * `rename-params` — every parameter key of the domain tools (and every label inside a structured string) is
 * renamed with synonyms. One word map serves the whole surface, so a word is renamed the same way in every key
 * (`GraphName` → `NetworkIdentifier`, `Node` → `Vertex`, `Node1` → `Vertex1`); a key that is only a language
 * name gets a head noun (`SQL` → `SQLStatement`).
 */
import type { Rng } from '../../../util/random.ts';
import type { KernelToolName } from '../../../world/kernel/kernel.ts';
import type { ParamSpec } from '../../model.ts';
import { CODE_HEADS } from '../../vocab/drift-terms.ts';
import {
  canonicalWord,
  NAME_STYLES,
  QUALIFIERS,
  splitWords,
  styleName,
  synonymsOf,
} from '../../vocab/synonyms.ts';
import { CODE_LANGUAGE, isDomain } from '../kernel-facts.ts';
import { defineDriftKind } from '../kind.ts';
import { normalisedWords, renameCompanions, renameKeys } from '../names.ts';

/** The surface-wide word map: one synonym per word. */
function paramWord(root: Rng, word: string): string {
  const syn = synonymsOf(word);
  return syn.length > 0
    ? root.fork(`rename-params/word/${word.toLowerCase()}`).pick(syn)
    : canonicalWord(word);
}

export const renameParams = defineDriftKind({
  id: 'rename-params',
  summary: 'parameters renamed with synonyms',
  order: 50,
  apply({ tools, root }) {
    const fresh = (kernel: KernelToolName) => (old: string, attempt: number) => {
      const words = splitWords(old);
      const stem = words.filter((w) => !/^[0-9]+$/.test(w)).join(' ');
      const rng = root.fork(`rename-params/name/${stem.toLowerCase()}/${attempt}`);
      let out = words.map((w) => {
        if (/^[0-9]+$/.test(w)) return w;
        if (attempt === 0) return paramWord(root, w);
        const syn = synonymsOf(w);
        return syn.length > 0 ? rng.pick(syn) : canonicalWord(w);
      });
      const heads = CODE_HEADS[kernel];
      const code = CODE_LANGUAGE[kernel];
      const language = code ? [code.lang, ...synonymsOf(code.lang)].map((l) => l.toLowerCase()) : [];
      if (heads && code && words.length === 1 && language.includes(old.toLowerCase())) {
        // A key that is only the language (`SQL`) gets a head noun: `SQLStatement`.
        out = [rng.chance(0.5) ? code.lang : (out[0] as string), rng.pick(heads)];
      }
      // Past a few attempts (keys that keep colliding), a qualifier word makes the key new.
      if (normalisedWords(out.join(' ')) === normalisedWords(old) || attempt >= 20)
        out.push(rng.pick(QUALIFIERS));
      return styleName(out, rng.pick(NAME_STYLES), rng);
    };
    for (const d of tools) {
      if (!isDomain(d.kernel)) continue;
      const before = d.params;
      let params = renameCompanions(before, renameKeys(before, fresh(d.kernel)));
      // Labels of structured strings: the same word map, always PascalCase (they read like names).
      params = params.map((p): ParamSpec => {
        if (p.kind !== 'structured') return p;
        const labels: string[] = [];
        const slots = p.slots.map((s) => {
          let label = '';
          for (let attempt = 0; attempt < 200; attempt++) {
            const rng = root.fork(`rename-params/label/${s.label}/${attempt}`);
            const words = splitWords(s.label).map((w) =>
              /^[0-9]+$/.test(w) ? w : attempt === 0 ? paramWord(root, w) : rng.pick([w, ...synonymsOf(w)]),
            );
            if (normalisedWords(words.join(' ')) === normalisedWords(s.label))
              words.push(rng.pick(QUALIFIERS));
            label = styleName(words, 'PascalCase', rng);
            if (!labels.some((l) => l.toLowerCase() === label.toLowerCase())) break;
          }
          labels.push(label);
          return { ...s, label };
        });
        return { ...p, slots };
      });
      d.params = params;
    }
  },
});
