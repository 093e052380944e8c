/**
 * The setup the DRAFT evaluations share (`eval:draft`, `eval:draft-retrieval`): the world, its test tasks and the
 * generated drifted surface, all seeded, so both scripts evaluate the same DRAFT runs.
 */
import { resolveDraftOptions } from '../../core/draft/config.ts';
import type { DocSet } from '../../core/draft/docset.ts';
import { runDraft } from '../../core/draft/run.ts';
import { createSimModel } from '../../core/sim/index.ts';
import { PC_SURFACE } from '../../core/surfaces/builtin.ts';
import { generateSurface } from '../../core/surfaces/drift/index.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import { createKernelDeps } from '../../core/world/kernel-deps.ts';
import { generateTasks } from '../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../core/world/tasks/registry.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import type { World } from '../../core/world/types.ts';
import { generateWorld } from '../../core/world/world.ts';
import { draftEncoder } from './draft-encoder.ts';

export interface DraftEvalSetup {
  world: World;
  tasks: Task[];
  /** A generated surface with renamed tools and parameters, flags, prefixes and wrapped responses. */
  generated: Surface;
}

export async function draftEvalSetup(perGroup: number): Promise<DraftEvalSetup> {
  const world = generateWorld({ seed: 'draft-eval', scale: 0.1 });
  const { tasks } = await generateTasks(world, TASK_TEMPLATES, {
    counts: () => ({ test: perGroup, dev: 0, train: 0 }),
  });
  const generated = generateSurface(PC_SURFACE, {
    seed: 'draft-eval',
    kinds: ['rename-tool', 'rename-params', 'flags', 'prefixes', 'wrap-response'],
  });
  return { world, tasks, generated };
}

/**
 * DRAFT with the simulator (`static` preset) from the stale P_c documentation on `server`; φ and Δ measured with
 * the encoder the options name (default `auto`: USE lite in Node, scripts/lib/draft-encoder.ts).
 */
export async function simDraftDocs(
  world: World,
  server: Surface,
  options: Parameters<typeof resolveDraftOptions>[0],
): Promise<DocSet> {
  const r = await runDraft({
    model: createSimModel({ preset: 'static' }),
    embedder: await draftEncoder(resolveDraftOptions(options).encoder),
    world,
    docs: PC_SURFACE,
    server,
    deps: createKernelDeps({}),
    options,
  });
  return r.docset;
}
