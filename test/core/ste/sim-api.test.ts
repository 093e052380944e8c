/**
 * The simulated policy in STE on an imported API (issue 23 §3, §6): a query of none of its kernel kinds on a tool
 * list documenting HTTP operations is answered in the generic API mode, so its trials call the mock; a call of an
 * operation without parameters (`Action Input: {}`, which ToolQA-D's pattern does not parse) still counts as the
 * trial's call, so its exemplar can be kept.
 */
import { describe, expect, it } from 'vitest';
import { MockWorld } from '../../../core/apis/mock/index.ts';
import { baseApiSurface } from '../../../core/apis/surface/base.ts';
import { apiTarget } from '../../../core/sessions/targets.ts';
import { createSimModel, SIM_MODEL_LABEL } from '../../../core/sim/index.ts';
import { exploreTool } from '../../../core/ste/engine.ts';
import { tmdbImport } from '../apis/data.ts';

describe('the simulator explores TMDB operations in STE', () => {
  it('calls the mock, keeps exemplars under the operation’s name, with `{}` for an operation without parameters', async () => {
    const { catalog } = await tmdbImport();
    const base = baseApiSurface('tmdb', catalog, 'TMDB');
    const target = apiTarget({
      api: { id: 'tmdb', title: 'TMDB', mode: 'seeded', seed: 's', worldSize: 10_000, upstream: null },
      server: { kind: 'surface', surface: base },
      deps: { catalog, world: new MockWorld('tmdb', catalog, 's'), backend: { mode: 'seeded' } },
      now: new Date('2026-06-01T00:00:00Z'),
    });
    for (const [tool, input] of [
      ['GET_movie-popular', '{}'],
      ['GET_search-person', '{"query":'],
    ] as const) {
      const state = await exploreTool(
        { model: createSimModel({ seed: 'ste-api' }), target },
        { tool, seed: 'sim', episodes: 1, trials: 2, paraphrase: false },
      );
      expect(state.model).toBe(SIM_MODEL_LABEL);
      const calls = state.trials.flatMap((t) => t.steps.filter((s) => s.action === tool));
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.every((s) => s.ok && s.observation.includes('"results"'))).toBe(true);
      expect(calls[0]!.actionInput?.replace(/\s/g, '')).toMatch(
        new RegExp(`^${input.replace(/[{}]/g, '\\$&')}`),
      );
      const kept = state.exemplars.filter((e) => e.action === tool);
      expect(kept.length).toBeGreaterThan(0);
    }
  });
});
