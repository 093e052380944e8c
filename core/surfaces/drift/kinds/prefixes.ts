/**
 * `prefixes` — SQL and Python code must start with a literal prefix (§4.3), a different one from the base's:
 * `"Here is the Python code: print(1)"`. As in ToolQA-D, the rest of the Python code is trimmed and the SQL is
 * passed on untrimmed.
 */
import type { ParamSpec } from '../../model.ts';
import { CODE_PREFIXES } from '../../vocab/drift-terms.ts';
import { CODE_LANGUAGE } from '../kernel-facts.ts';
import { defineDriftKind } from '../kind.ts';

export const prefixes = defineDriftKind({
  id: 'prefixes',
  summary: 'literal prefixes on SQL and Python code',
  order: 40,
  apply({ tools, root }) {
    const rng = root.fork('prefixes');
    for (const d of tools) {
      const code = CODE_LANGUAGE[d.kernel];
      if (!code) continue;
      const r = rng.fork(d.kernel);
      d.params = d.params.map((p): ParamSpec => {
        if ((p.kind !== 'rename' && p.kind !== 'prefixed') || p.kernel !== code.param) return p;
        const old = p.kind === 'prefixed' ? p.prefix : null;
        const options = CODE_PREFIXES.map((t) => t.replace('{lang}', code.lang)).filter((x) => x !== old);
        const trim = p.kind === 'prefixed' ? p.trim : code.trim;
        return {
          kind: 'prefixed',
          name: p.name,
          kernel: p.kernel,
          prefix: r.pick(options),
          trim,
          description: '',
        };
      });
    }
  },
});
