/**
 * `special-chars` — the words of every domain tool name and of every multi-word parameter key are joined with
 * special characters. By default (`specialChars: 'paper'`) they are ToolEvo's (§5.3, App. B.2: `_ - @ % # . ? &`),
 * one per gap and not all `_`: `LoadDB` → `Load@DB`, `Graph_Name` → `Graph?Name`. Such names travel in ReAct
 * text, JSON keys, MCP (`tools/list` gives them as they are; SEP-986 recommends only `[A-Za-z0-9._-]`, so some
 * clients may warn) and the REST paths (percent-encoded). `specialChars: 'function-calling'` (tooldrift's earlier
 * set, an option) uses `-` and `_` only, one or two per gap and at least one `-` (`Load-DB`, `Graph_-Name`): names
 * that function-calling APIs (`^[a-zA-Z0-9_-]{1,64}$`) accept, avoiding `__`, which MCP clients use as a
 * namespace separator. With `rename-tool`, the renamed tool names are joined this way (see `rename-tool.ts`);
 * alone, the base names' own words are.
 *
 * Deliberate differences from ToolQA-D: the paper names the characters it studies (§5.3, App. B.2) but its
 * special-character surfaces are not among the sources; where they stand here (one character per gap between
 * words of names and keys, drawn uniformly) is tooldrift's choice, and ToolQA-D's own surfaces use `_` only.
 */
import { splitWords, wordGaps } from '../../vocab/synonyms.ts';
import { isDomain } from '../kernel-facts.ts';
import { defineDriftKind } from '../kind.ts';
import { joinSpecial, renameCompanions, renameKeys, renameTools } from '../names.ts';

export const specialChars = defineDriftKind({
  id: 'special-chars',
  summary: 'special characters between the words of names',
  order: 70,
  apply(work) {
    const { tools, root } = work;
    const fresh = (old: string, attempt: number) => {
      const words = splitWords(old);
      if (wordGaps(words) === 0) return old;
      for (let a = attempt; ; a++) {
        const name = joinSpecial(words, root.fork(`special-chars/key/${old}/${a}`), work.specialChars);
        if (name !== old) return name;
      }
    };
    for (const d of tools) {
      if (!isDomain(d.kernel)) continue;
      d.params = renameCompanions(d.params, renameKeys(d.params, fresh));
    }
    if (work.kinds.includes('rename-tool')) return;
    renameTools(work, (d, attempt) =>
      joinSpecial(
        splitWords(d.base.name),
        root.fork(`special-chars/tool/${d.kernel}/${attempt}`),
        work.specialChars,
      ),
    );
  },
});
