/**
 * Where the mock's leaf values come from: for each place in a response schema, a *pool* of values that are valid
 * there, picked from by a seeded hash (so a value is a pure function of the world seed and what it describes).
 *
 * A pool holds, in this order of preference:
 * 1. the document's own examples at that place (the response examples walked together with the schema —
 *    TMDB's full response examples give real titles, names, jobs and dates);
 * 2. failing those, the document's examples of a property of the same name elsewhere in the API;
 * 3. failing those, values that `json-schema-faker` generates from the leaf schema with fixed seeds (it honours
 *    formats, patterns, enums and bounds; given a `minimum` of 0 where the schema sets none, so counts and ids
 *    come out non-negative while still valid against the schema).
 * Every candidate is validated against the leaf schema before it enters a pool, so whatever the mock picks is
 * schema-valid. Pools are built on first use and cached with the world: a world of any size costs nothing up
 * front.
 */
import { generateSync } from 'json-schema-faker';
import { hash128 } from '../../util/random.ts';
import type { ApiOperation, JsonSchema } from '../types.ts';
import { validateJson } from '../validate.ts';
import {
  alternatives,
  asObject,
  childPointer,
  flattenAllOf,
  itemsOf,
  propertiesOf,
  typesOf,
} from './schema-walk.ts';

/** How many values json-schema-faker contributes to a pool without examples. */
const GENERATED = 8;
/** The most example values a pool keeps. */
const MAX_EXAMPLES = 200;

/** A seeded hash of a label as an unsigned 32-bit integer. */
export function hashInt(label: string): number {
  return hash128(label)[0] as number;
}

/** A seeded hash in [0, 1). */
export function hashUnit(label: string): number {
  return (hash128(label)[1] as number) / 4294967296;
}

function isLeaf(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

/** Walks an example value, recording leaf values by pointer (array items as `*`: `/200/results/*` + `/title`). */
function indexExample(
  value: unknown,
  pointer: string,
  out: Map<string, unknown[]>,
  byName: Map<string, unknown[]>,
  name: string | null,
  counts?: Map<string, Map<string, number>>,
) {
  if (Array.isArray(value)) {
    for (const item of value.slice(0, 50)) {
      indexExample(item, childPointer(pointer, 0), out, byName, name, counts);
    }
    // An array of leaves is also a value of its own (genre_ids: [12, 18]).
    if (value.every(isLeaf)) add(out, `${pointer}#array`, value);
    add(out, `${pointer}#length`, value.length);
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value))
      indexExample(v, childPointer(pointer, k), out, byName, k, counts);
    return;
  }
  add(out, pointer, value);
  if (name !== null) {
    add(byName, name, value);
    if (counts && typeof value === 'string') {
      let forName = counts.get(name);
      if (!forName) {
        forName = new Map();
        counts.set(name, forName);
      }
      forName.set(value, (forName.get(value) ?? 0) + 1);
    }
  }
}

const seenValues = new WeakMap<unknown[], Set<string>>();

function add(map: Map<string, unknown[]>, key: string, value: unknown) {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
    seenValues.set(list, new Set());
  }
  const seen = seenValues.get(list) as Set<string>;
  const text = JSON.stringify(value);
  if (list.length < MAX_EXAMPLES && !seen.has(text)) {
    seen.add(text);
    list.push(value);
  }
}

/** Keywords that only annotate: a schema made of `type` and these is checked without the validator. */
const ANNOTATIONS = new Set([
  'type',
  'description',
  'title',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
]);

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return false;
  }
}

/** A fast answer for schemas that only constrain the type (most leaves), else undefined. */
function quickValid(schema: JsonSchema, value: unknown): boolean | undefined {
  if (schema === true) return true;
  if (schema === false) return false;
  for (const k of Object.keys(schema)) if (!ANNOTATIONS.has(k)) return undefined;
  const t = (schema as { type?: unknown }).type;
  if (t === undefined) return true;
  if (typeof t === 'string') return typeMatches(t, value);
  if (Array.isArray(t)) return t.some((x) => typeMatches(String(x), value));
  return undefined;
}

