/**
 * The modules Python code may import. Anything else fails the way a missing package does in CPython
 * (`ModuleNotFoundError: No module named 'geopy'`), including stdlib modules that reach the host (os, sys, io,
 * subprocess, importlib...). Module objects are shared, read-only singletons.
 */

import { type PyModule, pyErr } from '../objects.ts';
import { createDatetimeModule } from './datetime.ts';
import { createMathModule } from './math.ts';
import { createNumpyModule } from './numpy.ts';
import { createStatisticsModule } from './statistics.ts';

const factories: ReadonlyMap<string, () => PyModule> = new Map([
  ['math', createMathModule],
  ['statistics', createStatisticsModule],
  ['numpy', createNumpyModule],
  ['datetime', createDatetimeModule],
]);

const cache = new Map<string, PyModule>();

export function importModule(name: string): PyModule {
  const cached = cache.get(name);
  if (cached) return cached;
  const top = name.split('.')[0] as string;
  const make = factories.get(name);
  if (!make) {
    throw pyErr('ModuleNotFoundError', `No module named '${factories.has(top) ? name : top}'`);
  }
  const m = make();
  cache.set(name, m);
  return m;
}

/** Names of importable modules (for snapshots and docs). */
export function isKnownModule(name: string): boolean {
  return factories.has(name);
}
