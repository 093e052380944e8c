/**
 * A mock world: one imported API, a seed and a size, with what the mock derives from them — the resource model
 * (`resources.ts`) and the value pools (`pools.ts`), both lazily. Nothing is generated up front: an entity is a
 * pure function of (seed, resource, key), computed when a response needs it, so a world of 10,000 or 10 million
 * entities per resource costs the same to start.
 *
 * Keys: an entity's key is a string (`4476`, a sub-resource's `1399/2`). Each resource keeps its ids in one format,
 * read from its key parameter's schema and the document's example ids: integers 1…size (sub-resources 1…30),
 * digit strings, hex strings of the examples' length, UUIDs, the values of an enum, or `<noun>-<n>` slugs. The
 * format is invertible, so a key a client sends parses back to its number and one outside the world is a 404 —
 * except for slugs, the format of keys the document shows nothing of: there any key names an entity. Keys created by
 * a session's writes are numbered after the world's.
 */
import { hash128 } from '../../util/random.ts';
import type { ApiCatalog, ApiOperation, JsonSchema } from '../types.ts';
import { hashInt, ValuePools } from './pools.ts';
import { inferResources, type Resource, type ResourceModel, typeObject } from './resources.ts';
import { propertiesOf, successResponse, typesOf } from './schema-walk.ts';
import { isCreated, isDeleted, type MockOverlay } from './state.ts';
import { normalKey } from './words.ts';

/** Entities per resource when the import does not say (issue 22: "a world of 10,000 entities per resource"). */
export const DEFAULT_WORLD_SIZE = 10_000;
/** Sub-resources (a show's seasons) number fewer. */
export const SUB_RESOURCE_SIZE = 30;

export type KeyFormat =
  /** A key from a fixed list (`/trending/{media_type}`): every listed value exists. */
  | { kind: 'enum'; values: string[] }
  | { kind: 'integer' }
  | { kind: 'digits' }
  | { kind: 'hex'; length: number }
  | { kind: 'uuid' }
  | { kind: 'slug'; prefix: string };

export class MockWorld {
  readonly opsByName: Map<string, ApiOperation>;
  readonly pools: ValuePools;
  private modelCache: ResourceModel | null = null;
  private readonly formats = new Map<string, KeyFormat>();
  private readonly canonicalOps = new Map<string, ApiOperation | undefined>();
  private keyOwners: Map<string, Resource> | null = null;

  constructor(
    readonly apiId: string,
    readonly catalog: ApiCatalog,
    readonly seed: string,
    readonly size: number = DEFAULT_WORLD_SIZE,
  ) {
    this.opsByName = new Map(catalog.operations.map((op) => [op.name, op]));
    this.pools = new ValuePools(
      `${apiId}/${seed}`,
      catalog.operations,
      (schema, name) => typeObject(this.model, schema, name)?.name ?? null,
    );
  }

  get model(): ResourceModel {
    this.modelCache ??= inferResources(this.catalog);
    return this.modelCache;
  }

  operation(name: string): ApiOperation | undefined {
    return this.opsByName.get(name);
  }

  resource(name: string): Resource | undefined {
    return this.model.resources.get(name);
  }

  /** A label hashed with the world's seed into an unsigned 32-bit integer. */
  hash(label: string): number {
    return hashInt(`${this.apiId}/${this.seed}/${label}`);
  }

  sizeOf(resource: Resource): number {
    return resource.name.includes('.') ? SUB_RESOURCE_SIZE : this.size;
  }

  /** The operation whose success schema is the resource's canonical one (its keyed read). */
  canonicalOp(resource: Resource): ApiOperation | undefined {
    if (!this.canonicalOps.has(resource.name)) {
      let found: ApiOperation | undefined;
      for (const [name, role] of this.model.roles) {
        if (role.kind === 'read' && role.key && role.resource === resource.name) {
          found = this.operation(name);
          break;
        }
      }
      this.canonicalOps.set(resource.name, found);
    }
    return this.canonicalOps.get(resource.name);
  }

  /** The resource whose key a property names (`credit_id` → credit, `companyId` → company), if any. */
  keyOwner(property: string): Resource | undefined {
    if (!this.keyOwners) {
      this.keyOwners = new Map();
      for (const r of this.model.resources.values()) {
        if (!r.keyParam || this.keyFormat(r).kind === 'enum') continue;
        this.keyOwners.set(normalKey(r.keyParam), r);
        this.keyOwners.set(normalKey(`${r.noun}_id`), r);
      }
    }
    return property === 'id' ? undefined : this.keyOwners.get(normalKey(property));
  }

  keyFormat(resource: Resource): KeyFormat {
    let format = this.formats.get(resource.name);
    if (!format) {
      format = detectFormat(this, resource);
      this.formats.set(resource.name, format);
    }
    return format;
  }

