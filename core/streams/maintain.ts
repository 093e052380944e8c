/**
 * Maintenance on release (issue 26 §2): what keeps an agent's aids up with a drift stream, as one pure driver
 * `maintain(input)` run once per release. For the operations a release changed (its diff against the previous
 * release; every one for release 0, and every one when the response format changed):
 *
 * 1. **DRAFT** re-documents them, starting from the previous release's documentation set (a continued set, as docs
 *    that follow drift do: core/draft/follow.ts picks the documentation keys of the changed kernel tools; an
 *    imported API's set is keyed by the operation each entry serves). The other tools keep their documentation;
 *    a documented name the release no longer serves is flagged `not-served` (core/draft/docset.ts).
 * 2. **STE** explores the changed tools of the release (core/ste/targets.ts `steTargetTools(since)`), one round per
 *    release (round id `r{n}`); the demonstration pool is that round's exemplars plus the rehearsal sample of every
 *    earlier round (core/ste/rehearsal.ts, spec ste.md "Continual learning": 10 %, seeded by the round id).
 * 3. **Retrieval pool**: the release's tools join the pool (the toolPool aid hides the release surface's tools
 *    among the distractors, `surfaces`), and the names it retired stay as distractors (`retired`), described as
 *    the previous release documented them.
 * 4. The **tool-update memory** is not touched: it is what the agents wrote (methods' `memory` rule).
 *
 * Every step records its spend — model calls, tokens and wall time — per release (`ReleaseMaintenance`). Nothing
 * here touches a store: the edge keeps the returned state and runs this once per (stream, release).
 */
import { z } from 'zod';
import type { MockWorld } from '../apis/mock/world.ts';
import type { ApiSurface } from '../apis/surface/model.ts';
import { isApiSurface } from '../apis/surface/model.ts';
import type { ApiCatalog } from '../apis/types.ts';
import type { DocSet } from '../draft/docset.ts';
import { markServed } from '../draft/docset.ts';
import { keysForKernels } from '../draft/follow.ts';
import { runDraft } from '../draft/run.ts';
import type { EmbeddingModel, TextModel } from '../models/types.ts';
import type { Tool } from '../retrieval/types.ts';
import type { ApiRef } from '../sessions/api.ts';
import { apiTarget } from '../sessions/targets.ts';
import { STE_EPISODES, STE_TRIALS } from '../ste/constants.ts';
import { exploreTool, type SteExemplar } from '../ste/engine.ts';
import { roundTrainingSet, type SteRound } from '../ste/rehearsal.ts';
import { steTargetTools } from '../ste/targets.ts';
import type { Surface } from '../surfaces/model.ts';
import type { KernelDeps } from '../world/kernel/kernel.ts';
import type { World } from '../world/types.ts';

/** What a stream's maintenance does on each release (stored with the stream; defaults = the papers'). */
export const MaintenancePolicySchema = z.strictObject({
  draft: z.boolean().default(true).meta({ description: 'DRAFT re-documents the changed operations.' }),
  ste: z
    .boolean()
    .default(true)
    .meta({ description: 'STE explores the changed tools (one round per release).' }),
  pool: z
    .boolean()
    .default(true)
    .meta({ description: 'The retrieval pool gains the new tools and keeps retired ones as distractors.' }),
  rehearsal: z
    .boolean()
    .default(true)
    .meta({ description: 'STE continual learning: replay 10 % of each earlier round’s exemplars.' }),
  steEpisodes: z
    .number()
    .int()
    .min(1)
    .max(STE_EPISODES)
    .default(STE_EPISODES)
    .meta({ description: `STE episodes per tool (paper: ${STE_EPISODES}).` }),
  steTrials: z
    .number()
    .int()
    .min(1)
    .max(8)
    .default(STE_TRIALS)
    .meta({ description: `STE trials per episode (paper: ${STE_TRIALS}).` }),
});
export type MaintenancePolicy = z.output<typeof MaintenancePolicySchema>;
export type MaintenancePolicyInput = z.input<typeof MaintenancePolicySchema>;

/** Where explorations run: the kernel's tools over a world, or an imported API's operations over its mock. */
export type MaintenanceBackend =
  | {
      kind: 'kernel';
      world: World;
      deps: KernelDeps;
      /** The documentation DRAFT's first set starts from (release 0's surface). */
      docs: Surface;
    }
  | { kind: 'api'; api: ApiRef; catalog: ApiCatalog; world: MockWorld; docs: ApiSurface };

export type MaintenanceStep = 'draft' | 'ste' | 'pool';

export interface StepSpend {
  step: MaintenanceStep;
  /** What the step worked on: documentation keys (draft), tool names (ste), names added to the pool (pool). */
  targets: string[];
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  wallMs: number;
}

