import { describe, expect, it } from 'vitest';
import {
  API_DRIFT_KINDS,
  apiDriftSurfaceId,
  generateApiSurface,
  normalizeApiDriftKinds,
} from '../../../../core/apis/drift/index.ts';
import { API_SYNSETS } from '../../../../core/apis/drift/vocab.ts';
import { baseApiSurface } from '../../../../core/apis/surface/base.ts';
import { apiSurfaceProblems } from '../../../../core/apis/surface/validity.ts';
import { tmdbCatalog } from '../support/catalogs.ts';

const tmdb = await tmdbCatalog();
const base = baseApiSurface('tmdb', tmdb);

describe('generateApiSurface', () => {
  it('is a function of (base, seed, kinds): same input, deep-equal surface; kinds are a set', () => {
    for (const kinds of [...API_DRIFT_KINDS.map((k) => [k]), [...API_DRIFT_KINDS]]) {
      const a = generateApiSurface(base, tmdb, { seed: 42, kinds });
      const b = generateApiSurface(base, tmdb, { seed: '42', kinds: [...kinds].reverse().concat(kinds) });
      expect(b).toEqual(a);
    }
  });

  it('draws differently for another seed', () => {
    const a = generateApiSurface(base, tmdb, { seed: 1, kinds: API_DRIFT_KINDS });
    const b = generateApiSurface(base, tmdb, { seed: 2, kinds: API_DRIFT_KINDS });
    expect(b.tools).not.toEqual(a.tools);
    expect(b.id).not.toBe(a.id);
  });

  it('records how it was made and names itself after base, seed and kinds', () => {
    const s = generateApiSurface(base, tmdb, { seed: 7, kinds: ['version-prefix', 'rename-operation'] });
    expect(s).toMatchObject({
      backend: 'api',
      api: 'tmdb',
      derivedFrom: 'tmdb',
      drift: { seed: '7', kinds: ['rename-operation', 'version-prefix'] },
      title: `${base.title}, drifted (seed 7)`,
    });
    expect(s.id).toMatch(/^tmdb-drift-[0-9a-f]{8}$/);
    expect(s.id).toBe(apiDriftSurfaceId(base, 7, ['version-prefix', 'rename-operation', 'version-prefix']));
    expect(s.description).toBe(
      'Generated from tmdb with seed 7: tools renamed (synonyms and another name style); every route moves under a version prefix.',
    );
    expect(generateApiSurface(base, tmdb, { seed: 7, kinds: [], id: 'custom', title: 'T' })).toMatchObject({
      id: 'custom',
      title: 'T',
      tools: base.tools,
      retired: [],
      description: 'Generated from tmdb with seed 7: no drift.',
    });
  });

  it('rejects an unknown kind naming the known ones, and a window that ends before it starts', () => {
    expect(() => normalizeApiDriftKinds(['rename-tool'])).toThrow(
      `unknown API drift kind "rename-tool"; known: ${API_DRIFT_KINDS.join(', ')}`,
    );
    expect(() =>
      generateApiSurface(base, tmdb, {
        seed: 1,
        kinds: ['deprecate-operation'],
        window: { deprecatedAt: '2026-03-01', sunsetAt: '2026-01-01' },
      }),
    ).toThrow(/window/);
  });

  it('lets each kind draw from its own stream: adding a kind does not change what another chose', () => {
    const names = (kinds: string[]) =>
      generateApiSurface(base, tmdb, { seed: 9, kinds }).tools.map((t) => t.name);
    const paths = (kinds: string[]) =>
      generateApiSurface(base, tmdb, { seed: 9, kinds }).tools.map((t) => t.path);
    expect(names(['rename-operation', 'version-prefix', 'reshape-response'])).toEqual(
      names(['rename-operation']),
    );
    expect(paths(['rename-operation', 'version-prefix', 'reshape-response'])).toEqual(
      paths(['version-prefix']),
    );
    const response = (kinds: string[]) => generateApiSurface(base, tmdb, { seed: 9, kinds }).response;
    expect(response(['reshape-response', 'rename-params', 'split-params'])).toEqual(
      response(['reshape-response']),
    );
  });

  it('makes a valid surface for many seeds (a merged key stays within 64 characters: seeds 9 and 39 once broke it)', () => {
    for (let seed = 0; seed < 60; seed++) {
      const s = generateApiSurface(base, tmdb, { seed, kinds: API_DRIFT_KINDS });
      expect(apiSurfaceProblems(s, tmdb)).toEqual([]);
    }
  });

  it('makes surfaces apiSurfaceProblems finds nothing in, and drifts a drifted surface again', () => {
    const once = generateApiSurface(base, tmdb, {
      seed: 3,
      kinds: API_DRIFT_KINDS,
      window: { deprecatedAt: '2026-01-01', sunsetAt: '2026-03-01' },
    });
    expect(apiSurfaceProblems(once, tmdb)).toEqual([]);
    const twice = generateApiSurface(once, tmdb, {
      seed: 4,
      kinds: ['rename-operation', 'version-prefix', 'rename-params'],
    });
    expect(apiSurfaceProblems(twice, tmdb)).toEqual([]);
    expect(twice.derivedFrom).toBe(once.id);
    // Names retired on the first surface now point at the newest tool of their operation.
    for (const r of twice.retired) {
      expect(twice.tools.some((t) => t.name === r.successor && t.operation === r.operation)).toBe(true);
    }
  });
});

describe('vocabulary', () => {
  it('puts every word in one group at most', () => {
    const seen = new Map<string, number>();
    API_SYNSETS.forEach((group, i) => {
      for (const w of group) {
        expect(seen.get(w), w).toBeUndefined();
        seen.set(w, i);
      }
    });
  });
});
