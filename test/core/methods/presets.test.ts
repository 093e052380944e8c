/**
 * The combined agent is a configuration (issue 26 §3): every preset is a registered method with aids of the
 * existing slots, its requests validate like any suite's, and its aids resolve through the ordinary providers.
 */
import { describe, expect, it } from 'vitest';
import { AidsSchema, aidIssues, resolveAids } from '../../../core/aids/index.ts';
import { resolveDraftOptions } from '../../../core/draft/config.ts';
import { initialDocSet } from '../../../core/draft/docset.ts';
import { EvalSuiteSchema } from '../../../core/evals/suite.ts';
import { getPreset, PRESETS, presetAids, presetListing } from '../../../core/methods/presets.ts';
import { getMethod } from '../../../core/methods/registry.ts';
import { PC_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';

const refs = { docset: 'docs-r3', demonstrations: 'ste-r3', pool: 'pool-r3', memory: ['Old[x] -> New[y]'] };

describe('method presets', () => {
  it('fill only slots their method uses, and every such slot', () => {
    for (const p of PRESETS) {
      const m = getMethod(p.method);
      expect(p.aids.length).toBeGreaterThan(0);
      for (const slot of p.aids) expect(m.aids).toContain(slot);
      for (const slot of m.aids) expect(p.aids).toContain(slot);
      const aids = AidsSchema.parse(presetAids(p, refs));
      expect(aidIssues(aids, [m])).toEqual([]);
      expect(Object.keys(aids).sort()).toEqual([...p.aids].sort());
    }
  });

  it('the combined greedy agent has every aid and carries the tool-update memory', () => {
    const p = getPreset('combined-greedy');
    expect(p.method).toBe('greedy-memory');
    expect([...p.aids].sort()).toEqual(['demonstrations', 'documentation', 'toolPool', 'updateMemory']);
    expect(p.carriesMemory).toBe(true);
    const aids = presetAids(p, refs);
    expect(aids.documentation).toEqual({ docset: 'docs-r3' });
    expect(aids.demonstrations?.set).toBe('ste-r3');
    expect(aids.toolPool?.pool).toBe('pool-r3');
    expect(aids.updateMemory?.lines).toEqual(['Old[x] -> New[y]']);
    expect(getPreset('combined-mcts').aids).not.toContain('updateMemory');
    expect(() => getPreset('nope')).toThrow(/no method preset/);
    expect(presetListing().map((x) => x.id)).toEqual(['combined-greedy', 'combined-mcts']);
  });

  it('validates as a suite and resolves through the ordinary aid providers', async () => {
    const p = getPreset('combined-greedy');
    const suite = EvalSuiteSchema.parse({ methods: [p.method], aids: presetAids(p, refs) });
    expect(suite.aids?.documentation?.docset).toBe('docs-r3');
    // A preset asking a slot its method does not list is refused like any request.
    const bad = EvalSuiteSchema.safeParse({ methods: ['mcts'], aids: presetAids(p, refs) });
    expect(bad.success).toBe(false);

    const set = initialDocSet(PC_SURFACE, S_OOD_SURFACE.id, 'sim', true, resolveDraftOptions({}));
    const resolved = await resolveAids(suite.aids, 'pc', {
      surface: async (id) => (id === 'pc' ? PC_SURFACE : id === 's-ood' ? S_OOD_SURFACE : null),
      docset: async (id) => (id === 'docs-r3' ? set : null),
      demonstrations: async (id) => (id === 'ste-r3' ? async () => [] : null),
      toolset: async (id) =>
        id === 'pool-r3' ? [{ name: 'LookUpSomething', description: 'a distractor' }] : null,
    });
    expect(resolved.updateMemory).toEqual(['Old[x] -> New[y]']);
    expect(resolved.demonstrations).toBeDefined();
    expect(resolved.toolPool).toBeDefined();
    expect(resolved.documentation.tools.map((t) => t.name)).toContain(PC_SURFACE.tools[0]?.name);
  });
});
