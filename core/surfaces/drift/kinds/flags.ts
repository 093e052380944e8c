/**
 * `flags` — some domain tools (at least one) get a mandatory flag with its accepted values, compared with Python
 * `==` like ToolQA-D's `ReturnResult` (§4.3): `{"DBName": "flights", "Confirm": "yes"}`.
 */
import { FLAG_NAMES, FLAG_VALUES } from '../../vocab/drift-terms.ts';
import { NAME_STYLES, styleName } from '../../vocab/synonyms.ts';
import { isDomain } from '../kernel-facts.ts';
import { choose, defineDriftKind } from '../kind.ts';
import { escapeRegex, keysOf } from '../names.ts';

export const flags = defineDriftKind({
  id: 'flags',
  summary: 'mandatory flags',
  order: 60,
  apply({ tools, root }) {
    const rng = root.fork('flags');
    const eligible = tools.filter((d) => isDomain(d.kernel));
    for (const d of choose(eligible, 0.35, rng)) {
      const taken = keysOf(d.params).map((k) => k.toLowerCase());
      const prefixes = d.params.flatMap((p) => (p.kind === 'numbered' ? [p.prefix.toLowerCase()] : []));
      let name = '';
      for (let attempt = 0; attempt < 200; attempt++) {
        name = styleName(rng.pick(FLAG_NAMES), rng.pick(NAME_STYLES), rng);
        const lower = name.toLowerCase();
        if (
          !taken.includes(lower) &&
          !prefixes.some((p) => new RegExp(`^${escapeRegex(p)}[0-9]+$`).test(lower))
        )
          break;
      }
      const accepted = [...rng.pick(FLAG_VALUES)];
      d.params = [
        ...d.params.map((p) =>
          p.kind === 'numbered' && p.singleKey !== undefined
            ? { ...p, singleKeyWith: [...(p.singleKeyWith ?? []), name] }
            : p,
        ),
        { kind: 'flag', name, accepted, optional: false, description: '' },
      ];
    }
  },
});
