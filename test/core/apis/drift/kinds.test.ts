/**
 * Each API drift kind changes what its summary says, on TMDB (GET only, paged) and on a ToolAlpaca document with
 * writes (Apache Superset: POST/PUT/DELETE with JSON bodies; AbuseIPDB for paging, which Superset lacks).
 */
import { describe, expect, it } from 'vitest';
import { API_DRIFT_KINDS, type ApiDriftKind, generateApiSurface } from '../../../../core/apis/drift/index.ts';
import { baseApiSurface } from '../../../../core/apis/surface/base.ts';
import { apiArgumentsSchema } from '../../../../core/apis/surface/docs.ts';
import type { ApiSurface, ApiTool } from '../../../../core/apis/surface/model.ts';
import { pageParams } from '../../../../core/apis/surface/pagination.ts';
import { resolveApiCall } from '../../../../core/apis/surface/resolve.ts';
import { templateParams } from '../../../../core/apis/surface/route.ts';
import { translateBaseCall } from '../../../../core/apis/surface/translate.ts';
import type { ApiCatalog, ApiOperation } from '../../../../core/apis/types.ts';
import { sampleBaseArgs } from '../support/base-calls.ts';
import { tmdbCatalog, toolAlpacaCatalogs } from '../support/catalogs.ts';

const WINDOW = { deprecatedAt: '2026-01-01', sunsetAt: '2026-03-01' };
const alpaca = await toolAlpacaCatalogs();
const byName = (n: string) => (alpaca.find((a) => a.name === n) as { catalog: ApiCatalog }).catalog;
const APIS: { name: string; catalog: ApiCatalog; id: string }[] = [
  { name: 'TMDB', catalog: await tmdbCatalog(), id: 'tmdb' },
  { name: 'Apache Superset', catalog: byName('Apache Superset'), id: 'superset' },
];

type Check = (base: ApiSurface, drifted: ApiSurface, catalog: ApiCatalog) => void;

const primary = (s: ApiSurface, op: string) =>
  s.tools.find((t) => t.operation === op && t.lifecycle.status === 'active') as ApiTool;
const changed = (base: ApiSurface, drifted: ApiSurface, what: (a: ApiTool, b: ApiTool) => boolean) =>
  base.tools.filter((a) => what(a, primary(drifted, a.operation)));
const paramsOf = (t: ApiTool) => JSON.stringify(t.params);

