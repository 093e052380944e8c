/**
 * Shapes a response body from its schema (the *produce* stage of the mock pipeline): a walk over the schema that
 * links entities and takes every leaf from a value pool. Written here because the linking is the point — a
 * schema faker fills one schema at a time and knows nothing of the entity a value belongs to — while the leaf
 * values themselves come from the document's examples or from json-schema-faker (`pools.ts`).
 *
 * Per schema node:
 * - `oneOf` / `anyOf`: one alternative, chosen by the seeded hash of what is being described; `allOf`: merged;
 *   `enum` / `const`: one of their values.
 * - object: if it stands for an entity (the caller binds the top level of a read; nested objects are typed by
 *   `typeObject`), its id property gets the entity's key, a property the session's writes set (`MockOverlay`
 *   facts) gets that value, and a property of the resource's canonical schema gets the entity's value — drawn
 *   from the canonical place's pool with a label naming (resource, key, property), so the same movie has the same
 *   title wherever it appears. Every other property is drawn with a label naming the enclosing entity and the
 *   path. Every declared property is filled (optional ones too: documents like TMDB's mark none required).
 * - array: as many items as the document's examples have there (median, at least 1, at most 10, within
 *   `minItems`/`maxItems`), else 3; an array of plain values may be taken whole from the examples. The records of
 *   a list spread their *categorical* properties (string values that repeat across the document's examples, such
 *   as a credit's `job`) over the property's most common values, one each: a person's crew credits list several
 *   jobs — directing among them, as TMDB's examples rank it — rather than the same one ten times.
 * - anything else: a pool value, else the simplest valid value of its type.
 */
import type { ApiOperation, JsonSchema } from '../types.ts';
import { hashInt, pick } from './pools.ts';
import { type Resource, typeObject } from './resources.ts';
import { alternatives, childPointer, flattenAllOf, itemsOf, propertiesOf, typesOf } from './schema-walk.ts';
import { factsOf, type MockOverlay } from './state.ts';
import { normalKey, words } from './words.ts';
import type { MockWorld } from './world.ts';

/** The place of a record in a list it is one of (its categorical properties are spread over the list). */
interface Slot {
  index: number;
  count: number;
  salt: string;
}

/** An object bound to one entity. */
export interface Binding {
  resource: Resource;
  key: string;
}

export interface ProduceContext {
  world: MockWorld;
  op: ApiOperation;
  overlay: MockOverlay;
}

const MAX_DEPTH = 8;

/** The value of a key in a property's type (`"4476"` → 4476 for an integer id). */
export function keyValue(key: string, schema: JsonSchema | undefined): unknown {
  const own = key.split('/').pop() as string;
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && /^\d+$/.test(own)) return Number(own);
  return own;
}

/** Whether a property holds the entity's own key (`id`, `person_id`, `roleId`, or the key parameter's name). */
export function isKeyProperty(resource: Resource, property: string): boolean {
  if (property === 'id') return true;
  const k = normalKey(property);
  return (
    k === `${normalKey(resource.noun)}id` ||
    (resource.keyParam !== undefined && k === normalKey(resource.keyParam))
  );
}

/** Words too common to link a written field to a read one. */
const GENERIC_WORDS = new Set([
  'data',
  'info',
  'id',
  'ids',
  'value',
  'details',
  'detail',
  'new',
  'item',
  'object',
]);

/**
 * A fact of the entity for this property: the same name ignoring case and separators, else a written field that
 * shares a meaningful word with it (`profileData` written, `userProfile` read) — what RPC-style APIs need for a
 * later read to see a write.
 */
function factFor(facts: Record<string, unknown> | undefined, property: string): { value: unknown } | null {
  if (!facts) return null;
  if (Object.hasOwn(facts, property)) return { value: facts[property] };
  const k = normalKey(property);
  for (const [name, value] of Object.entries(facts)) if (normalKey(name) === k) return { value };
  const mine = new Set(words(property).filter((w) => !GENERIC_WORDS.has(w)));
  for (const [name, value] of Object.entries(facts)) {
    if (words(name).some((w) => mine.has(w) && !GENERIC_WORDS.has(w))) return { value };
  }
  return null;
}

function fits(ctx: ProduceContext, schema: JsonSchema, value: unknown): boolean {
  return ctx.world.pools.valid(schema, value);
}

function simplest(schema: JsonSchema): unknown {
  const s = flattenAllOf(schema);
  const t = typesOf(s).find((x) => x !== 'null') ?? typesOf(s)[0];
  switch (t) {
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'x'.repeat(typeof s.minLength === 'number' ? s.minLength : 0);
  }
}

export class Producer {
  private readonly others = new Map<string, Producer>();

  constructor(private readonly ctx: ProduceContext) {}

