/**
 * Python sets with CPython 3.11's iteration order.
 *
 * Membership uses `hashKey` (a Map), but the iteration order comes from a simulation of CPython's open-addressing
 * set table (Objects/setobject.c: linear probes of 9 then perturbed probing, resize at 60% fill to 4x the used
 * count, dummies left by removals, the bulk-merge paths used by copy/union). Integer hashes are CPython's exactly
 * (`n mod (2**61 - 1)`), so `{3, 1, 2}` iterates as `{1, 2, 3}` just like CPython. String hashes in CPython are
 * randomised per process (PYTHONHASHSEED); here they come from a fixed hash, so sets of strings have a
 * deterministic order that is as arbitrary as CPython's.
 */

import { hashKey, type PyDict, PyObject, PyTuple, type PyValue, typeError } from './objects.ts';

const P = (1n << 61n) - 1n;
const MASK64 = (1n << 64n) - 1n;
const LINEAR_PROBES = 9;
const PERTURB_SHIFT = 5n;
const MIN_SIZE = 8;

interface Slot {
  readonly key: PyValue;
  readonly hash: bigint;
  readonly hk: string;
}

const DUMMY: Slot = { key: null, hash: -1n, hk: '' };

export class PySet extends PyObject {
  table: (Slot | null)[] = new Array<Slot | null>(MIN_SIZE).fill(null);
  mask = MIN_SIZE - 1;
  fill = 0;
  used = 0;
  finger = 0;
  readonly members = new Map<string, Slot>();

  constructor(readonly frozen = false) {
    super();
  }

  get typeName(): string {
    return this.frozen ? 'frozenset' : 'set';
  }

  /** frozensets hash by content (equal to a set with the same members); sets are unhashable. */
  pyHashKey(): string {
    if (!this.frozen) throw typeError("unhashable type: 'set'");
    return `fs${JSON.stringify([...this.members.keys()].sort())}`;
  }

  get size(): number {
    return this.used;
  }

  has(v: PyValue): boolean {
    return this.members.has(hashKey(v));
  }

  /** Items in CPython's iteration order. */
  items(): PyValue[] {
    const out: PyValue[] = [];
    for (const s of this.table) if (s && s !== DUMMY) out.push(s.key);
    return out;
  }

  slots(): Slot[] {
    const out: Slot[] = [];
    for (const s of this.table) if (s && s !== DUMMY) out.push(s);
    return out;
  }

  add(v: PyValue): void {
    const hk = hashKey(v);
    if (this.members.has(hk)) return;
    this.addSlot({ key: v, hash: pyHash(v), hk });
  }

  /**
   * set_add_entry for a key known to be absent: probe until a never-used slot; if dummies (left by removals) were
   * passed on the way, the last one seen takes the key (CPython 3.11's observable behaviour), otherwise the
   * never-used slot does and may trigger a resize at 60% fill.
   */
  private addSlot(slot: Slot): void {
    if (this.members.has(slot.hk)) return;
    const mask = this.mask;
    const h = slot.hash & MASK64;
    let i = Number(h & BigInt(mask));
    let perturb = h;
    let freeslot = -1;
    for (;;) {
      let probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
      let j = i;
      for (;;) {
        const e = this.table[j];
        if (e === null) {
          this.members.set(slot.hk, slot);
          this.used++;
          if (freeslot >= 0) {
            this.table[freeslot] = slot;
            return;
          }
          this.table[j] = slot;
          this.fill++;
          if (this.fill * 5 >= mask * 3) this.resize(this.used > 50000 ? this.used * 2 : this.used * 4);
          return;
        }
        if (e === DUMMY) freeslot = j;
        j++;
        if (probes-- === 0) break;
      }
      perturb >>= PERTURB_SHIFT;
      i = Number((BigInt(i) * 5n + 1n + perturb) & BigInt(mask));
    }
  }

  private static insertClean(table: (Slot | null)[], mask: number, slot: Slot): void {
    const h = slot.hash & MASK64;
    let i = Number(h & BigInt(mask));
    let perturb = h;
    for (;;) {
      if (table[i] === null) {
        table[i] = slot;
        return;
      }
      if (i + LINEAR_PROBES <= mask) {
        for (let j = 1; j <= LINEAR_PROBES; j++) {
          if (table[i + j] === null) {
            table[i + j] = slot;
            return;
          }
        }
      }
      perturb >>= PERTURB_SHIFT;
      i = Number((BigInt(i) * 5n + 1n + perturb) & BigInt(mask));
    }
  }

