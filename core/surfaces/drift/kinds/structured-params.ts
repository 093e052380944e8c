/**
 * `structured-params` — string ↔ structured: a structured string of the base becomes plain keys named after its
 * labels (`NodeInfos` → `FirstNode`, `SecondNode`), and the lone string of LoadDB, LoadGraph or GetValue may
 * become a one-slot structured string: `{"DBName": "flights"}` → `{"DatasetSpec": "Table[flights]"}`. Database
 * names, graph names and column names are closed sets without brackets, so every value fits.
 */
import type { KernelToolName } from '../../../world/kernel/kernel.ts';
import type { ParamSpec } from '../../model.ts';
import { SLOT_LABELS } from '../../vocab/drift-terms.ts';
import { isDomain } from '../kernel-facts.ts';
import { defineDriftKind } from '../kind.ts';
import { freeKey, structuredKey } from '../names.ts';

/** Tools whose lone string may become a one-slot structured string (closed value sets without brackets). */
const WRAPPABLE: Partial<Record<KernelToolName, string>> = {
  LoadDB: 'DBName',
  LoadGraph: 'GraphName',
  GetValue: 'column_name',
};

export const structuredParams = defineDriftKind({
  id: 'structured-params',
  summary: 'strings and structured strings exchanged',
  order: 20,
  apply({ tools, root }) {
    const rng = root.fork('structured-params');
    let changed = false;
    // Structured → plain keys named after the labels.
    for (const d of tools) {
      if (!isDomain(d.kernel) || !d.params.some((p) => p.kind === 'structured')) continue;
      const plain = d.params.filter((p) => p.kind !== 'structured');
      const out: ParamSpec[] = [];
      for (const p of d.params) {
        if (p.kind !== 'structured') {
          out.push(p);
          continue;
        }
        for (const slot of p.slots) {
          const name = freeKey([...plain, ...out], slot.label);
          out.push({ kind: 'rename', name, kernel: slot.kernel, description: '' });
        }
      }
      d.params = out;
      changed = true;
    }
    // A lone string → a one-slot structured string.
    const eligible = tools.filter((d) => {
      const k = WRAPPABLE[d.kernel];
      return k !== undefined && d.params.some((p) => p.kind === 'rename' && p.kernel === k);
    });
    const chosen = eligible.filter(() => rng.chance(0.5));
    if (!changed && chosen.length === 0 && eligible.length > 0) chosen.push(rng.pick(eligible));
    for (const d of chosen) {
      const kernelParam = WRAPPABLE[d.kernel] as string;
      const label = rng.pick(SLOT_LABELS[kernelParam] ?? ['Value']);
      const others = d.params.filter((p) => !(p.kind === 'rename' && p.kernel === kernelParam));
      const key = freeKey(others, structuredKey(d.kernel, rng));
      d.params = d.params.map(
        (p): ParamSpec =>
          p.kind === 'rename' && p.kernel === kernelParam
            ? { kind: 'structured', name: key, slots: [{ label, kernel: kernelParam }], description: '' }
            : p,
      );
    }
  },
});