  /** A producer for another operation's places (a canonical property's pool), sharing this one's context. */
  private forOperation(op: ApiOperation): Producer {
    let p = this.others.get(op.name);
    if (!p) {
      const parent = this.ctx;
      // The overlay is read through the parent's context: a write earlier in the same call is seen.
      p = new Producer({
        world: parent.world,
        op,
        get overlay() {
          return parent.overlay;
        },
      });
      this.others.set(op.name, p);
    }
    return p;
  }

  private get world(): MockWorld {
    return this.ctx.world;
  }

  /**
   * A body for `schema` at `pointer` (`/200`, the response's status first), the top level bound to `binding` when
   * given; `salt` says what the body is about (the operation and its arguments), so unbound parts differ per call.
   */
  body(schema: JsonSchema, pointer: string, binding: Binding | null, salt: string): unknown {
    return this.value(schema, pointer, null, binding, null, salt, 0);
  }

  /** One entity of a list, bound to its key, shaped by the item schema. */
  item(schema: JsonSchema, pointer: string, binding: Binding, salt: string): unknown {
    return this.value(schema, pointer, null, binding, null, salt, 0);
  }

  private choose(schema: JsonSchema, salt: string): Record<string, unknown> {
    const alts = alternatives(schema);
    const alt = alts.length > 1 ? (alts[hashInt(`${salt}/alt`) % alts.length] as JsonSchema) : alts[0];
    return flattenAllOf(alt);
  }

  private value(
    schema: JsonSchema,
    pointer: string,
    name: string | null,
    binding: Binding | null,
    parent: Binding | null,
    salt: string,
    depth: number,
    slot?: Slot,
  ): unknown {
    if (schema === true || schema === undefined) return this.leaf({}, pointer, name, salt);
    const s = this.choose(schema, salt);
    const alternativesDiffer =
      s !== schema && !(typeof schema === 'object' && schema.allOf && !schema.oneOf && !schema.anyOf);
    if (Array.isArray(s.enum) && s.enum.length > 0) {
      const values = s.enum.filter((v) => v !== null);
      return pick(values.length > 0 ? values : s.enum, `${this.world.seed}/${salt}`);
    }
    if ('const' in s) return s.const;
    const types = typesOf(s);
    const type = types.find((t) => t !== 'null') ?? types[0];
    if (type === 'object' || (type === undefined && s.properties)) {
      if (depth >= MAX_DEPTH) return {};
      return this.object(s, pointer, name, binding, parent, salt, depth, slot);
    }
    if (type === 'array') {
      if (depth >= MAX_DEPTH) return [];
      return this.array(s, pointer, name, binding ?? parent, salt, depth);
    }
    // A leaf under oneOf/anyOf draws from the pool of the whole schema: `oneOf: [integer, number]` takes only
    // values that match exactly one alternative.
    return this.leaf(alternativesDiffer ? schema : s, pointer, name, salt);
  }

  private object(
    s: Record<string, unknown>,
    pointer: string,
    name: string | null,
    bound: Binding | null,
    parent: Binding | null,
    salt: string,
    depth: number,
    slot?: Slot,
  ): Record<string, unknown> {
    let binding = bound;
    if (!binding) {
      const resource = typeObject(this.world.model, s, name);
      if (resource) binding = { resource, key: this.nestedKey(resource, parent, salt) };
    }
    const props = propertiesOf(s);
    const out: Record<string, unknown> = {};
    const facts = binding ? factsOf(this.ctx.overlay, binding.resource.name, binding.key) : undefined;
    const canonical = binding?.resource.canonical ? propertiesOf(binding.resource.canonical) : {};
    const own = binding ? `${binding.resource.name}:${binding.key}` : salt;
    for (const [prop, ps] of Object.entries(props)) {
      const at = childPointer(pointer, prop);
      if (binding && isKeyProperty(binding.resource, prop)) {
        const v = keyValue(binding.key, ps);
        if (fits(this.ctx, ps, v)) {
          out[prop] = v;
          continue;
        }
      }
      if (!binding && prop === 'id' && typesOf(ps).includes('integer')) {
        // An id of an object of no known resource still names an entity the world has (1 … size).
        out[prop] = 1 + (this.world.hash(`id/${own}`) % this.world.size);
        continue;
      }
      const linked = this.linkedId(prop, ps, binding, own);
      if (linked !== undefined) {
        out[prop] = linked;
        continue;
      }
      const fact = factFor(facts, prop);
      if (fact && fits(this.ctx, ps, fact.value)) {
        out[prop] = fact.value;
        continue;
      }
      if (binding && canonical[prop] !== undefined) {
        const v = this.canonicalValue(binding, prop, canonical[prop] as JsonSchema, ps, depth);
        if (v !== undefined) {
          out[prop] = v;
          continue;
        }
      }
      const ranked = slot && typesOf(ps).includes('string') ? this.world.pools.categorical(prop, ps) : null;
      if (slot && ranked) {
        // A list's records cover the property's most common values, one each (a crew lists several jobs).
        const k = Math.min(slot.count, ranked.length);
        out[prop] = ranked[(slot.index + hashInt(`${slot.salt}/${prop}`)) % k];
        continue;
      }
      out[prop] = this.value(ps, at, prop, null, binding ?? parent, `${own}/${prop}`, depth + 1);
    }
    return out;
  }

