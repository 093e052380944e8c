/**
 * `merge-params` — several graph parameters are carried in one structured string of labelled brackets (§4.3
 * `NodeInfos`, §4.4 `CheckInfos`): NeighbourCheck/NodeCheck `{"Graph": "AuthorNet", "Node": "Chao Zhang"}` →
 * `{"NodeSpec": "Network[AuthorNet], Vertex[Chao Zhang]"}`; EdgeCheck either both nodes or the graph and both
 * nodes (`"Graph[AuthorNet], Source[A], Target[B]"`); a structured string beside a plain graph key takes the
 * graph in. Only graph tools: their values (graph names, author names, paper titles) never hold `]` or a line
 * break, which the grammar cannot carry.
 */
import type { Rng } from '../../../util/random.ts';
import type { KernelToolName } from '../../../world/kernel/kernel.ts';
import type { ParamSpec } from '../../model.ts';
import { NODE_PAIR_LABELS, SLOT_LABELS } from '../../vocab/drift-terms.ts';
import { choose, defineDriftKind, type ToolDraft } from '../kind.ts';
import { freeKey, structuredKey } from '../names.ts';

const GRAPH_TOOLS: readonly KernelToolName[] = ['NeighbourCheck', 'NodeCheck', 'EdgeCheck'];

type PlainParam = Extract<ParamSpec, { kind: 'rename' }>;

function graphLabels(kernelParams: readonly string[], rng: Rng, avoid: readonly string[] = []): string[] {
  const pair = rng.pick(NODE_PAIR_LABELS);
  return kernelParams.map((k) => {
    if (k === 'Node1') return pair[0];
    if (k === 'Node2') return pair[1];
    const options = (SLOT_LABELS[k] ?? [k]).filter((l) => !avoid.includes(l));
    return rng.pick(options.length > 0 ? options : [`${k}Label`]);
  });
}

export const mergeParams = defineDriftKind({
  id: 'merge-params',
  summary: 'graph parameters merged into structured strings',
  order: 30,
  apply({ tools, root }) {
    const rng = root.fork('merge-params');
    const plainGraphParams = (d: ToolDraft) => d.params.filter((p): p is PlainParam => p.kind === 'rename');
    const eligible = tools.filter((d) => {
      if (!GRAPH_TOOLS.includes(d.kernel)) return false;
      const plain = plainGraphParams(d).length;
      const structured = d.params.some((p) => p.kind === 'structured');
      return plain >= 2 || (plain >= 1 && structured);
    });
    for (const d of choose(eligible, 0.6, rng)) {
      const plain = plainGraphParams(d);
      const existing = d.params.find(
        (p): p is Extract<ParamSpec, { kind: 'structured' }> => p.kind === 'structured',
      );
      if (existing) {
        // Take the remaining plain parameters into the structured string, in front of its slots.
        const avoid = existing.slots.map((s) => s.label);
        const labels = graphLabels(
          plain.map((p) => p.kernel),
          rng,
          avoid,
        );
        const slots = [
          ...plain.map((p, i) => ({ label: labels[i] as string, kernel: p.kernel })),
          ...existing.slots,
        ];
        d.params = d.params
          .filter((p) => !plain.includes(p as PlainParam))
          .map((p) => (p === existing ? { ...existing, slots, description: '' } : p));
        continue;
      }
      // EdgeCheck: both nodes, or the graph and both nodes.
      const merged =
        d.kernel === 'EdgeCheck' && plain.length === 3 && rng.chance(0.5)
          ? plain.filter((p) => p.kernel !== 'GraphName')
          : plain;
      const labels = graphLabels(
        merged.map((p) => p.kernel),
        rng,
      );
      const others = d.params.filter((p) => !merged.includes(p as PlainParam));
      const spec: ParamSpec = {
        kind: 'structured',
        name: freeKey(others, structuredKey(d.kernel, rng)),
        slots: merged.map((p, i) => ({ label: labels[i] as string, kernel: p.kernel })),
        description: '',
      };
      const first = d.params.findIndex((p) => merged.includes(p as PlainParam));
      const out = [...others];
      out.splice(Math.min(first, out.length), 0, spec);
      d.params = out;
    }
  },
});