/** One release's maintenance: what changed and what each step spent. */
export interface ReleaseMaintenance {
  release: number;
  /** Kernel tools or API operations the release changed (every one for release 0 or a response change). */
  changed: string[];
  steps: StepSpend[];
}

/** What maintenance carries from one release to the next. */
export interface MaintenanceState {
  /** The release this state is maintained for. */
  release: number;
  /** The latest documentation set (null without DRAFT). */
  docset: DocSet | null;
  /** STE rounds, one per maintained release (their original exemplars). */
  rounds: SteRound<SteExemplar>[];
  /** The demonstration pool now: the latest round plus the rehearsal samples of the earlier ones. */
  demonstrations: SteExemplar[];
  /** Names earlier releases retired, kept in the retrieval pool as distractors. */
  retired: Tool[];
}

/** The release as maintenance reads it (core/streams/model.ts `Release`: its number, surface and diff). */
export interface MaintainedRelease {
  n: number;
  surface: Surface | ApiSurface;
  diff: {
    changed: { target: string }[];
    retired: { name: string; target: string }[];
    response: boolean;
  } | null;
}

export interface MaintainInput {
  /** Every model-call seed of the maintenance derives from it and the release number. */
  seed: string;
  release: MaintainedRelease;
  /** The previous release's surface (null for release 0). */
  previous: Surface | ApiSurface | null;
  /** The state after the previous release (null before the first maintenance). */
  state: MaintenanceState | null;
  policy: MaintenancePolicy;
  backend: MaintenanceBackend;
  model: TextModel;
  /** The encoder of DRAFT's φ and Δ. */
  embedder: EmbeddingModel;
  /** The clock explorations run at (schedules, lifecycles). */
  now: Date;
  /** Wall time source (default Date.now). */
  clock?: () => number;
  signal?: AbortSignal;
  /** Called when a step starts (progress). */
  onStep?: (step: MaintenanceStep, targets: readonly string[]) => void;
}

const CONTROL = new Set(['Finish', 'UpdateTool']);

/** The kernel tools or operations a release changed; every one for release 0 or a response-format change. */
export function changedTargets(release: MaintainedRelease): string[] {
  const all = () =>
    [
      ...new Set(
        isApiSurface(release.surface)
          ? release.surface.tools.map((t) => t.operation)
          : release.surface.tools.map((t) => t.kernel),
      ),
    ].filter((t) => !CONTROL.has(t));
  if (release.diff === null || release.diff.response) return all().sort();
  return [...new Set(release.diff.changed.map((c) => c.target))].filter((t) => !CONTROL.has(t)).sort();
}

/** The documentation keys of a set (or of the backend's starting docs) that document the changed targets. */
export function draftKeys(
  backend: MaintenanceBackend,
  set: DocSet | null,
  targets: readonly string[],
): string[] {
  if (backend.kind === 'kernel') return keysForKernels(backend.docs, targets);
  const entries = set?.tools ?? backend.docs.tools.map((t) => ({ key: t.name, operation: t.operation }));
  return entries.filter((t) => t.operation !== undefined && targets.includes(t.operation)).map((t) => t.key);
}

/** A retired tool as a pool distractor: its name and the description the previous release documented. */
function retiredTools(previous: Surface | ApiSurface | null, names: readonly string[]): Tool[] {
  if (!previous) return [];
  const out: Tool[] = [];
  for (const name of names) {
    const t = (previous.tools as { name: string; description: string }[]).find((x) => x.name === name);
    if (t) out.push({ name: t.name, description: t.description });
  }
  return out;
}

