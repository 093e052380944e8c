/**
 * The `seeded` mode (issue 22 §3): a deterministic, stateful world answering each operation by its role
 * (`resources.ts`). Reads derive the entity from (seed, resource, key) with the session's overlay on top; lists
 * page through a deterministic sequence of linked entities (the session's own creations first, its deletions
 * left out); a search materialises the entity its query names — the first time it is asked for, identically in
 * every session of the seed — and answers it with the session's matching creations; writes change only the
 * session's overlay (`state.ts`), and a later read sees them.
 *
 * Materialising by name: a search for "Sofia Coppola" over `person` answers the person whose key is derived from
 * (seed, `person`, the normalised query) and whose label field (`name`) is the query as given; the overlay records
 * that fact, so the same person is "Sofia Coppola" in every later answer of the session (her details, her
 * credits). Filters that name a property of the items (`genre=drama`, `status=active`) are applied the same way:
 * the answered entities carry the filter's value.
 */
import type { ApiOperation } from '../types.ts';
import { type ProduceContext, Producer } from './produce.ts';
import type { MockResponse } from './request.ts';
import { declaredError } from './request.ts';
import { itemsKeyOf, type KeyRef, type OpRole, type Resource } from './resources.ts';
import { childPointer, itemsOf, propertiesOf, successResponse } from './schema-walk.ts';
import { factsOf, isDeleted, type MockOverlay, withCreated, withDeleted, withFacts } from './state.ts';
import { normalKey } from './words.ts';
import type { MockWorld } from './world.ts';

export interface SeededResult extends MockResponse {
  overlay: MockOverlay;
}

/** Lists hold between MIN_LIST and MIN_LIST + LIST_SPREAD entities (per operation, scope and filters). */
const MIN_LIST = 20;
const LIST_SPREAD = 480;

/** JSON with sorted keys: the same arguments always make the same label. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function successStatus(op: ApiOperation): { status: number; pointer: string } {
  const ok = successResponse(op);
  const status = ok && /^\d{3}$/.test(ok.status) ? Number(ok.status) : 200;
  return { status, pointer: `/${ok?.status ?? '200'}` };
}

function jsonHeaders(op: ApiOperation): Record<string, string> {
  return { 'content-type': successResponse(op)?.mediaType ?? 'application/json' };
}

/** The resources along a key, outermost first (`tv`, `tv.season` for `tv.season`), one per key parameter. */
function chain(world: MockWorld, key: KeyRef): (Resource | undefined)[] {
  const parts = key.resource.split('.');
  return parts.map((_, i) => world.resource(parts.slice(0, i + 1).join('.')));
}

/** The entity key a call names (`1399/2`), or the 404 message when it names none of this session's world. */
function keyOf(
  world: MockWorld,
  overlay: MockOverlay,
  key: KeyRef,
  args: Readonly<Record<string, unknown>>,
): { key: string } | { missing: string } {
  const parts = key.params.map((p) => String(args[p] ?? ''));
  const resources = chain(world, key);
  for (let i = 0; i < parts.length; i++) {
    const resource = resources[i];
    const sofar = parts.slice(0, i + 1).join('/');
    if (resource && !world.exists(resource, sofar, overlay)) {
      return {
        missing: `No ${resource.name.split('.').pop()?.replaceAll('_', ' ')} with ${key.params[i]} ${parts[i]}.`,
      };
    }
  }
  return { key: parts.join('/') };
}

/** Credentials are never kept as an entity's facts (a later answer would echo them). */
const CREDENTIAL = /token|password|passwd|secret|api_?key|authorization|credential/i;

/** The written fields of a call: its arguments without the key parameters and credentials, a body's own. */
function argsWithout(
  args: Readonly<Record<string, unknown>>,
  drop: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (!drop.includes(k) && k !== 'body' && !CREDENTIAL.test(k)) out[k] = v;
  }
  if (args.body !== null && typeof args.body === 'object' && !Array.isArray(args.body)) {
    Object.assign(out, args.body as Record<string, unknown>);
  }
  return out;
}