  private resize(minused: number): void {
    let size = MIN_SIZE;
    while (size <= minused) size *= 2;
    const old = this.table;
    this.table = new Array<Slot | null>(size).fill(null);
    this.mask = size - 1;
    this.fill = this.used;
    for (const s of old) if (s && s !== DUMMY) PySet.insertClean(this.table, this.mask, s);
  }

  discard(v: PyValue): boolean {
    const hk = hashKey(v);
    const slot = this.members.get(hk);
    if (!slot) return false;
    const idx = this.table.indexOf(slot);
    this.table[idx] = DUMMY;
    this.members.delete(hk);
    this.used--;
    return true;
  }

  /** set.pop(): CPython scans from a moving finger. Returns undefined when empty. */
  pop(): PyValue | undefined {
    if (this.used === 0) return undefined;
    let i = this.finger & this.mask;
    for (;;) {
      const s = this.table[i];
      if (s && s !== DUMMY) {
        this.table[i] = DUMMY;
        this.members.delete(s.hk);
        this.used--;
        this.finger = i + 1;
        return s.key;
      }
      i = (i + 1) & this.mask;
    }
  }

  clear(): void {
    this.table = new Array<Slot | null>(MIN_SIZE).fill(null);
    this.mask = MIN_SIZE - 1;
    this.fill = 0;
    this.used = 0;
    this.members.clear();
  }

  /** set_merge: bulk insertion of another set's entries. */
  merge(other: PySet): void {
    if (other === this || other.used === 0) return;
    if ((this.fill + other.used) * 5 >= this.mask * 3) this.resize((this.used + other.used) * 2);
    if (this.fill === 0 && this.mask === other.mask && other.fill === other.used) {
      this.table = other.table.slice();
      this.fill = other.fill;
      this.used = other.used;
      for (const s of this.table) if (s) this.members.set(s.hk, s);
      return;
    }
    if (this.fill === 0) {
      this.fill = other.used;
      this.used = other.used;
      for (const s of other.table) {
        if (s && s !== DUMMY) {
          PySet.insertClean(this.table, this.mask, s);
          this.members.set(s.hk, s);
        }
      }
      return;
    }
    for (const s of other.table) if (s && s !== DUMMY) this.addSlot(s);
  }

  /** set_update_internal for a dict argument: one resize up front, then plain insertions. */
  mergeDictKeys(d: PyDict): void {
    const n = d.size;
    if ((this.fill + n) * 5 >= this.mask * 3) this.resize((this.used + n) * 2);
    for (const k of d.keys()) this.add(k);
  }

  copy(frozen = this.frozen): PySet {
    const s = new PySet(frozen);
    s.merge(this);
    return s;
  }

  /** set_intersection: iterate the smaller set, keep what the other contains. */
  intersection(other: PySet): PySet {
    const result = new PySet(this.frozen);
    let a: PySet = this;
    let b: PySet = other;
    if (b.used > a.used) [a, b] = [b, a];
    for (const s of b.slots()) if (a.members.has(s.hk)) result.addSlot(s);
    return result;
  }

  intersectionIter(items: Iterable<PyValue>): PySet {
    const result = new PySet(this.frozen);
    for (const v of items) {
      const hk = hashKey(v);
      if (this.members.has(hk)) result.addSlot({ key: v, hash: pyHash(v), hk });
    }
    return result;
  }

  /** set_difference with a set argument. */
  difference(other: PySet): PySet {
    if (this.used >> 2 > other.used) {
      const r = this.copy();
      for (const s of other.slots()) r.discard(s.key);
      return r;
    }
    const result = new PySet(this.frozen);
    for (const s of this.slots()) if (!other.members.has(s.hk)) result.addSlot(s);
    return result;
  }

  /** set_symmetric_difference: copy of other, then toggle this set's items. */
  symmetricDifference(other: PySet): PySet {
    const result = other.copy(this.frozen);
    for (const s of this.slots()) {
      if (result.members.has(s.hk)) result.discard(s.key);
      else result.addSlot(s);
    }
    return result;
  }

  addAll(items: Iterable<PyValue>): void {
    for (const v of items) this.add(v);
  }