  /**
   * The key of another resource's entity, for a property named after that resource's key (`credit_id` in a cast
   * entry, `network_id`): ids link across operations, so what an answer shows can be asked for.
   */
  private linkedId(prop: string, schema: JsonSchema, binding: Binding | null, salt: string): unknown {
    const target = this.world.keyOwner(prop);
    if (!target || target === binding?.resource || target.name.includes('.')) return undefined;
    const v = keyValue(this.world.linkedKey(target, `${salt}/${prop}`), schema);
    return fits(this.ctx, schema, v) ? v : undefined;
  }

  /** The entity's own value of a canonical property, if it also fits this place's schema. */
  private canonicalValue(
    binding: Binding,
    prop: string,
    canonical: JsonSchema,
    here: JsonSchema,
    depth: number,
  ): unknown {
    const op = this.world.canonicalOp(binding.resource);
    if (!op) return undefined;
    const status = op.responses.find((r) => r.schema === binding.resource.canonical)?.status ?? '200';
    const producer = op === this.ctx.op ? this : this.forOperation(op);
    const pointer = `/${status}/${prop}`;
    const label = `${binding.resource.name}:${binding.key}/${prop}`;
    const types = typesOf(flattenAllOf(alternatives(canonical)[0]));
    let v: unknown;
    if (types.includes('object') || types.includes('array')) {
      v = producer.value(canonical, pointer, prop, null, binding, label, depth + 1);
    } else {
      // A plain property draws from every example of it on the resource's entities anywhere in the document.
      const pool = this.world.pools.resourcePool(binding.resource.name, prop, canonical, () =>
        this.world.pools.pool(op, pointer, prop, canonical),
      );
      v = pick(pool, `${this.world.seed}/${label}`);
    }
    return v !== undefined && fits(this.ctx, here, v) ? v : undefined;
  }

  private nestedKey(resource: Resource, parent: Binding | null, salt: string): string {
    const parentName = resource.name.includes('.')
      ? resource.name.slice(0, resource.name.lastIndexOf('.'))
      : null;
    const own = this.world.linkedKey(resource, salt);
    if (parentName === null) return own;
    const parentKey =
      parent && parent.resource.name === parentName
        ? parent.key
        : (() => {
            const p = this.world.resource(parentName);
            return p ? this.world.linkedKey(p, `${salt}/parent`) : '1';
          })();
    return `${parentKey}/${own}`;
  }

  private array(
    s: Record<string, unknown>,
    pointer: string,
    name: string | null,
    parent: Binding | null,
    salt: string,
    depth: number,
  ): unknown[] {
    const items = itemsOf(s) ?? {};
    const itemTypes = typesOf(alternatives(items)[0]);
    const leafItems = !itemTypes.includes('object') && !itemTypes.includes('array');
    if (leafItems) {
      const whole = this.world.pools.pool(this.ctx.op, pointer, name, s, true);
      const v = pick(whole, `${this.world.seed}/${salt}`);
      if (v !== undefined) return v as unknown[];
    }
    const length = this.length(s, pointer, salt);
    const out: unknown[] = [];
    for (let i = 0; i < length; i++) {
      const slot = { index: i, count: length, salt };
      out.push(
        this.value(items, childPointer(pointer, i), name, null, parent, `${salt}/${i}`, depth + 1, slot),
      );
    }
    return out;
  }

  private length(s: Record<string, unknown>, pointer: string, salt: string): number {
    const seen = this.world.pools.arrayLength(this.ctx.op, pointer);
    let n = seen === undefined ? 3 : Math.max(1, Math.min(10, seen + (hashInt(`${salt}/len`) % 3) - 1));
    if (typeof s.minItems === 'number') n = Math.max(n, s.minItems);
    if (typeof s.maxItems === 'number') n = Math.min(n, s.maxItems);
    return n;
  }

  private leaf(s: JsonSchema, pointer: string, name: string | null, salt: string): unknown {
    const pool = this.world.pools.pool(this.ctx.op, pointer, name, s);
    const v = pick(pool, `${this.world.seed}/${salt}`);
    return v !== undefined ? v : simplest(s);
  }
}

/** Convenience: a body for one schema. */
export function produceBody(
  ctx: ProduceContext,
  schema: JsonSchema,
  pointer: string,
  binding: Binding | null,
  salt: string,
): unknown {
  return new Producer(ctx).body(schema, pointer, binding, salt);
}