interface Page {
  number: number;
  size: number;
  offset: number;
}

function pageOf(op: ApiOperation, args: Readonly<Record<string, unknown>>, fallbackSize: number): Page {
  const p = op.pagination;
  const num = (name: string | undefined, dflt: number) => {
    const v = name === undefined ? undefined : Number(args[name]);
    return v !== undefined && Number.isInteger(v) && v > 0 ? v : dflt;
  };
  if (!p) return { number: 1, size: fallbackSize, offset: 0 };
  if (p.style === 'page') {
    const size = num(p.sizeParam, p.pageSize);
    const number = num(p.pageParam, 1);
    return { number, size, offset: (number - 1) * size };
  }
  if (p.style === 'offset') {
    const size = num(p.limitParam, p.pageSize);
    const offsetValue = Number(args[p.offsetParam]);
    const offset = Number.isInteger(offsetValue) && offsetValue >= 0 ? offsetValue : 0;
    return { number: Math.floor(offset / size) + 1, size, offset };
  }
  const size = num(p.sizeParam, p.pageSize);
  const cursor = Number.parseInt(String(args[p.cursorParam] ?? '0'), 36);
  const offset = Number.isInteger(cursor) && cursor >= 0 ? cursor : 0;
  return { number: Math.floor(offset / size) + 1, size, offset };
}

export class SeededCall {
  private overlay: MockOverlay;
  private readonly producer: Producer;
  private readonly ctx: ProduceContext;

  constructor(
    private readonly world: MockWorld,
    private readonly op: ApiOperation,
    private readonly args: Readonly<Record<string, unknown>>,
    overlay: MockOverlay,
  ) {
    this.overlay = overlay;
    this.ctx = { world, op, overlay };
    this.producer = new Producer(this.ctx);
  }

  run(): SeededResult {
    const role: OpRole = this.world.model.roles.get(this.op.name) ?? { kind: 'action' };
    const answer = this.answer(role);
    return { ...answer, overlay: this.overlay };
  }

  private setOverlay(next: MockOverlay) {
    this.overlay = next;
    this.ctx.overlay = next;
  }

  private notFound(message: string): MockResponse {
    return declaredError(this.ctx, 404, message);
  }

  private bodyFor(resource: Resource | undefined, key: string | null, salt: string): MockResponse {
    const ok = successResponse(this.op);
    const { status, pointer } = successStatus(this.op);
    if (!ok?.schema) return { status: ok ? status : 204, headers: {}, body: null };
    const binding = resource && key !== null ? { resource, key } : null;
    return {
      status,
      headers: jsonHeaders(this.op),
      body: this.producer.body(ok.schema, pointer, binding, salt),
    };
  }