  /** Loads the exact table layout stored in a snapshot into this (empty) set. */
  restoreLayout(
    mask: number,
    fill: number,
    finger: number,
    entries: readonly (readonly [number, PyValue])[],
    dummies: readonly number[],
  ): void {
    this.table = new Array<Slot | null>(mask + 1).fill(null);
    this.mask = mask;
    this.members.clear();
    for (const [idx, key] of entries) {
      const slot = { key, hash: pyHash(key), hk: hashKey(key) };
      this.table[idx] = slot;
      this.members.set(slot.hk, slot);
    }
    for (const idx of dummies) this.table[idx] = DUMMY;
    this.used = entries.length;
    this.fill = fill;
    this.finger = finger;
  }

  /** Table layout for snapshots: slot index of each entry and of each dummy. */
  layout(): { entries: [number, PyValue][]; dummies: number[] } {
    const entries: [number, PyValue][] = [];
    const dummies: number[] = [];
    this.table.forEach((s, i) => {
      if (s === DUMMY) dummies.push(i);
      else if (s) entries.push([i, s.key]);
    });
    return { entries, dummies };
  }
}

/** CPython's `hash()` for ints and floats (exact), tuples (xxHash-based, exact given element hashes), others
 * (a fixed stand-in for CPython's randomised hashes). Returns a signed 64-bit value. */
export function pyHash(v: PyValue): bigint {
  switch (typeof v) {
    case 'boolean':
      return v ? 1n : 0n;
    case 'bigint':
      return hashInt(v);
    case 'number':
      return hashFloat(v);
    case 'string':
      return hashString(`s${v}`);
  }
  if (v === null) return 0x5a5a5a5a5an;
  if (v instanceof PyTuple) return hashTuple(v.items);
  const key = hashKey(v);
  if (key.startsWith('o')) return hashString(`o${runIdOf(v)}`);
  return hashString(key);
}

// Identity-hashed objects (functions, exceptions...) are ordered in sets by an id assigned in order of first use
// within a run, so that set iteration order does not depend on what the process did before.
let runIds = new WeakMap<object, number>();
let runNext = 0;

export function resetRunIds(): void {
  runIds = new WeakMap();
  runNext = 0;
}

function runIdOf(o: object): number {
  let id = runIds.get(o);
  if (id === undefined) {
    id = ++runNext;
    runIds.set(o, id);
  }
  return id;
}

function hashInt(n: bigint): bigint {
  const neg = n < 0n;
  let h = (neg ? -n : n) % P;
  if (neg) h = -h;
  return h === -1n ? -2n : h;
}

function hashFloat(x: number): bigint {
  if (Number.isNaN(x)) return 0n;
  if (!Number.isFinite(x)) return x > 0 ? 314159n : -314159n;
  if (Number.isInteger(x)) return hashInt(BigInt(x));
  // x = m * 2**e exactly, with m an odd integer.
  const neg = x < 0;
  let a = Math.abs(x);
  let e = 0;
  while (!Number.isInteger(a)) {
    a *= 2;
    e--;
  }
  const m = BigInt(a) % P;
  const k = ((e % 61) + 61) % 61;
  let h = (m * (1n << BigInt(k))) % P;
  if (neg) h = -h;
  return h === -1n ? -2n : h;
}

const XXPRIME_1 = 11400714785074694791n;
const XXPRIME_2 = 14029467366897019727n;
const XXPRIME_5 = 2870177450012600261n;

function hashTuple(items: readonly PyValue[]): bigint {
  let acc = XXPRIME_5;
  for (const item of items) {
    const lane = pyHash(item) & MASK64;
    acc = (acc + lane * XXPRIME_2) & MASK64;
    acc = ((acc << 31n) | (acc >> 33n)) & MASK64;
    acc = (acc * XXPRIME_1) & MASK64;
  }
  acc = (acc + (BigInt(items.length) ^ (XXPRIME_5 ^ 3527539n))) & MASK64;
  if (acc === MASK64) return 1546275796n;
  return BigInt.asIntN(64, acc);
}

/** cyrb53: a fixed 53-bit string hash standing in for CPython's per-process SipHash. */
function hashString(s: string): bigint {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return BigInt(4294967296 * (2097151 & h2) + (h1 >>> 0));
}