export async function maintain(
  input: MaintainInput,
): Promise<{ state: MaintenanceState; spend: ReleaseMaintenance }> {
  const clock = input.clock ?? Date.now;
  const { release, backend, policy } = input;
  const n = release.n;
  if (input.state && input.state.release !== n - 1)
    throw new RangeError(`maintain: the state is for release ${input.state.release}, not ${n - 1}`);
  const changed = changedTargets(release);
  const steps: StepSpend[] = [];
  const prev = input.state;

  // 1. DRAFT: re-document the changed operations, continuing the previous release's set.
  let docset = prev?.docset ?? null;
  if (policy.draft) {
    const keys = draftKeys(backend, docset, changed);
    input.onStep?.('draft', keys);
    const t0 = clock();
    const common = {
      model: input.model,
      embedder: input.embedder,
      options: { seed: `${input.seed}/draft/r${n}` },
      only: keys,
      now: input.now,
      ...(docset ? { from: { id: `r${n - 1}`, set: docset } } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    };
    const r =
      keys.length === 0 && docset
        ? null
        : backend.kind === 'kernel'
          ? await runDraft({
              ...common,
              world: backend.world,
              docs: backend.docs,
              server: release.surface as Surface,
              deps: backend.deps,
            })
          : await runDraft({
              ...common,
              target: apiTarget({
                api: backend.api,
                server: { kind: 'surface', surface: release.surface as ApiSurface },
                docs: backend.docs,
                deps: { catalog: backend.catalog, world: backend.world, backend: { mode: 'seeded' } },
                now: input.now,
              }),
              docs: backend.docs,
              catalog: backend.catalog,
              server: release.surface as ApiSurface,
            });
    docset = r ? r.docset : markServed(docset as DocSet, release.surface, input.now);
    steps.push({
      step: 'draft',
      targets: keys,
      modelCalls: r?.usage.calls ?? 0,
      inputTokens: r?.usage.inputTokens ?? 0,
      outputTokens: r?.usage.outputTokens ?? 0,
      wallMs: clock() - t0,
    });
  }

  // 2. STE: explore the changed tools of the release; the pool is this round plus rehearsal of earlier rounds.
  let rounds = prev?.rounds ?? [];
  let demonstrations = prev?.demonstrations ?? [];
  if (policy.ste) {
    const tools = input.previous
      ? isApiSurface(release.surface)
        ? steTargetTools(release.surface, { since: input.previous as ApiSurface, now: input.now })
        : steTargetTools(release.surface, { since: input.previous as Surface, now: input.now })
      : isApiSurface(release.surface)
        ? steTargetTools(release.surface, { now: input.now })
        : steTargetTools(release.surface, { now: input.now });
    input.onStep?.('ste', tools);
    const t0 = clock();
    const spent = { calls: 0, inputTokens: 0, outputTokens: 0 };
    const exemplars: SteExemplar[] = [];
    const ctx =
      backend.kind === 'kernel'
        ? {
            model: input.model,
            world: backend.world,
            surface: release.surface as Surface,
            deps: backend.deps,
            now: input.now,
          }
        : {
            model: input.model,
            now: input.now,
            target: apiTarget({
              api: backend.api,
              server: { kind: 'surface', surface: release.surface as ApiSurface },
              deps: { catalog: backend.catalog, world: backend.world, backend: { mode: 'seeded' } },
              now: input.now,
            }),
          };
    for (const tool of tools) {
      const s = await exploreTool(input.signal ? { ...ctx, signal: input.signal } : ctx, {
        tool,
        seed: `${input.seed}/ste/r${n}`,
        episodes: policy.steEpisodes,
        trials: policy.steTrials,
      });
      exemplars.push(...s.exemplars);
      spent.calls += s.usage.calls;
      spent.inputTokens += s.usage.inputTokens;
      spent.outputTokens += s.usage.outputTokens;
    }
    const round = { id: `r${n}`, exemplars };
    demonstrations = roundTrainingSet(round, rounds, { rehearsal: policy.rehearsal });
    rounds = [...rounds, round];
    steps.push({
      step: 'ste',
      targets: tools,
      modelCalls: spent.calls,
      inputTokens: spent.inputTokens,
      outputTokens: spent.outputTokens,
      wallMs: clock() - t0,
    });
  }

  // 3. The retrieval pool: the release's tools join it (toolPool `surfaces`), retired names stay as distractors.
  let retired = prev?.retired ?? [];
  if (policy.pool) {
    const t0 = clock();
    const gone = retiredTools(input.previous, release.diff?.retired.map((r) => r.name) ?? []);
    const known = new Set(retired.map((t) => t.name));
    retired = [...retired, ...gone.filter((t) => !known.has(t.name))];
    const served = new Set((release.surface.tools as { name: string }[]).map((t) => t.name));
    const before = new Set((input.previous?.tools ?? []).map((t: { name: string }) => t.name));
    const added = [...served].filter((name) => !before.has(name));
    steps.push({
      step: 'pool',
      targets: added,
      modelCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      wallMs: clock() - t0,
    });
  }

  return {
    state: { release: n, docset, rounds, demonstrations, retired },
    spend: { release: n, changed, steps },
  };
}

/** A release's maintenance spend summed over its steps. */
export function totalSpend(m: ReleaseMaintenance): Omit<StepSpend, 'step' | 'targets'> {
  return m.steps.reduce(
    (s, x) => ({
      modelCalls: s.modelCalls + x.modelCalls,
      inputTokens: s.inputTokens + x.inputTokens,
      outputTokens: s.outputTokens + x.outputTokens,
      wallMs: s.wallMs + x.wallMs,
    }),
    { modelCalls: 0, inputTokens: 0, outputTokens: 0, wallMs: 0 },
  );
}