const CHECKS: Record<ApiDriftKind, Check> = {
  'rename-operation'(base, drifted) {
    const renamed = changed(base, drifted, (a, b) => a.name !== b.name);
    expect(renamed.length).toBeGreaterThan(0);
    for (const a of renamed) {
      const b = primary(drifted, a.operation);
      expect([b.method, b.path, paramsOf(b)]).toEqual([a.method, a.path, paramsOf(a)]);
      const entry = drifted.retired.find((r) => r.name === a.name);
      expect(entry).toMatchObject({ successor: b.name, operation: a.operation });
      expect(entry?.message).toContain(`Use ${b.name}[`);
    }
  },
  'rename-path'(base, drifted) {
    const moved = changed(base, drifted, (a, b) => a.path !== b.path);
    expect(moved.length).toBeGreaterThan(0);
    const mapping = new Map<string, string>();
    for (const a of base.tools) {
      const b = primary(drifted, a.operation);
      const sa = (a.path as string).split('/');
      const sb = (b.path as string).split('/');
      expect(sb.length).toBe(sa.length);
      sa.forEach((seg, i) => {
        if (seg === sb[i]) return;
        expect(seg.includes('{')).toBe(false);
        expect(mapping.get(seg) ?? sb[i]).toBe(sb[i]);
        mapping.set(seg, sb[i] as string);
      });
    }
    // A renamed segment is renamed in every route that has it.
    for (const [from] of mapping) {
      expect(drifted.tools.some((t) => (t.path as string).split('/').includes(from))).toBe(false);
    }
    for (const a of moved)
      expect(drifted.retired.some((r) => r.method === a.method && r.path === a.path)).toBe(true);
  },
  'rename-params'(base, drifted) {
    const keyOf = new Map<string, Set<string>>();
    for (const a of base.tools) {
      for (const p of primary(drifted, a.operation).params) {
        if (p.kind === 'param') keyOf.set(p.base, (keyOf.get(p.base) ?? new Set()).add(p.name));
      }
    }
    const renamed = [...keyOf].filter(([b, keys]) => !keys.has(b));
    expect(renamed.length).toBeGreaterThan(0);
    // The same concept gets the same new name everywhere.
    for (const [, keys] of renamed) expect(keys.size).toBe(1);
    for (const t of drifted.tools) {
      if (t.path)
        expect(templateParams(t.path).sort()).toEqual(
          t.params
            .filter((p) => p.in === 'path')
            .map((p) => p.name)
            .sort(),
        );
    }
  },
  'merge-params'(base, drifted, catalog) {
    const merged = drifted.tools.flatMap((t) =>
      t.params.flatMap((p) => (p.kind === 'merged' ? [{ t, p }] : [])),
    );
    expect(merged.length).toBeGreaterThan(0);
    for (const { t, p } of merged) {
      expect(p.bases.length).toBeGreaterThanOrEqual(2);
      expect(['|', ';', '~']).toContain(p.separator);
      const args = sampleBaseArgs(
        catalog.operations.find((o) => o.name === t.operation) as ApiOperation,
        'merge',
        1,
      );
      const tr = translateBaseCall(drifted, catalog, t.operation, args);
      expect(tr.ok && tr.args[p.name]).toBe(p.bases.map((b) => String(args[b] ?? '')).join(p.separator));
    }
    expect(base.tools.some((t) => t.params.some((p) => p.kind === 'merged'))).toBe(false);
  },
  'split-params'(_base, drifted, catalog) {
    const parts = drifted.tools.flatMap((t) =>
      t.params.flatMap((p) => (p.kind === 'part' && p.index === 0 ? [{ t, p }] : [])),
    );
    expect(parts.length).toBeGreaterThan(0);
    for (const { t, p } of parts) {
      const op = catalog.operations.find((o) => o.name === t.operation) as ApiOperation;
      const args: Record<string, unknown> = { ...sampleBaseArgs(op, 'split', 0), [p.base]: 'Sofia Coppola' };
      const tr = translateBaseCall(drifted, catalog, t.operation, args);
      const rest = t.params.find((x) => x.kind === 'part' && x.base === p.base && x.index === 1);
      expect(tr.ok && [tr.args[p.name], tr.args[rest?.name as string]]).toEqual(['Sofia', 'Coppola']);
    }
  },
  'move-params'(base, drifted, catalog) {
    const moved = changed(base, drifted, (a, b) => a.params.some((p, i) => p.in !== b.params[i]?.in));
    expect(moved.length).toBeGreaterThan(0);
    for (const a of moved) {
      const b = primary(drifted, a.operation);
      for (const [i, p] of a.params.entries()) {
        const q = b.params[i];
        if (p.in !== q?.in) expect([p.in, q?.in].sort()).toEqual(['body', 'query']);
      }
      if (a.method === 'get') {
        expect(b.method).toBe('post');
        expect(b.params.filter((p) => p.in === 'query')).toEqual([]);
        const r = resolveApiCall(drifted, catalog, {
          via: 'http',
          method: 'GET',
          path: (a.path as string).replace(/\{[^}]+\}/g, '1'),
          query: {},
          headers: {},
          body: undefined,
        });
        expect(r).toMatchObject({ kind: 'rejected', status: 410 });
      }
    }
  },
  'retype-params'(base, drifted) {
    const retyped = drifted.tools.flatMap((t) =>
      t.params.flatMap((p) => (p.kind === 'param' && p.convert ? [{ t, p }] : [])),
    );
    expect(retyped.length).toBeGreaterThan(0);
    for (const { t, p } of retyped) {
      const before = base.tools
        .find((x) => x.operation === t.operation)
        ?.params.find((x) => x.kind === 'param' && x.base === (p as { base: string }).base);
      expect(JSON.stringify(p.schema)).not.toBe(JSON.stringify(before?.schema));
    }
  },
  'reshape-response'(base, drifted) {
    expect(drifted.response.keyCase ?? drifted.response.envelope).toBeDefined();
    expect(drifted.tools).toEqual(base.tools);
  },
  'version-prefix'(base, drifted) {
    const prefixes = new Set(
      base.tools.map((a) => {
        const b = primary(drifted, a.operation);
        expect((b.path as string).endsWith(a.path as string)).toBe(true);
        return (b.path as string).slice(0, (b.path as string).length - (a.path as string).length);
      }),
    );
    expect(prefixes.size).toBe(1);
    expect([...prefixes][0]).toMatch(/^(\/api)?\/v[0-9]+$/);
    expect(drifted.retired.filter((r) => r.path !== undefined)).toHaveLength(base.tools.length);
  },
  pagination(base, drifted, catalog) {
    const paged = drifted.tools.filter((t) => t.pagination);
    expect(paged.length).toBeGreaterThan(0);
    for (const t of paged) {
      const own = catalog.operations.find((o) => o.name === t.operation)?.pagination;
      expect(t.pagination?.style).not.toBe(own?.style);
      const keys = Object.keys(apiArgumentsSchema(t).properties as object);
      for (const p of pageParams(t.pagination as NonNullable<ApiTool['pagination']>))
        expect(keys).toContain(p.name);
      const before = base.tools.find((x) => x.operation === t.operation) as ApiTool;
      expect(t.params.length).toBeLessThan(before.params.length);
    }
  },
  'deprecate-operation'(base, drifted, catalog) {
    const pairs = base.tools.filter(
      (a) => drifted.tools.filter((t) => t.operation === a.operation).length === 2,
    );
    expect(pairs.length).toBeGreaterThan(0);
    for (const a of pairs) {
      const old = drifted.tools.find(
        (t) => t.operation === a.operation && t.lifecycle.status === 'deprecated',
      ) as ApiTool;
      const next = primary(drifted, a.operation);
      expect(old).toEqual({ ...a, lifecycle: { status: 'deprecated', successor: next.name, ...WINDOW } });
      expect(next.name).not.toBe(a.name);
      expect(`${next.method} ${next.path}`).not.toBe(`${a.method} ${a.path}`);
      const args = sampleBaseArgs(
        catalog.operations.find((o) => o.name === a.operation) as ApiOperation,
        'deprecate',
        0,
      );
      const during = resolveApiCall(
        drifted,
        catalog,
        { via: 'name', name: a.name, args },
        { now: new Date('2026-02-01') },
      );
      expect(during).toMatchObject({
        kind: 'call',
        deprecation: { status: 'deprecated', successor: next.name, sunsetAt: WINDOW.sunsetAt },
      });
      const after = resolveApiCall(
        drifted,
        catalog,
        { via: 'name', name: a.name, args },
        { now: new Date('2026-03-02') },
      );
      expect(after).toMatchObject({ kind: 'rejected', status: 410 });
      if (after.kind === 'rejected')
        expect(after.message).toContain(`was removed on 2026-03-01. Use ${next.name}[`);
    }
  },
};

