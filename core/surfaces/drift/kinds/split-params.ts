/**
 * `split-params` — a kernel string that the kernel itself splits becomes positional numbered keys (spec §4.3):
 * FilterDB's `condition` (the kernel splits at `, `) and GetValue's `column_name` (split at `,` and trimmed, so
 * `, ` joins equivalently): `{"condition": "a>1, b=2"}` → `{"condition1": "a>1", "condition2": "b=2"}`. The
 * unnumbered key alone (plus the tool's mandatory flags) stays accepted, as in ToolQA-D. Nothing else is split:
 * no other kernel tool reads a list out of one string.
 */
import type { ParamSpec } from '../../model.ts';
import { SPLITTABLE } from '../kernel-facts.ts';
import { choose, defineDriftKind } from '../kind.ts';

function stripTrailingDigits(name: string): string {
  return name.replace(/[0-9]+$/, '');
}

export const splitParams = defineDriftKind({
  id: 'split-params',
  summary: 'list strings split into numbered parameters',
  order: 10,
  apply({ tools, root }) {
    const rng = root.fork('split-params');
    const eligible = tools.filter((d) => {
      const s = SPLITTABLE[d.kernel];
      return s !== undefined && d.params.some((p) => p.kind === 'rename' && p.kernel === s.param);
    });
    for (const d of choose(eligible, 0.7, rng)) {
      const s = SPLITTABLE[d.kernel] as { param: string; joiner: string };
      d.params = d.params.map((p): ParamSpec => {
        if (p.kind !== 'rename' || p.kernel !== s.param) return p;
        const prefix = stripTrailingDigits(p.name) || s.param;
        return {
          kind: 'numbered',
          prefix,
          kernel: s.param,
          joiner: s.joiner,
          singleKey: prefix,
          singleKeyWith: [],
          description: '',
        };
      });
    }
  },
});
