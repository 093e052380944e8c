/**
 * Maintenance on release (issue 26 §2) and the series over recorded results (§4): maintenance works only on what a
 * release changed, continues the previous release's documentation set, explores the changed tools with rehearsal,
 * keeps retired names in the pool, records spend per step, and is a function of its inputs; the series recomputes
 * every verdict from the recorded answers (a stored `correct` that disagrees does not count).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LexicalEmbeddingModel } from '../../../core/models/lexical.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import { configurationsFor, evaluateRelease, type TaskRecord } from '../../../core/streams/evaluate.ts';
import {
  changedTargets,
  MaintenancePolicySchema,
  type MaintenanceState,
  maintain,
  type ReleaseMaintenance,
} from '../../../core/streams/maintain.ts';
import type { Release } from '../../../core/streams/model.ts';
import { releasesUpTo } from '../../../core/streams/release.ts';
import { buildSeries, recomputedCorrect, sparkline } from '../../../core/streams/series.ts';
import { PC_SURFACE } from '../../../core/surfaces/builtin.ts';
import type { Surface } from '../../../core/surfaces/model.ts';
import { createKernelDeps } from '../../../core/world/kernel-deps.ts';
import { generateTasks } from '../../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import type { Task } from '../../../core/world/tasks/types.ts';
import type { World } from '../../../core/world/types.ts';
import { generateWorld } from '../../../core/world/world.ts';

const seed = 'maintain-test';
const now = new Date('2026-06-01T00:00:00Z');
// Small STE rounds keep the test quick; the defaults are the paper's (15 × 4).
const policy = MaintenancePolicySchema.parse({ steEpisodes: 1, steTrials: 2 });
let world: World;
let releases: Release[];
let tasks: Task[];

beforeAll(async () => {
  world = generateWorld({ seed, scale: 0.1 });
  releases = releasesUpTo(
    { id: 'mt', seed, intensity: { 'rename-tool': 2, 'rename-params': 1 } },
    { kind: 'kernel', base: PC_SURFACE },
    2,
  );
  tasks = (
    await generateTasks(world, TASK_TEMPLATES, { counts: () => ({ test: 1, dev: 0, train: 0 }) })
  ).tasks
    .filter((t) => t.dataset !== 'gsm8k')
    .slice(0, 6);
});

async function run(state: MaintenanceState | null, n: number) {
  const t = 0;
  return maintain({
    seed,
    release: releases[n] as Release,
    previous: n === 0 ? null : (releases[n - 1] as Release).surface,
    state,
    policy,
    backend: { kind: 'kernel', world, deps: createKernelDeps({}), docs: PC_SURFACE },
    model: createSimModel({ seed }),
    embedder: new LexicalEmbeddingModel(),
    now,
    clock: () => t,
  });
}

describe('maintain', () => {
  it('works on every tool at release 0 and only on what changed afterwards, continuing the previous set', async () => {
    const r0 = await run(null, 0);
    expect(r0.spend.changed).toEqual(changedTargets(releases[0] as Release));
    expect(r0.spend.changed).not.toContain('Finish');
    expect(r0.state.docset?.parent).toBeNull();
    expect(r0.state.rounds.map((r) => r.id)).toEqual(['r0']);

    const release1 = releases[1] as Release;
    const r1 = await run(r0.state, 1);
    const changed = [...new Set(release1.diff?.changed.map((c) => c.target))].sort();
    expect(r1.spend.changed).toEqual(changed);
    const draft = r1.spend.steps.find((s) => s.step === 'draft');
    // Documentation keys are the names of release 0 (the docs DRAFT started from) of the changed kernel tools.
    expect([...(draft?.targets ?? [])].sort()).toEqual(
      PC_SURFACE.tools
        .filter((t) => changed.includes(t.kernel))
        .map((t) => t.name)
        .sort(),
    );
    expect(draft?.modelCalls).toBeGreaterThan(0);
    expect(r1.state.docset?.parent).toBe('r0');
    // Tools outside the change keep release 0's documentation untouched.
    for (const t of r1.state.docset?.tools ?? [])
      if (!draft?.targets.includes(t.key))
        expect(t).toEqual(r0.state.docset?.tools.find((x) => x.key === t.key));

    // STE explored the changed tools under their release-1 names; the pool is round 1 plus 10 % of round 0.
    const ste = r1.spend.steps.find((s) => s.step === 'ste');
    const surface = release1.surface as Surface;
    for (const name of ste?.targets ?? []) expect(surface.tools.map((t) => t.name)).toContain(name);
    expect(ste?.targets.length).toBeGreaterThan(0);
    const round1 = r1.state.rounds[1]?.exemplars ?? [];
    const round0 = r1.state.rounds[0]?.exemplars ?? [];
    expect(r1.state.demonstrations.length).toBe(round1.length + Math.round(0.1 * round0.length));
    for (const e of round1) expect(ste?.targets).toContain(e.tool);

    // The retired names stay in the pool as distractors, described as release 0 documented them.
    const retired = release1.diff?.retired.map((r) => r.name) ?? [];
    expect(retired.length).toBeGreaterThan(0);
    expect(r1.state.retired.map((t) => t.name)).toEqual(retired);
    for (const t of r1.state.retired)
      expect(t.description).toBe(PC_SURFACE.tools.find((x) => x.name === t.name)?.description);
    expect([...(r1.spend.steps.find((s) => s.step === 'pool')?.targets ?? [])].sort()).toEqual(
      [...(release1.diff?.added ?? [])].sort(),
    );

    // Spend per step is recorded, and the same inputs give the same maintenance.
    expect(r1.spend.steps.map((s) => s.step)).toEqual(['draft', 'ste', 'pool']);
    expect(await run(r0.state, 1)).toEqual(r1);
  }, 120_000);

  it('refuses a state that is not the previous release’s', async () => {
    const r0 = await run(null, 0);
    await expect(run(r0.state, 2)).rejects.toThrow(/state is for release 0, not 1/);
  }, 60_000);
});

describe('evaluation over time', () => {
  it('runs the same tasks for every configuration and the series recomputes the verdicts', async () => {
    const r0 = await run(null, 0);
    const r1 = await run(r0.state, 1);
    const model = createSimModel({ seed });
    const embedder = new LexicalEmbeddingModel();
    const configurations = configurationsFor('kernel');
    const suite = {
      kind: 'kernel' as const,
      world,
      deps: createKernelDeps({}),
      tasks,
      distractors: [{ name: 'CountSheep', description: 'counts sheep in a field' }],
      maxSteps: 10,
    };
    const e0 = await evaluateRelease({
      seed,
      release: releases[0] as Release,
      base: PC_SURFACE,
      state: r0.state,
      suite,
      configurations,
      memory: {},
      model,
      embedder,
      now,
    });
    const e1 = await evaluateRelease({
      seed,
      release: releases[1] as Release,
      base: PC_SURFACE,
      state: r1.state,
      suite,
      configurations,
      memory: e0.memory,
      model,
      embedder,
      now,
    });
    const records: TaskRecord[] = [...e0.records, ...e1.records];
    expect(records.length).toBe(2 * configurations.length * tasks.length);
    for (const c of configurations)
      expect(e1.records.filter((r) => r.configuration === c.id).map((r) => r.task)).toEqual(
        tasks.map((t) => t.id),
      );
    // The recomputed verdict agrees with the one the run reported.
    for (const r of records) expect(recomputedCorrect(r), JSON.stringify(r)).toBe(r.correct);
    // Memory-carrying configurations hand their memory to the next release.
    expect(Object.keys(e1.memory).sort()).toEqual(['combined', 'memory']);

    const spend: ReleaseMaintenance[] = [r0.spend, r1.spend];
    const series = buildSeries({
      releases: releases
        .slice(0, 2)
        .map((r) => ({ n: r.n, retired: r.diff?.retired.map((x) => x.name) ?? [] })),
      configurations,
      records,
      maintenance: spend,
    });
    for (const line of series.configurations)
      for (const [i, n] of series.releases.entries()) {
        const rs = records.filter((r) => r.configuration === line.id && r.release === n);
        expect(line.success[i]).toBeCloseTo(rs.filter((r) => r.correct).length / rs.length);
      }
    expect(series.retirements).toEqual([
      { release: 1, names: (releases[1] as Release).diff?.retired.map((x) => x.name) },
    ]);
    expect(series.maintenance.map((m) => m.release)).toEqual([0, 1]);
    expect(series.maintenance[1]?.modelCalls).toBe(r1.spend.steps.reduce((s, x) => s + x.modelCalls, 0));
  }, 180_000);
});

describe('series', () => {
  const configurations = [
    { id: 'a', label: 'A' },
    { id: 'b', label: 'B' },
  ];
  const rec = (release: number, configuration: string, answer: string | null, correct: boolean) => ({
    release,
    configuration,
    answer,
    gold: '42',
    correct,
  });

  it('counts recomputed verdicts, not stored ones', () => {
    const series = buildSeries({
      releases: [
        { n: 0, retired: [] },
        { n: 1, retired: ['GetValue'] },
      ],
      configurations,
      // The second record claims success with a wrong answer; the third claims failure with the right one.
      records: [
        rec(0, 'a', '42', true),
        rec(0, 'a', '41', true),
        rec(1, 'a', '42', false),
        rec(1, 'a', null, false),
      ],
      maintenance: [],
    });
    expect(series.configurations[0]?.success).toEqual([0.5, 0.5]);
    expect(series.configurations[1]?.success).toEqual([null, null]);
    expect(series.retirements).toEqual([{ release: 1, names: ['GetValue'] }]);
  });

  it('recomputes API paths as ordered subsequences', () => {
    expect(recomputedCorrect({ called: ['a', 'x', 'b'], goldPath: ['a', 'b'] })).toBe(true);
    expect(recomputedCorrect({ called: ['b', 'a'], goldPath: ['a', 'b'] })).toBe(false);
    expect(recomputedCorrect({ called: [], goldPath: [] })).toBe(false);
  });

  it('draws a sparkline per release', () => {
    expect(sparkline([0, 0.5, 1, null])).toBe('▁▅█·');
  });
});
