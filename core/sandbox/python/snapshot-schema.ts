/**
 * The shape and size bounds of a Python namespace snapshot (snapshot.ts) received from outside: clients carry
 * `state.python` between kernel calls, so a snapshot is untrusted input (issue 13 item 4). `parseSnapshot`
 * accepts exactly what `snapshotNamespace` writes, within the sizes it can write, and nothing that would let a
 * lookup reach a JavaScript value: heap references are integer indexes into the heap (never a property name such
 * as `constructor` or `__proto__`), kinds and dtypes are enumerations, and every name is looked up in a `Map`.
 * A set's table layout is checked against CPython's invariants (a power-of-two table of at least 8 slots, at
 * most 8 slots per filled slot, distinct slots, at least one empty slot), so a forged `mask` cannot make the
 * next `add` walk millions of slots.
 */
import { z } from 'zod';
import type { PyNamespaceSnapshot } from './snapshot.ts';

/** Bounds of an accepted snapshot, derived from the interpreter limits that the writer respects. */
export interface SnapshotBounds {
  /** Encoded values (the writer's `maxSnapshotValues` measure: one per value plus one per 16 string characters). */
  maxValues: number;
  /** Largest int, in bits (decimal digits are bounded accordingly). */
  maxIntBits: number;
}

/** Largest set table accepted (the writer never produces one near it under the default limits). */
const MAX_SET_SLOTS = 1 << 22;
/** A CPython set table holds at most this many slots per filled slot (resize to 4× used at 60 % fill). */
const SLOTS_PER_FILLED = 8;

function schemas(bounds: SnapshotBounds) {
  const maxDigits = Math.ceil(bounds.maxIntBits * Math.log10(2)) + 1;
  const intText = new RegExp(`^-?[0-9]{1,${maxDigits}}$`);
  const index = z.number().int().nonnegative();
  const value = z.union([
    z.null(),
    z.boolean(),
    z.string(),
    z.strictObject({ i: z.string().regex(intText) }),
    z.strictObject({ f: z.union([z.number(), z.enum(['nan', 'inf', '-inf', '-0'])]) }),
    z.strictObject({ r: index }),
    z.strictObject({ e: z.literal('Ellipsis') }),
  ]);
  const name = z.string().max(256);
  const ref = z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('builtin'), name }),
    z.strictObject({ kind: z.literal('module'), module: name, path: z.array(name).max(16) }),
    z.strictObject({ kind: z.literal('method'), self: value, name }),
    z.strictObject({ kind: z.literal('unbound'), type: name, name }),
    z.strictObject({ kind: z.literal('type'), name }),
  ]);
  const smallInt = z.number().int().min(-1e7).max(1e7);
  const entry = z.discriminatedUnion('t', [
    z.strictObject({ t: z.enum(['list', 'tuple']), v: z.array(value) }),
    z.strictObject({ t: z.literal('dict'), v: z.array(z.tuple([value, value])) }),
    z
      .strictObject({
        t: z.literal('set'),
        frozen: z.boolean(),
        mask: z
          .number()
          .int()
          .min(7)
          .max(MAX_SET_SLOTS - 1),
        fill: index,
        finger: index,
        v: z.array(z.tuple([index, value])),
        dummies: z.array(index),
      })
      .superRefine((s, ctx) => {
        const slots = s.mask + 1;
        const used = [...s.v.map(([slot]) => slot), ...s.dummies];
        const ok =
          (slots & s.mask) === 0 &&
          s.fill === used.length &&
          s.fill < slots &&
          slots <= SLOTS_PER_FILLED * Math.max(8, s.fill) &&
          s.finger <= s.mask &&
          used.every((slot) => slot < slots) &&
          new Set(used).size === used.length;
        if (!ok) ctx.addIssue({ code: 'custom', message: 'set table layout is not one CPython can have' });
      }),
    z.strictObject({
      t: z.literal('range'),
      v: z.tuple([z.string(), z.string(), z.string()]).refine((r) => r.every((x) => intText.test(x))),
    }),
    z.strictObject({ t: z.literal('slice'), v: z.tuple([value, value, value]) }),
    z.strictObject({ t: z.literal('iter'), name, v: z.array(value) }),
    z.strictObject({ t: z.literal('view'), which: z.enum(['keys', 'values', 'items']), dict: value }),
    z.strictObject({
      t: z.literal('function'),
      src: z.string(),
      lambda: z.boolean(),
      defaults: z.array(value),
      kwdefaults: z.array(z.tuple([name, value])),
      scope: value,
    }),
    z.strictObject({
      t: z.literal('scope'),
      kind: z.enum(['function', 'comprehension']),
      locals: z.array(name),
      globals: z.array(name),
      vars: z.array(z.tuple([name, value])),
      parent: value,
    }),
    z.strictObject({ t: z.literal('builtin'), ref }),
    z.strictObject({ t: z.literal('type'), ref }),
    z.strictObject({ t: z.literal('module'), name }),
    z.strictObject({ t: z.literal('exception'), cls: name, args: z.array(value) }),
    z.strictObject({ t: z.enum(['date', 'time', 'datetime']), v: z.array(smallInt).max(8) }),
    z.strictObject({ t: z.literal('timedelta'), v: z.string().regex(/^-?[0-9]{1,30}$/) }),
    z.strictObject({
      t: z.literal('ndarray'),
      dtype: z.enum(['bool', 'int64', 'float64', 'str', 'object']),
      v: z.array(value),
    }),
    z.strictObject({ t: z.literal('object') }),
    z.strictObject({ t: z.literal('lost'), type: name }),
  ]);
  return z.strictObject({ v: z.literal(1), vars: z.array(z.tuple([name, value])), heap: z.array(entry) });
}

const cache = new Map<string, ReturnType<typeof schemas>>();

/**
 * The snapshot if `input` is one the writer could have produced within `bounds`, else null. The size is
 * measured before the schema runs (a walk bounded by `maxValues`), so a huge input costs no more than its
 * first `maxValues` values.
 */
export function parseSnapshot(input: unknown, bounds: SnapshotBounds): PyNamespaceSnapshot | null {
  if (!withinSize(input, bounds.maxValues)) return null;
  const key = `${bounds.maxValues}/${bounds.maxIntBits}`;
  let schema = cache.get(key);
  if (!schema) {
    schema = schemas(bounds);
    cache.set(key, schema);
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) return null;
  return parsed.data as unknown as PyNamespaceSnapshot;
}

/**
 * Whether `input` holds at most `maxValues` weighed values: each array element, object property and scalar
 * counts one, a string one more per 16 characters (the writer's measure), with a margin of 2× for the heap
 * entries' own fields. Iterative, so depth cannot overflow the stack.
 */
function withinSize(input: unknown, maxValues: number): boolean {
  let budget = 2 * maxValues + 64;
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const x = stack.pop();
    budget--;
    if (typeof x === 'string') budget -= x.length >> 4;
    else if (Array.isArray(x)) {
      if (x.length > budget) return false;
      for (const y of x) stack.push(y);
    } else if (x !== null && typeof x === 'object') {
      const values = Object.values(x);
      if (values.length > budget) return false;
      for (const y of values) stack.push(y);
    }
    if (budget < 0) return false;
  }
  return true;
}