  /** The key of the resource's n-th entity in its format (n ≥ 1). */
  formatKey(resource: Resource, n: number): string {
    const f = this.keyFormat(resource);
    switch (f.kind) {
      case 'enum':
        return f.values[(n - 1) % f.values.length] as string;
      case 'integer':
      case 'digits':
        return String(n);
      case 'slug':
        return `${f.prefix}-${n}`;
      case 'hex': {
        const tail = n.toString(16).padStart(8, '0');
        return (hexOf(`${this.apiId}/${this.seed}/${resource.name}/${n}`) + tail).slice(-f.length);
      }
      case 'uuid': {
        const h =
          hexOf(`${this.apiId}/${this.seed}/${resource.name}/${n}`) + n.toString(16).padStart(12, '0');
        const x = h.slice(-32);
        return `${x.slice(0, 8)}-${x.slice(8, 12)}-4${x.slice(13, 16)}-a${x.slice(17, 20)}-${x.slice(20, 32)}`;
      }
    }
  }

  /** The number behind a key in the resource's format, or null when the key is not of that format. */
  parseKey(resource: Resource, key: string): number | null {
    const f = this.keyFormat(resource);
    if (f.kind === 'enum') {
      const at = f.values.indexOf(key);
      return at < 0 ? null : at + 1;
    }
    let n: number | null = null;
    if (f.kind === 'integer' || f.kind === 'digits') n = /^\d{1,12}$/.test(key) ? Number(key) : null;
    else if (f.kind === 'slug') {
      const m = new RegExp(`^${f.prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d{1,12})$`).exec(key);
      n = m ? Number(m[1]) : null;
    } else if (f.kind === 'hex')
      n = /^[0-9a-f]+$/i.test(key) && key.length === f.length ? Number.parseInt(key.slice(-8), 16) : null;
    else n = /^[0-9a-f-]{36}$/i.test(key) ? Number.parseInt(key.replaceAll('-', '').slice(-12), 16) : null;
    if (n === null || !Number.isFinite(n)) return null;
    return this.formatKey(resource, n) === (f.kind === 'hex' || f.kind === 'uuid' ? key.toLowerCase() : key)
      ? n
      : null;
  }

  /**
   * Whether an entity exists for this session: created by it, or in the world's range — and not deleted by it.
   * A composite key (`1399/2`) checks its own last part; its parents are checked by the caller.
   */
  exists(resource: Resource, key: string, overlay: MockOverlay): boolean {
    if (isDeleted(overlay, resource.name, key)) return false;
    if (isCreated(overlay, resource.name, key)) return true;
    const own = key.split('/').pop() as string;
    // Without examples to read a format from, any key names an entity (the caller may have it from elsewhere).
    if (this.keyFormat(resource).kind === 'slug') return own !== '';
    const n = this.parseKey(resource, own);
    if (n === null) return false;
    return this.keyFormat(resource).kind === 'enum' || (n >= 1 && n <= this.sizeOf(resource));
  }

  /** The key of a linked entity: the n-th, n derived from `salt` (1 … size, or one of an enum's values). */
  linkedKey(resource: Resource, salt: string): string {
    const f = this.keyFormat(resource);
    const size = f.kind === 'enum' ? f.values.length : this.sizeOf(resource);
    return this.formatKey(resource, 1 + (this.hash(`key/${resource.name}/${salt}`) % size));
  }
}

function hexOf(label: string): string {
  return hash128(label)
    .map((w) => w.toString(16).padStart(8, '0'))
    .join('')
    .repeat(2);
}

function examplesOf(schema: JsonSchema | undefined): unknown[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as { examples?: unknown; example?: unknown };
  return Array.isArray(s.examples) ? s.examples : s.example !== undefined ? [s.example] : [];
}

function detectFormat(world: MockWorld, resource: Resource): KeyFormat {
  const op = world.canonicalOp(resource);
  const status = op ? successResponse(op)?.status : undefined;
  const idProp = resource.canonical ? propertiesOf(resource.canonical).id : undefined;
  const keySchema = resource.keySchema ?? idProp;
  const types = typesOf(keySchema);
  const listed = typeof keySchema === 'object' && Array.isArray((keySchema as { enum?: unknown }).enum);
  if (listed) return { kind: 'enum', values: (keySchema as { enum: unknown[] }).enum.map(String) };
  if (types.includes('integer') || types.includes('number')) return { kind: 'integer' };
  const samples = [
    ...examplesOf(keySchema),
    ...(op && status && idProp ? world.pools.pool(op, `/${status}/id`, 'id', idProp) : []),
  ].filter((v): v is string => typeof v === 'string' && v !== '');
  const s = typeof keySchema === 'object' ? (keySchema as { format?: string }) : {};
  if (
    s.format === 'uuid' ||
    (samples.length > 0 && samples.every((v) => /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(v)))
  ) {
    return { kind: 'uuid' };
  }
  if (samples.length > 0 && samples.every((v) => /^\d+$/.test(v))) return { kind: 'digits' };
  const hexLength = samples[0]?.length ?? 0;
  if (
    samples.length > 0 &&
    hexLength >= 8 &&
    samples.every((v) => /^[0-9a-f]+$/i.test(v) && v.length === hexLength)
  ) {
    return { kind: 'hex', length: hexLength };
  }
  return { kind: 'slug', prefix: resource.noun.replaceAll('_', '-') || 'item' };
}
