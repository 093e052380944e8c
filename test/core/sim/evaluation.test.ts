/**
 * The simulator against the environment: greedy ReAct episodes (core/agents/react-loop.ts) over a fixed sample
 * of tasks (three per dataset × difficulty group where the small world has them) on P_c, P_s_OOD and a generated drifted surface. The assertions are orderings and coarse
 * thresholds (the qualitative pattern of ToolEVO's tables), not exact rates.
 */
import { describe, expect, it } from 'vitest';
import { PC_SURFACE, S_IN_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { generateSurface } from '../../../core/surfaces/drift/index.ts';
import type { Surface } from '../../../core/surfaces/model.ts';
import { parseReact } from '../../../core/world/react-parse.ts';
import { evalTasks, runSuite, type SuiteOptions, type SuiteResult } from './fixtures.ts';

const GENERATED = generateSurface(PC_SURFACE, {
  seed: 'sim-eval',
  kinds: [
    'rename-tool',
    'rename-params',
    'split-params',
    'merge-params',
    'flags',
    'prefixes',
    'wrap-response',
  ],
});

const cache = new Map<string, Promise<SuiteResult>>();
function suite(surface: Surface, opts: SuiteOptions = {}): Promise<SuiteResult> {
  const key = `${surface.id}/${opts.docs?.id ?? 'pc'}/${JSON.stringify({ ...opts, docs: undefined })}`;
  let r = cache.get(key);
  if (!r) {
    r = runSuite(surface, opts);
    cache.set(key, r);
  }
  return r;
}

const LEVELS = [0, 0.25, 0.5, 1];

function expectRising(rates: number[]) {
  for (let i = 1; i < rates.length; i++)
    expect(rates[i], `rates ${rates}`).toBeGreaterThanOrEqual(rates[i - 1] as number);
  expect((rates.at(-1) as number) - (rates[0] as number), `rates ${rates}`).toBeGreaterThanOrEqual(0.6);
}

describe('greedy ReAct episodes of the simulator', () => {
  it('covers every dataset × difficulty group', async () => {
    const tasks = await evalTasks();
    expect(tasks.length).toBeGreaterThanOrEqual(40);
    expect(new Set(tasks.map((t) => `${t.dataset}-${t.difficulty}`)).size).toBe(15);
  });

  it('mostly succeed when the documentation matches the server (P_c), even with the default noise', async () => {
    const pc = await suite(PC_SURFACE);
    expect(pc.success).toBeGreaterThanOrEqual(0.8);
    for (const e of pc.episodes) expect(e.model).toContain('(simulator)');
  });

  it('drop sharply on drifted surfaces for the default (non-adapting) policy', async () => {
    const pc = await suite(PC_SURFACE);
    const ood = await suite(S_OOD_SURFACE);
    expect(ood.success).toBeLessThanOrEqual(pc.success - 0.4);
    const never = await suite(S_OOD_SURFACE, { skills: { pUpdate: 0, pReflect: 0 } });
    expect(never.success).toBeLessThanOrEqual(0.05);
    // Without adapting, the budget runs out on repeated calls of deprecated tools.
    expect(never.episodes.filter((e) => e.ending === 'budget').length).toBeGreaterThan(40);
  });

  it('recover on P_s_OOD as pUpdate grows (pReflect = 1)', async () => {
    const rates: number[] = [];
    for (const p of LEVELS)
      rates.push((await suite(S_OOD_SURFACE, { skills: { pUpdate: p, pReflect: 1, noise: 0 } })).success);
    expectRising(rates);
  });

  it('recover on P_s_OOD as pReflect grows (pUpdate = 1)', async () => {
    const rates: number[] = [];
    for (const p of LEVELS)
      rates.push((await suite(S_OOD_SURFACE, { skills: { pUpdate: 1, pReflect: p, noise: 0 } })).success);
    expectRising(rates);
  });

  it('recover on a generated drifted surface as pUpdate and pReflect grow together', async () => {
    const rates: number[] = [];
    for (const p of LEVELS)
      rates.push((await suite(GENERATED, { skills: { pUpdate: p, pReflect: p, noise: 0 } })).success);
    expectRising(rates);
  });

  it('do better with the self-reflection prompt than without it', async () => {
    const plain = await suite(S_OOD_SURFACE);
    const reflective = await suite(S_OOD_SURFACE, { reflection: true });
    expect(reflective.success).toBeGreaterThan(plain.success);
    expect(reflective.episodes.some((e) => e.steps.some((s) => s.prompt === 'toolevo/reflection'))).toBe(
      true,
    );
  });

  it('reuse UpdateTool descriptions carried over from earlier episodes', async () => {
    const adaptive = await suite(S_OOD_SURFACE, { preset: 'adaptive', skills: { noise: 0 } });
    // One description per tool family, from the first episode that wrote it.
    const memory = new Map<string, string>();
    for (const e of adaptive.episodes) {
      for (const line of e.newTools) {
        const name = /^\(\d+\) ([^[]+)\[/.exec(line)?.[1];
        if (name && !memory.has(name)) memory.set(name, line.replace(/^\(\d+\) /, ''));
      }
    }
    expect(memory.size).toBeGreaterThanOrEqual(8);
    const withMemory = await suite(S_OOD_SURFACE, {
      preset: 'adaptive',
      skills: { noise: 0 },
      memory: [...memory.values()],
    });
    const steps = (r: SuiteResult) => r.episodes.reduce((n, e) => n + e.steps.length, 0);
    expect(withMemory.success).toBeGreaterThanOrEqual(adaptive.success);
    expect(steps(withMemory)).toBeLessThan(steps(adaptive) * 0.8);
  });

  it('plan in the API of whatever documentation the prompt shows', async () => {
    for (const surface of [S_IN_SURFACE, S_OOD_SURFACE, GENERATED]) {
      const matched = await suite(surface, { docs: surface });
      expect(matched.success, surface.id).toBeGreaterThanOrEqual(0.8);
    }
  });

  it('are repeatable: the same seed gives identical transcripts, greedy and sampled', async () => {
    const a = await runSuite(S_OOD_SURFACE, { temperature: 1, seed: 11 });
    const b = await runSuite(S_OOD_SURFACE, { temperature: 1, seed: 11 });
    expect(a.episodes.map((e) => e.transcript)).toEqual(b.episodes.map((e) => e.transcript));
    const c = await runSuite(S_OOD_SURFACE, { temperature: 1, seed: 12 });
    expect(c.episodes.map((e) => e.transcript)).not.toEqual(a.episodes.map((e) => e.transcript));
    const greedy = await runSuite(S_OOD_SURFACE);
    expect(greedy.episodes.map((e) => e.transcript)).toEqual(
      (await suite(S_OOD_SURFACE)).episodes.map((e) => e.transcript),
    );
  });

  it('write text the ReAct parser reads, unless a malformed-output failure was drawn', async () => {
    let texts = 0;
    for (const r of await Promise.all([...cache.values()])) {
      for (const e of r.episodes) {
        for (const s of e.steps) {
          texts++;
          if (s.outcome.kind === 'rejected' && s.outcome.reason === 'filtered') continue;
          expect(parseReact(s.text).ok, s.text).toBe(true);
        }
      }
    }
    expect(texts).toBeGreaterThan(2000);
    // With noise off, nothing is ever filtered.
    const clean = await suite(S_OOD_SURFACE, { skills: { pUpdate: 1, pReflect: 1, noise: 0 } });
    for (const e of clean.episodes) {
      for (const s of e.steps) expect(parseReact(s.text).ok, s.text).toBe(true);
    }
  });
});
