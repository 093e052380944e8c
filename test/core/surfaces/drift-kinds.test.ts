/**
 * The drift-kind registry (`core/surfaces/drift/kinds/`): the kinds a generated surface records and the API
 * accepts are exactly the listed modules, each with its own id and place in the generator's sequence, and a
 * generated surface's description is made of the active kinds' summaries in canonical order.
 */
import { describe, expect, it } from 'vitest';
import { PC_SURFACE } from '../../../core/surfaces/builtin.ts';
import {
  DRIFT_KIND_MODULES,
  DRIFT_KINDS,
  driftKindSummary,
  generateSurface,
  normalizeDriftKinds,
} from '../../../core/surfaces/drift/index.ts';

describe('drift kind registry', () => {
  it('lists every kind once, with distinct places in the sequence and a one-line summary', () => {
    expect(DRIFT_KINDS).toEqual(DRIFT_KIND_MODULES.map((k) => k.id));
    expect(new Set(DRIFT_KINDS).size).toBe(DRIFT_KINDS.length);
    expect(new Set(DRIFT_KIND_MODULES.map((k) => k.order)).size).toBe(DRIFT_KIND_MODULES.length);
    for (const k of DRIFT_KIND_MODULES) {
      expect(k.summary).toMatch(/^[^\n]+$/);
      expect(driftKindSummary(k.id)).toBe(k.summary);
    }
  });

  it('describes a generated surface by the summaries of its kinds in canonical order', () => {
    const kinds = normalizeDriftKinds(['wrap-response', 'flags', 'rename-tool']);
    const surface = generateSurface(PC_SURFACE, { seed: 3, kinds: [...kinds].reverse() });
    expect(surface.drift?.kinds).toEqual(['rename-tool', 'flags', 'wrap-response']);
    expect(surface.description).toBe(
      `Generated from pc with seed 3: ${kinds.map((k) => driftKindSummary(k)).join('; ')}.`,
    );
  });
});