/** A leaf schema nudged towards realistic generated values, still within the original schema. */
function hinted(schema: JsonSchema): JsonSchema {
  const s = flattenAllOf(schema);
  const types = typesOf(s);
  const out: Record<string, unknown> = { ...s };
  delete out.examples;
  delete out.example;
  if (
    (types.includes('integer') || types.includes('number')) &&
    s.minimum === undefined &&
    s.exclusiveMinimum === undefined
  ) {
    if (s.maximum === undefined || (typeof s.maximum === 'number' && s.maximum >= 0)) out.minimum = 0;
    if (s.maximum === undefined && s.exclusiveMaximum === undefined)
      out.maximum = types.includes('integer') ? 10_000 : 1000;
  }
  if (types.length > 1 && types.includes('null')) out.type = types.filter((t) => t !== 'null');
  return out;
}

/** Says which resource an object schema stands for (the world's `typeObject`), for resource-wide pools. */
export type ObjectTyper = (schema: JsonSchema, name: string | null) => string | null;

export class ValuePools {
  private readonly byOp = new Map<string, Map<string, unknown[]>>();
  private byName: Map<string, unknown[]> | null = null;
  private readonly ranks = new Map<string, unknown[] | null>();
  /** How often each string value of a property name occurs in the document's examples. */
  private readonly counts = new Map<string, Map<string, number>>();
  private byResource: Map<string, Map<string, unknown[]>> | null = null;
  private readonly pools = new Map<string, unknown[]>();

  constructor(
    private readonly seed: string,
    private readonly operations: readonly ApiOperation[],
    private readonly typer: ObjectTyper,
  ) {}

  /**
   * The pool of one property of a resource's entities: every example value the document gives for that property
   * in any object standing for the resource (a movie's `title` in search results, lists, credits and the movie
   * itself), so entities draw from all of them; falls back to `fallback` (the canonical place's pool).
   */
  resourcePool(resource: string, prop: string, schema: JsonSchema, fallback: () => unknown[]): unknown[] {
    const key = `\u0001${resource}\u0000${prop}`;
    let pool = this.pools.get(key);
    if (pool) return pool;
    const values = this.resourceExamples().get(resource)?.get(prop) ?? [];
    pool = values.filter((v) => this.valid(schema, v));
    if (pool.length === 0) pool = fallback();
    this.pools.set(key, pool);
    return pool;
  }

