/**
 * The world at the edge: the configured world generated in memory once per isolate (the kernel tools read
 * it), and SQLInterpreter's executor over the D1 mirror tables the seeder wrote.
 */

import { worldSqlPolicy } from '../core/sandbox/sql/mirror.ts';
import type { SqlExecutor } from '../core/sandbox/sql/run.ts';
import type { KernelDeps } from '../core/world/kernel/kernel.ts';
import { createKernelDeps } from '../core/world/kernel-deps.ts';
import type { World } from '../core/world/types.ts';
import { loadWorld } from '../core/world/world.ts';
import { type Bindings, readConfig } from './env.ts';
import { toolCallOptions } from './tool-calls.ts';

export function worldFor(env: Bindings): World {
  const config = readConfig(env);
  return loadWorld({ seed: config.worldSeed, scale: config.worldScale });
}

/** Runs guarded SQL on D1; the guard has already proved it a single read-only SELECT over the mirror. */
export function d1SqlExecutor(db: D1Database): SqlExecutor {
  return {
    async all(sql) {
      const result = await db.prepare(sql).all<Record<string, unknown>>();
      return result.results;
    },
  };
}

/**
 * The kernel's dependencies at the edge: SQL on D1 under the world's policy, and the bounds of expensive calls
 * (edge/tool-calls.ts) — `caller` is the key a request makes its calls for (the per-key concurrency bound; jobs
 * pass none).
 */
export function edgeKernelDeps(env: Bindings, gold?: unknown, caller?: string): KernelDeps {
  return createKernelDeps({
    sql: d1SqlExecutor(env.DB),
    sqlPolicy: worldSqlPolicy(worldFor(env)),
    gold,
    ...toolCallOptions(env, caller),
  });
}
