/** GET /health: the status of every binding and the build version. 200 when all is well, 503 otherwise. */
import { z } from '@hono/zod-openapi';
import journal from '../../db/migrations/meta/_journal.json';
import type { Bindings } from '../../edge/env.ts';
import { readConfig } from '../../edge/env.ts';
import { CANARY } from '../../edge/jobs/canary.ts';
import { latestJobOfKind } from '../../edge/stores/jobs.ts';
import { appliedMigrations, pingD1, storedWorld } from '../../edge/stores/world.ts';
import pkg from '../../package.json';
import { component, routeModule } from '../http/openapi.ts';

const CheckSchema = z.object({ ok: z.boolean(), detail: z.string().optional() }).passthrough();

const HealthSchema = component('Health', {
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  environment: z.string(),
  checks: z.object({
    d1: CheckSchema,
    migrations: CheckSchema,
    durableObjects: CheckSchema,
    queue: CheckSchema,
    workersAi: CheckSchema,
    world: CheckSchema,
  }),
});

/** Migration file names this build expects, from drizzle-kit's journal. */
export const EXPECTED_MIGRATIONS = journal.entries.map((e) => `${e.tag}.sql`);

async function timed<T>(fn: () => Promise<T>): Promise<{ value?: T; error?: string; ms: number }> {
  const start = Date.now();
  try {
    return { value: await fn(), ms: Date.now() - start };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e), ms: Date.now() - start };
  }
}

export async function checkHealth(env: Bindings) {
  const config = readConfig(env);
  // The checks are independent: run at once, they cost one round trip, not five, however busy the isolate is.
  const [d1, applied, durable, canary, world] = await Promise.all([
    timed(() => pingD1(env)),
    timed(() => appliedMigrations(env)),
    timed(() => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName('health')).ping()),
    timed(() => latestJobOfKind(env, CANARY)),
    timed(() => storedWorld(env)),
  ]);
  const pending = applied.value
    ? EXPECTED_MIGRATIONS.filter((m) => !applied.value?.includes(m))
    : EXPECTED_MIGRATIONS;
  const queueBound = typeof env.JOBS?.send === 'function';
  const aiBound = typeof env.AI?.run === 'function';
  const aiNeeded = config.modelProvider === 'workers-ai' || config.embeddingProvider === 'workers-ai';

  const checks = {
    d1: d1.error ? { ok: false, detail: d1.error } : { ok: d1.value === true, latencyMs: d1.ms },
    migrations: applied.error
      ? { ok: false, detail: `cannot read d1_migrations: ${applied.error}`, expected: EXPECTED_MIGRATIONS }
      : { ok: pending.length === 0, applied: applied.value ?? [], pending },
    durableObjects: durable.error
      ? { ok: false, detail: durable.error }
      : {
          ok: durable.value?.ok === true,
          storage: durable.value?.storage ?? 'unknown',
          latencyMs: durable.ms,
        },
    queue: {
      ok: queueBound,
      bound: queueBound,
      ...(queueBound ? {} : { detail: 'JOBS queue binding missing' }),
      lastCanary: canary.value ?? null,
    },
    workersAi: {
      ok: aiBound || !aiNeeded,
      bound: aiBound,
      required: aiNeeded,
      ...(aiNeeded && !aiBound ? { detail: 'the configured provider needs the AI binding' } : {}),
    },
    world: world.error
      ? { ok: false, detail: world.error }
      : world.value && world.value.seed === config.worldSeed && world.value.scale === config.worldScale
        ? { ok: true, seed: world.value.seed, scale: world.value.scale, tasks: world.value.tasks }
        : {
            ok: false,
            detail: world.value
              ? `D1 holds world ${world.value.seed} × ${world.value.scale}, but ${config.worldSeed} × ${config.worldScale} is configured; run the seeder`
              : 'the world is not seeded: run `npm start` (local) or `npm run seed -- --remote`',
          },
  };
  const ok = Object.values(checks).every((c) => c.ok);
  return {
    status: ok ? ('ok' as const) : ('degraded' as const),
    version: pkg.version,
    environment: config.environment,
    checks,
  };
}

export const registerHealthRoutes = routeModule('System', 'public', (routes) => {
  routes.get(
    '/health',
    'Status of every binding and the build version',
    {
      ok: [200, 'All bindings are healthy', HealthSchema],
      responses: {
        503: {
          description: 'At least one binding is unhealthy',
          content: { 'application/json': { schema: HealthSchema } },
        },
      },
    },
    async (c) => {
      const health = await checkHealth(c.env);
      c.header('cache-control', 'no-store');
      return health.status === 'ok' ? c.json(health, 200) : c.json(health, 503);
    },
  );
});
