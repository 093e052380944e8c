/**
 * `special-chars` — the words of every domain tool name and of every multi-word parameter key are joined with
 * `-` or `_` separators, one or two characters per gap and at least one `-`: `LoadDB` → `Load-DB`,
 * `Graph_Name` → `Graph_-Name`. Only `-` and `_` are used: MCP (SEP-986) also allows `.` and `/`, but the
 * function-calling APIs that MCP clients forward tool names to accept `^[a-zA-Z0-9_-]{1,64}$` only, and `__` is
 * avoided because clients use it as a namespace separator (`mcp__server__tool`). With `rename-tool`, the renamed
 * tool names are joined this way (see `rename-tool.ts`); alone, the base names' own words are.
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
        const name = joinSpecial(words, root.fork(`special-chars/key/${old}/${a}`));
        if (name !== old) return name;
      }
    };
    for (const d of tools) {
      if (!isDomain(d.kernel)) continue;
      d.params = renameCompanions(d.params, renameKeys(d.params, fresh));
    }
    if (work.kinds.includes('rename-tool')) return;
    renameTools(work, (d, attempt) =>
      joinSpecial(splitWords(d.base.name), root.fork(`special-chars/tool/${d.kernel}/${attempt}`)),
    );
  },
});
