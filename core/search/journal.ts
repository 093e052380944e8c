/**
 * Makes one search iteration all-or-nothing: before an existing node is changed its previous value is kept, so a
 * failed iteration (a provider error, an abort) can be undone, leaving the tree exactly as it was after the last
 * completed iteration. The ids it reports (created or changed) are what a store must write after a chunk.
 */
import type { EnvState } from '../world/kernel/state.ts';
import type { SearchNode, SearchTree, SearchUsage } from './tree.ts';

export class Journal<S = EnvState> {
  private readonly saved = new Map<number, SearchNode<S>>();
  private readonly nodeCount: number;
  private readonly usage: SearchUsage;
  private readonly model: string | null;

  constructor(private readonly tree: SearchTree<S>) {
    this.nodeCount = tree.nodes.length;
    this.usage = { ...tree.usage };
    this.model = tree.model;
  }

  /** Call before changing a node that existed when the iteration began. */
  touch(n: SearchNode<S>): SearchNode<S> {
    if (n.id >= 0 && n.id < this.nodeCount && !this.saved.has(n.id)) {
      this.saved.set(n.id, { ...n, children: [...n.children] });
    }
    return n;
  }

  rollback(): void {
    this.tree.nodes.length = this.nodeCount;
    for (const [id, n] of this.saved) this.tree.nodes[id] = n;
    this.tree.usage = this.usage;
    this.tree.model = this.model;
  }

  /** Ids of nodes changed or created since the journal began, ascending. */
  changed(): number[] {
    const ids = new Set(this.saved.keys());
    for (let id = this.nodeCount; id < this.tree.nodes.length; id++) ids.add(id);
    return [...ids].sort((a, b) => a - b);
  }
}
