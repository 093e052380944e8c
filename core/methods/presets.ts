/**
 * Method presets (issue 26 §3): named configurations of a registered method and the aids it is given — not new
 * methods. "The combined agent" of a drift stream is such a preset: ToolEvo's greedy agent with its tool-update
 * memory carried across tasks (`greedy-memory`), or ToolEvo's tree search (`mcts`), with every aid of
 * core/aids on — the latest DRAFT documentation set (`documentation.docset`), STE demonstrations
 * (`demonstrations.set`), retrieval over the stream's tool pool (`toolPool`), and, for greedy, the tool-update
 * memory the agents built so far (`updateMemory.lines`, then carried task to task by the method's own rule).
 *
 * A preset names which slots it fills; `presetAids(preset, refs)` builds the `aids` object of a suite or solve
 * request from the ids a stream's maintenance produced (core/streams), and `presetRequest` the whole choice.
 * Requests built this way are validated like any other (core/aids `aidIssues`): a preset can only compose slots
 * its method lists. `GET /v1/methods` lists the presets beside the methods.
 */
import type { AidSlot, Aids } from '../aids/index.ts';
import { getMethod, type MethodId } from './registry.ts';

/** What a preset's aids point at: the stored (or in-process) items one stream release's maintenance left. */
export interface PresetRefs {
  /** The DRAFT documentation set of the release (`documentation.docset`). */
  docset: string;
  /** The STE exemplar set (an STE run id) of the release (`demonstrations.set`). */
  demonstrations: string;
  /** The toolset of the stream's retrieval pool: earlier releases' retired tools among the distractors. */
  pool: string;
  /** The surfaces whose tools hide in the pool (default: the documentation's). */
  poolSurfaces?: string[];
  /** The tool-update memory as the agents built it (UpdateTool lines), for methods that read it. */
  memory?: readonly string[];
}

export interface MethodPreset {
  id: string;
  summary: string;
  method: MethodId;
  /** The aid slots the preset fills (every one is a slot its method uses). */
  aids: readonly AidSlot[];
  /** Whether the method carries the tool-update memory from task to task (the method's `memory` rule). */
  carriesMemory: boolean;
}

const EVERY_AID: readonly AidSlot[] = ['documentation', 'updateMemory', 'demonstrations', 'toolPool'];

function preset(id: string, method: MethodId, summary: string): MethodPreset {
  const m = getMethod(method);
  // Every aid the method can use: the preset is the method with everything on.
  const aids = EVERY_AID.filter((slot) => m.aids.includes(slot));
  return { id, summary, method, aids, carriesMemory: m.memory !== null };
}

export const PRESETS: readonly MethodPreset[] = [
  preset(
    'combined-greedy',
    'greedy-memory',
    'The combined agent: greedy ReAct with every aid on — the latest DRAFT documentation set, STE demonstrations, retrieval over the stream’s tool pool, and the tool-update memory carried across tasks.',
  ),
  preset(
    'combined-mcts',
    'mcts',
    'The combined agent as a ToolEvo tree search: MCTS (tool update inside the search) with the latest DRAFT documentation set, STE demonstrations and retrieval over the stream’s tool pool.',
  ),
];

export const PRESET_IDS = PRESETS.map((p) => p.id);

export function getPreset(id: string): MethodPreset {
  const p = PRESETS.find((x) => x.id === id);
  if (!p) throw new Error(`no method preset ${id}`);
  return p;
}

/** The `aids` object of a request running `preset` with these references (only the preset's slots). */
export function presetAids(p: MethodPreset, refs: PresetRefs): Aids {
  const aids: Aids = {};
  for (const slot of p.aids) {
    switch (slot) {
      case 'documentation':
        aids.documentation = { docset: refs.docset };
        break;
      case 'demonstrations':
        aids.demonstrations = { set: refs.demonstrations, count: 8 };
        break;
      case 'toolPool':
        aids.toolPool = {
          pool: refs.pool,
          // Top-3: the README's toolPool table measures bm25 top-1 at 12–14 % and top-3 at 67–71 % (simulator).
          topK: 3,
          ranker: 'bm25',
          judge: 'always',
          seed: 'tool-pool',
          ...(refs.poolSurfaces ? { surfaces: refs.poolSurfaces } : {}),
        };
        break;
      case 'updateMemory':
        aids.updateMemory = { lines: [...(refs.memory ?? [])] };
        break;
    }
  }
  return aids;
}

/** The listing GET /v1/methods shows (`presets`). */
export function presetListing(): {
  id: string;
  summary: string;
  method: MethodId;
  aids: AidSlot[];
  carriesMemory: boolean;
}[] {
  return PRESETS.map((p) => ({ ...p, aids: [...p.aids] }));
}