  private answer(role: OpRole): MockResponse {
    const argsSalt = `${this.op.name}:${stableJson(this.args)}`;
    switch (role.kind) {
      case 'read': {
        const resource = this.world.resource(role.resource);
        if (!role.key) {
          // A singleton (`/movie/latest`): one entity of the resource, the same for every call of the operation.
          const key = resource?.canonical
            ? this.world.linkedKey(resource, `singleton/${this.op.name}`)
            : null;
          return this.bodyFor(resource, key, key === null ? argsSalt : `${this.op.name}`);
        }
        const k = keyOf(this.world, this.overlay, role.key, this.args);
        if ('missing' in k) return this.notFound(k.missing);
        return this.bodyFor(resource, k.key, `${this.op.name}:${k.key}`);
      }
      case 'aspect': {
        const k = keyOf(this.world, this.overlay, role.key, this.args);
        if ('missing' in k) return this.notFound(k.missing);
        return this.bodyFor(this.world.resource(role.resource), k.key, `${this.op.name}:${k.key}`);
      }
      case 'list':
      case 'search':
        return this.page(role);
      case 'create': {
        const resource = this.world.resource(role.resource);
        if (!resource) return this.bodyFor(undefined, null, argsSalt);
        let prefix = '';
        if (role.scope) {
          const k = keyOf(this.world, this.overlay, role.scope, this.args);
          if ('missing' in k) return this.notFound(k.missing);
          prefix = `${k.key}/`;
        }
        const n = this.world.sizeOf(resource) + 1 + (this.overlay.created[resource.name]?.length ?? 0);
        const key = `${prefix}${this.world.formatKey(resource, n)}`;
        const facts = argsWithout(this.args, role.scope?.params ?? []);
        this.setOverlay(withFacts(withCreated(this.overlay, resource.name, key), resource.name, key, facts));
        return this.bodyFor(resource, key, `${this.op.name}:${key}`);
      }
      case 'update': {
        const k = keyOf(this.world, this.overlay, role.key, this.args);
        if ('missing' in k) return this.notFound(k.missing);
        const resource = this.world.resource(role.resource);
        if (resource)
          this.setOverlay(
            withFacts(this.overlay, resource.name, k.key, argsWithout(this.args, role.key.params)),
          );
        return this.bodyFor(resource, k.key, `${this.op.name}:${k.key}`);
      }
      case 'delete': {
        const k = keyOf(this.world, this.overlay, role.key, this.args);
        if ('missing' in k) return this.notFound(k.missing);
        const resource = this.world.resource(role.resource);
        const answer = this.bodyFor(resource, k.key, `${this.op.name}:${k.key}`);
        if (resource) this.setOverlay(withDeleted(this.overlay, resource.name, k.key));
        return answer;
      }
      case 'action': {
        const resource = role.resource ? this.world.resource(role.resource) : undefined;
        if (role.key && resource) {
          const k = keyOf(this.world, this.overlay, role.key, this.args);
          if ('missing' in k) return this.notFound(k.missing);
          return this.bodyFor(resource, k.key, argsSalt);
        }
        return this.bodyFor(undefined, null, argsSalt);
      }
    }
  }