  private resourceExamples(): Map<string, Map<string, unknown[]>> {
    if (this.byResource) return this.byResource;
    const out = new Map<string, Map<string, unknown[]>>();
    const visit = (schema: JsonSchema | undefined, value: unknown, name: string | null, depth: number) => {
      if (schema === undefined || depth > 12 || value === null || typeof value !== 'object') return;
      if (Array.isArray(value)) {
        const items = itemsOf(schema);
        for (const v of value.slice(0, 50)) visit(items, v, name, depth + 1);
        return;
      }
      const alts = alternatives(schema);
      const s =
        alts.length === 1 ? alts[0] : alts.find((a) => Object.keys(value).every((k) => k in propertiesOf(a)));
      const props = propertiesOf(s);
      const resource = this.typer(s ?? {}, name);
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (resource && isLeaf(v)) {
          let forResource = out.get(resource);
          if (!forResource) {
            forResource = new Map();
            out.set(resource, forResource);
          }
          add(forResource, k, v);
        }
        visit(props[k], v, k, depth + 1);
      }
    };
    for (const op of this.operations) {
      for (const r of op.responses) if (r.example !== undefined) visit(r.schema, r.example, null, 0);
    }
    this.byResource = out;
    return out;
  }

  private examplesOf(op: ApiOperation): Map<string, unknown[]> {
    let index = this.byOp.get(op.name);
    if (!index) {
      index = new Map();
      const names = new Map<string, unknown[]>();
      for (const r of op.responses) {
        if (r.example !== undefined) indexExample(r.example, `/${r.status}`, index, names, null);
      }
      this.byOp.set(op.name, index);
    }
    return index;
  }

  private examplesByName(): Map<string, unknown[]> {
    if (!this.byName) {
      const byName = new Map<string, unknown[]>();
      const scratch = new Map<string, unknown[]>();
      for (const op of this.operations) {
        for (const r of op.responses)
          if (r.example !== undefined) indexExample(r.example, '', scratch, byName, null, this.counts);
        for (const p of op.params)
          if (p.example !== undefined && isLeaf(p.example)) add(byName, p.name, p.example);
      }
      this.byName = byName;
    }
    return this.byName;
  }

  /**
   * The pool for one place: `op` and `pointer` (`/200/results/*` + `/title`, the response status first) say where,
   * `name` is the property's name (for examples found elsewhere), `schema` the leaf schema. `arrayOfLeaves`: the
   * place is an array of leaves taken whole from the examples (its pool holds arrays).
   */
  pool(
    op: ApiOperation,
    pointer: string,
    name: string | null,
    schema: JsonSchema,
    arrayOfLeaves = false,
  ): unknown[] {
    const key = `${op.name}\u0000${pointer}${arrayOfLeaves ? '#array' : ''}`;
    let pool = this.pools.get(key);
    if (pool) return pool;
    const valid = (v: unknown) => this.valid(schema, v);
    const local = this.examplesOf(op).get(arrayOfLeaves ? `${pointer}#array` : pointer) ?? [];
    pool = local.filter(valid);
    if (pool.length === 0 && name !== null && !arrayOfLeaves)
      pool = (this.examplesByName().get(name) ?? []).filter(valid);
    if (pool.length === 0 && !arrayOfLeaves)
      pool = this.generated(`${op.name}${pointer}`, schema).filter(valid);
    this.pools.set(key, pool);
    return pool;
  }

  /**
   * The values of a *categorical* property — one whose string values repeat across the document's examples
   * (`job`, `department`, `status`) — most frequent first, valid against `schema`; null for any other property
   * (titles, names, ids: mostly unique).
   */
  categorical(name: string, schema: JsonSchema): unknown[] | null {
    const key = `${name}\u0000${JSON.stringify(schema)}`;
    if (this.ranks.has(key)) return this.ranks.get(key) ?? null;
    this.examplesByName();
    const counts = this.counts.get(name);
    let ranked: unknown[] | null = null;
    if (counts && counts.size >= 2 && [...counts.values()].some((n) => n >= 2)) {
      const repeats = [...counts.values()].filter((n) => n >= 2).length;
      // Mostly unique values (titles that happen to repeat once) are not categories.
      if (repeats * 4 >= counts.size) {
        ranked = [...counts.entries()]
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .map(([v]) => v)
          .filter((v) => this.valid(schema, v));
        if (ranked.length < 2) ranked = null;
      }
    }
    this.ranks.set(key, ranked);
    return ranked;
  }

  /** The median length of the document's example arrays at this place, if it has any. */
  arrayLength(op: ApiOperation, pointer: string): number | undefined {
    const lengths = (this.examplesOf(op).get(`${pointer}#length`) ?? []) as number[];
    if (lengths.length === 0) return undefined;
    return [...lengths].sort((a, b) => a - b)[Math.floor(lengths.length / 2)];
  }

  /** Whether a value is valid against a schema (validators cached per schema). */
  valid(schema: JsonSchema, value: unknown): boolean {
    return quickValid(schema, value) ?? validateJson(schema, value).valid;
  }

  private generated(place: string, schema: JsonSchema): unknown[] {
    const s = asObject(schema);
    if (Array.isArray(s.enum)) return s.enum;
    if ('const' in s) return [s.const];
    const h = hinted(schema);
    const out: unknown[] = [];
    for (let i = 0; i < GENERATED; i++) {
      try {
        out.push(generateSync(h as never, { seed: hashInt(`${this.seed}/${place}/${i}`) }));
      } catch {
        // A schema json-schema-faker cannot satisfy leaves the pool short; the caller falls back.
      }
    }
    return out;
  }
}

/** Picks from a pool by a seeded label; undefined for an empty pool. */
export function pick<T>(pool: readonly T[], label: string): T | undefined {
  return pool.length === 0 ? undefined : pool[hashInt(label) % pool.length];
}