describe.each(APIS)('every kind on $name', ({ catalog, id }) => {
  const base = baseApiSurface(id, catalog);
  it.each(API_DRIFT_KINDS.filter((k) => !(id === 'superset' && k === 'pagination')))(
    '%s changes what it says',
    (kind) => {
      for (const seed of ['1', '2', '3']) {
        const drifted = generateApiSurface(base, catalog, { seed, kinds: [kind], window: WINDOW });
        expect(drifted.drift).toEqual({ seed, kinds: [kind] });
        CHECKS[kind](base, drifted, catalog);
      }
    },
  );
});

describe('paging on a document with writes', () => {
  it("pagination restyles AbuseIPDB's paged search and leaves Apache Superset (no paging) as it is", () => {
    const abuse = byName('AbuseIPDB');
    expect(abuse.operations.some((o) => o.method === 'post')).toBe(true);
    const base = baseApiSurface('abuse', abuse);
    CHECKS.pagination(base, generateApiSurface(base, abuse, { seed: '1', kinds: ['pagination'] }), abuse);
    const superset = byName('Apache Superset');
    const sb = baseApiSurface('superset', superset);
    const same = generateApiSurface(sb, superset, { seed: '1', kinds: ['pagination'] });
    expect([same.tools, same.retired, same.response]).toEqual([sb.tools, [], {}]);
  });
});