  /** A page of a list or search (see the module header). */
  private page(role: Extract<OpRole, { kind: 'list' | 'search' }>): MockResponse {
    const ok = successResponse(this.op);
    const { status, pointer } = successStatus(this.op);
    const resource = this.world.resource(role.resource);
    if (!ok?.schema || !resource)
      return this.bodyFor(resource, null, `${this.op.name}:${stableJson(this.args)}`);
    let scopeKey = '';
    if (role.scope) {
      const k = keyOf(this.world, this.overlay, role.scope, this.args);
      if ('missing' in k) return this.notFound(k.missing);
      scopeKey = k.key;
    }
    const itemsKey = role.itemsKey ?? itemsKeyOf(this.op) ?? '';
    const itemSchema = itemsKey === '' ? itemsOf(ok.schema) : itemsOf(propertiesOf(ok.schema)[itemsKey]);
    if (!itemSchema) return this.bodyFor(resource, null, `${this.op.name}:${stableJson(this.args)}`);
    const itemProps = propertiesOf(itemSchema);
    const label = resource.labelField && itemProps[resource.labelField] ? resource.labelField : undefined;

    // Filters whose name is a property of the items: the answered entities carry the value.
    const filterFacts: Record<string, unknown> = {};
    if (role.kind === 'search') {
      for (const f of role.filters) {
        const v = this.args[f];
        const prop = Object.keys(itemProps).find((p) => normalKey(p) === normalKey(f));
        if (v !== undefined && prop && this.world.pools.valid(itemProps[prop] as never, v))
          filterFacts[prop] = v;
      }
    }
    const query = role.kind === 'search' && role.query ? String(this.args[role.query] ?? '').trim() : '';
    const page = pageOf(
      this.op,
      this.args,
      this.world.pools.arrayLength(this.op, childPointer(pointer, itemsKey)) ?? 20,
    );

    // The sequence: the session's own entities first (those matching the query), then the world's.
    const created = (this.overlay.created[resource.name] ?? []).filter((key) => {
      if (scopeKey !== '' && !key.startsWith(`${scopeKey}/`)) return false;
      if (query === '' || !label) return query === '';
      const name = factsOf(this.overlay, resource.name, key)?.[label];
      return typeof name === 'string' && name.toLowerCase().includes(query.toLowerCase());
    });
    const listSalt = `${this.op.name}/${scopeKey}/${stableJson(filterFacts)}`;
    let worldCount: number;
    let worldKey: (i: number) => string;
    if (query !== '') {
      // The entity the query names, materialised with the query as its label.
      worldCount = 1;
      const key = this.world.linkedKey(resource, `name/${query.toLowerCase().replace(/\s+/g, ' ')}`);
      worldKey = () => key;
      if (label && !factsOf(this.overlay, resource.name, key)?.[label]) {
        this.setOverlay(withFacts(this.overlay, resource.name, key, { [label]: query }));
      }
    } else {
      worldCount = MIN_LIST + (this.world.hash(`list/${listSalt}`) % LIST_SPREAD);
      worldKey = (i) => {
        const own = this.world.linkedKey(resource, `${listSalt}/${i}`);
        return scopeKey !== '' && resource.name.includes('.') ? `${scopeKey}/${own}` : own;
      };
    }
    const total = created.length + worldCount;
    const keys: string[] = [];
    for (let i = page.offset; i < Math.min(total, page.offset + page.size); i++) {
      const key = i < created.length ? (created[i] as string) : worldKey(i - created.length);
      if (!isDeleted(this.overlay, resource.name, key)) keys.push(key);
    }
    if (Object.keys(filterFacts).length > 0) {
      for (const key of keys) this.setOverlay(withFacts(this.overlay, resource.name, key, filterFacts));
    }
    const itemPointer = childPointer(itemsKey === '' ? pointer : childPointer(pointer, itemsKey), 0);
    const items = keys.map((key) =>
      this.producer.item(itemSchema, itemPointer, { resource, key }, `${this.op.name}:${key}`),
    );
    if (itemsKey === '') return { status, headers: jsonHeaders(this.op), body: items };
    const body = this.producer.body(ok.schema, pointer, null, listSalt) as Record<string, unknown>;
    body[itemsKey] = items;
    this.pagingFields(body, ok.schema, page, total);
    return { status, headers: jsonHeaders(this.op), body };
  }

  /** Page numbers and totals in the body, where its schema has them. */
  private pagingFields(body: Record<string, unknown>, schema: unknown, page: Page, total: number) {
    const props = propertiesOf(schema as never);
    const set = (key: string | undefined, value: unknown) => {
      if (key && props[key] && this.world.pools.valid(props[key] as never, value)) body[key] = value;
    };
    const p = this.op.pagination;
    const pages = Math.max(1, Math.ceil(total / page.size));
    if (!p || p.style === 'page') {
      // The keys pagination detection found, else the usual names.
      set((p?.style === 'page' && p.pageKey) || 'page', page.number);
      set(
        (p?.style === 'page' && p.totalPagesKey) || (props.totalPages ? 'totalPages' : 'total_pages'),
        pages,
      );
      set(
        (p?.style === 'page' && p.totalItemsKey) ||
          (props.totalResults ? 'totalResults' : props.total ? 'total' : 'total_results'),
        total,
      );
    } else if (p.style === 'offset') {
      set(p.totalKey ?? 'total', total);
      set('offset', page.offset);
      set('limit', page.size);
    } else {
      const next = page.offset + page.size < total ? (page.offset + page.size).toString(36) : null;
      if (props[p.nextKey])
        body[p.nextKey] = next ?? (this.world.pools.valid(props[p.nextKey] as never, null) ? null : '');
    }
  }
}

/** Answers one call in `seeded` mode. */
export function seededCall(
  world: MockWorld,
  op: ApiOperation,
  args: Readonly<Record<string, unknown>>,
  overlay: MockOverlay,
): SeededResult {
  return new SeededCall(world, op, args, overlay).run();
}
