/**
 * The world: every corpus generated from (seed, scale), each from its own derived random stream so that
 * changing one generator never changes another dataset. Generation is pure and deterministic, in Node and in
 * workerd; `loadWorld` keeps the most recent worlds of an isolate in memory.
 */
import { Rng } from '../util/random.ts';
import { generateAgenda } from './corpora/agenda.ts';
import { generateAirbnb } from './corpora/airbnb.ts';
import { generateCoffee } from './corpora/coffee.ts';
import { generateDblp } from './corpora/dblp.ts';
import { generateFlights } from './corpora/flights.ts';
import { generateScirex } from './corpora/scirex.ts';
import { generateYelp } from './corpora/yelp.ts';
import type { Table } from './table.ts';
import type { World, WorldConfig } from './types.ts';

/** A value computed on first use. */
function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}

/**
 * The world for (seed, scale). Each corpus is generated on first access (the getters are invisible to
 * callers), so an isolate that only serves flights questions never holds the DBLP graphs (about 60 MB at
 * scale 1) — Workers isolates have 128 MB. Access order never changes content: every corpus has its own stream.
 */
export function generateWorld(config: WorldConfig): World {
  if (!(config.scale > 0) || !Number.isFinite(config.scale)) {
    throw new RangeError(`world scale must be > 0, got ${config.scale}`);
  }
  const root = new Rng(`tooldrift-world/${config.seed}`);
  const scale = config.scale;
  const agenda = lazy(() => generateAgenda(root.fork('agenda'), scale));
  const flights = lazy(() => generateFlights(root.fork('flights'), scale));
  const coffee = lazy(() => generateCoffee(root.fork('coffee'), scale));
  const airbnb = lazy(() => generateAirbnb(root.fork('airbnb'), scale));
  const yelp = lazy(() => generateYelp(root.fork('yelp'), scale));
  const scirex = lazy(() => generateScirex(root.fork('scirex'), scale));
  const dblp = lazy(() => generateDblp(root.fork('dblp'), scale));
  const tables = Object.defineProperties({} as World['tables'], {
    flights: { get: flights, enumerable: true },
    coffee: { get: coffee, enumerable: true },
    airbnb: { get: airbnb, enumerable: true },
    yelp: { get: yelp, enumerable: true },
    agenda: { get: () => agenda().table, enumerable: true },
  });
  return Object.defineProperties({ config: { seed: config.seed, scale } } as World, {
    tables: { value: tables, enumerable: true },
    agendaEvents: { get: () => agenda().events, enumerable: true },
    agendaPassages: { get: () => agenda().passages, enumerable: true },
    scirex: { get: scirex, enumerable: true },
    dblp: { get: dblp, enumerable: true },
  });
}

const cache: { key: string; world: World }[] = [];
const CACHE_SIZE = 2;

/** The world for (seed, scale), generated once per isolate (the two most recently used are kept). */
export function loadWorld(config: WorldConfig): World {
  const key = `${config.seed}\u0000${config.scale}`;
  const hit = cache.findIndex((e) => e.key === key);
  if (hit >= 0) {
    const [entry] = cache.splice(hit, 1);
    cache.unshift(entry as (typeof cache)[number]);
    return (entry as (typeof cache)[number]).world;
  }
  const world = generateWorld(config);
  cache.unshift({ key, world });
  cache.length = Math.min(cache.length, CACHE_SIZE);
  return world;
}

/**
 * A streaming 64-bit content hash (two FNV-1a-style 32-bit lanes with different primes, avalanched at the
 * end), fast enough to hash every cell of a world in well under a second. For determinism checks, not security.
 */
export class ContentHash {
  private a = 0x811c9dc5;
  private b = 0x050c5d1f;

  update(text: string): this {
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < text.length; i++) {
      const k = text.charCodeAt(i);
      a = Math.imul(a ^ k, 0x01000193);
      b = Math.imul(b ^ k, 0x5bd1e995);
    }
    // A separator, so that ["ab", "c"] and ["a", "bc"] differ.
    this.a = Math.imul(a ^ 0x1f, 0x01000193);
    this.b = Math.imul(b ^ 0x1f, 0x5bd1e995);
    return this;
  }

  digest(): string {
    const mix = (h: number, seed: number) => {
      let x = h ^ seed;
      x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
      x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
      return (x ^ (x >>> 16)) >>> 0;
    };
    const hi = mix(this.a, this.b);
    const lo = mix(this.b, hi);
    return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
  }
}

function hashTable(h: ContentHash, table: Table): void {
  h.update(table.name);
  for (const c of table.columns) h.update(c.name);
  for (let r = 0; r < table.rowCount; r++) for (const cell of table.row(r)) h.update(cell);
}

/** Content hashes of every corpus of a world (and one over all of them). */
export function hashWorld(world: World): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const [name, table] of Object.entries(world.tables)) {
    const h = new ContentHash();
    hashTable(h, table);
    parts[name] = h.digest();
  }
  const passages = new ContentHash();
  for (const p of world.agendaPassages) passages.update(p.id).update(p.text);
  parts.agendaPassages = passages.digest();
  const scirex = new ContentHash();
  for (const p of world.scirex.passages) scirex.update(p.id).update(p.text);
  for (const r of world.scirex.results) scirex.update(JSON.stringify(r));
  parts.scirex = scirex.digest();
  const dblp = new ContentHash();
  for (const p of world.dblp.papers.values()) dblp.update(JSON.stringify(p));
  for (const [u, vs] of world.dblp.cites) dblp.update(u).update(vs.join(','));
  for (const [a, edges] of world.dblp.coauthors)
    for (const [b, e] of edges) dblp.update(a).update(b).update(JSON.stringify(e));
  parts.dblp = dblp.digest();
  const all = new ContentHash();
  for (const k of Object.keys(parts).sort()) all.update(k).update(parts[k] as string);
  return { world: all.digest(), ...parts };
}
