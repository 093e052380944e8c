/**
 * Global setup of the `e2e` vitest project: ONE seeded local tooldrift instance shared by every e2e test file.
 *
 *  1. a private temp directory holds the instance's whole local state (D1, Durable Objects, queues) — never the
 *     developer's .wrangler/state — and an env file with test keys (`--env-file` also keeps the developer's
 *     .dev.vars, with any real provider key, out of the instance);
 *  2. `scripts/seed.ts --persist-to DIR` applies the migrations and seeds a small world (WORLD_SCALE 0.05, WORLD_SEED
 *     'e2e', TASK_SIZES 'tooldrift': 200 train and 50 dev questions per group, half the paper's seeding time)
 *     exactly as `npm start` does;
 *  3. `wrangler dev --local --port <free> --inspector-port <free> --persist-to DIR --test-scheduled` serves it;
 *     the setup waits until GET /health answers `status: ok` (wrangler itself, not Miniflare's API as seeding
 *     uses: the instance under test is the one `npm start` serves — bundling, static assets, queues, the cron
 *     route — which Miniflare alone would need re-assembled here);
 *  4. teardown kills the process group it started (wrangler and its workerd) and removes the directory.
 *
 * How a test file uses it (test/e2e/dashboard.test.ts, test/e2e/cli.test.ts, …):
 *
 *     import { inject } from 'vitest';
 *     const baseUrl = inject('baseUrl');   // e.g. 'http://127.0.0.1:41234' (no trailing slash)
 *     const userKey = inject('userKey');   // a key from API_KEYS:   `Authorization: Bearer ${userKey}`
 *     const adminKey = inject('adminKey'); // a key from ADMIN_API_KEYS
 *
 * The values are typed through the ProvidedContext declaration below (this file is in tsconfig's `test`).
 * Cron is triggered with `fetch(`${baseUrl}/__scheduled?cron=*%2F5+*+*+*+*`)` (wrangler's --test-scheduled route).
 * The instance is shared: tests must not assume an empty database (create what you need, filter by your ids).
 * Rate limits are raised (RATE_LIMIT_PER_MINUTE) so polling tests are not throttled. The instance's output is
 * kept in DIR/wrangler.log and printed when startup fails; set TOOLDRIFT_E2E_LOG=1 to stream it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  type WriteStream,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { copyDocsAssets } from '../../scripts/lib/docs-assets.ts';
import { copyModelAssets } from '../../scripts/lib/model-assets.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the local instance, without a trailing slash. */
    baseUrl: string;
    /** A user key (API_KEYS) of the instance. */
    userKey: string;
    /** An admin key (ADMIN_API_KEYS) of the instance. */
    adminKey: string;
  }
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'node_modules', '.bin');

export const E2E_USER_KEY = 'e2e-user-key';
export const E2E_ADMIN_KEY = 'e2e-admin-key';
/** The Worker secret a proxy-mode API sends to its local upstream (test/e2e/api-proxy.test.ts). */
export const E2E_UPSTREAM_SECRET = 'e2e-upstream-secret-7c1f';
const WORLD_SEED = 'e2e';
const WORLD_SCALE = '0.05';
/** The smaller train and dev splits (core/world/tasks/generate.ts): the e2e tests read a few tasks of each. */
const TASK_SIZES = 'tooldrift';
const STARTUP_TIMEOUT_MS = 120_000;

/** A free TCP port on the loopback interface (the OS picks it; released before wrangler binds it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Runs wrangler and tsx with the repository's own Node (node@22 devDependency) first on PATH. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`,
    CI: '1',
    WRANGLER_SEND_METRICS: 'false',
    ...extra,
  };
}

function runToEnd(cmd: string, args: string[], env: NodeJS.ProcessEnv, log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      writeFileSync(log, output);
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${output.slice(-4000)}`));
    });
  });
}

async function waitHealthy(baseUrl: string, server: ChildProcess, deadline: number): Promise<void> {
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`wrangler dev exited with ${server.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5_000) });
      const body = (await res.json()) as { status?: string };
      if (res.status === 200 && body.status === 'ok') return;
      last = `${res.status} ${JSON.stringify(body)}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the local instance did not become healthy in time (last: ${last})`);
}

/** Kills the process group of `child` (wrangler and the workerd it started) and waits for it to end. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), signal);
    } catch {
      // the group is already gone
    }
  };
  signalGroup('SIGTERM');
  const timer = setTimeout(() => signalGroup('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
  // workerd may outlive wrangler for a moment: make sure nothing of the group is left.
  signalGroup('SIGKILL');
}

export interface LocalInstance {
  baseUrl: string;
  /** The instance's private state directory (its wrangler output is in wrangler.log there). */
  dir: string;
  /** Seeding and startup, in seconds. */
  seededS: number;
  healthyS: number;
  /**
   * Kills wrangler and workerd at once (SIGKILL, as a crash or a power cut would: nothing is flushed or drained)
   * and keeps the state directory, so `restart` serves the same D1, Durable Objects and queues again.
   */
  kill: () => Promise<void>;
  /** Starts `wrangler dev` again on the same state directory and port, and waits until it is healthy. */
  restart: () => Promise<void>;
  /** Ends wrangler and workerd and removes the directory. */
  stop: () => Promise<void>;
}

export interface InstanceOptions {
  /** The world the instance is seeded with (default WORLD_SEED 'e2e' × WORLD_SCALE 0.05). */
  worldSeed?: string;
  worldScale?: string;
}

/**
 * Seeds and starts one local instance (steps 1–3 above). `vars` are extra lines of its env file, e.g. an
 * `OPENAI_BASE_URL` for a test's own fake model server (test/e2e/slow-model.test.ts starts a second instance so).
 */
export async function startLocalInstance(
  vars: Record<string, string> = {},
  options: InstanceOptions = {},
): Promise<LocalInstance> {
  const started = performance.now();
  const worldSeed = options.worldSeed ?? WORLD_SEED;
  const worldScale = options.worldScale ?? WORLD_SCALE;
  const dir = mkdtempSync(join(tmpdir(), 'tooldrift-e2e-'));
  const envFile = join(dir, 'test.env');
  writeFileSync(
    envFile,
    [
      `API_KEYS=${E2E_USER_KEY}`,
      `ADMIN_API_KEYS=${E2E_ADMIN_KEY}`,
      `WORLD_SEED=${worldSeed}`,
      `WORLD_SCALE=${worldScale}`,
      'RATE_LIMIT_PER_MINUTE=100000',
      'RATE_LIMIT_BURST=10000',
      'LOG_LEVEL=warn',
      // Proxy-mode imported APIs may forward to a local upstream a test starts, which gets this secret.
      `API_PROXY_ORIGINS=http://127.0.0.1:*=UPSTREAM_E2E_TOKEN@x-upstream-key`,
      `UPSTREAM_E2E_TOKEN=${E2E_UPSTREAM_SECRET}`,
      ...Object.entries(vars).map(([k, v]) => `${k}=${v}`),
      '',
    ].join('\n'),
  );
  const env = childEnv({ WORLD_SEED: worldSeed, WORLD_SCALE: worldScale, TASK_SIZES });

  let server: ChildProcess | undefined;
  let logStream: WriteStream | undefined;
  // If vitest itself is interrupted, do not leave workerd behind.
  const onExit = () => {
    if (server?.pid !== undefined && server.exitCode === null) {
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  const closeLog = async () => {
    if (logStream) await new Promise<void>((r) => logStream?.end(r));
    logStream = undefined;
  };
  const cleanup = async () => {
    if (server) await stop(server);
    await closeLog();
    rmSync(dir, { recursive: true, force: true });
    process.off('exit', onExit);
  };
  process.once('exit', onExit);

  const [port, inspectorPort] = [await freePort(), await freePort()];
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = join(dir, 'wrangler.log');
  /** Spawns `wrangler dev` on the instance's directory and port and waits until /health is ok. */
  const serve = async () => {
    const output = createWriteStream(log, { flags: 'a' });
    logStream = output;
    server = spawn(
      join(bin, 'wrangler'),
      [
        'dev',
        '--local',
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--inspector-port',
        String(inspectorPort),
        '--persist-to',
        dir,
        '--env-file',
        envFile,
        '--test-scheduled',
        '--show-interactive-dev-session=false',
        '--log-level',
        'warn',
      ],
      // Its own process group, so teardown can end wrangler and workerd together (and only them).
      { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const stream = process.env.TOOLDRIFT_E2E_LOG === '1';
    for (const out of [server.stdout, server.stderr]) {
      out?.on('data', (d: Buffer) => {
        output.write(d);
        if (stream) process.stderr.write(d);
      });
    }
    try {
      await waitHealthy(baseUrl, server, Date.now() + STARTUP_TIMEOUT_MS);
    } catch (err) {
      await closeLog();
      const tail = readFileSync(log, 'utf8').slice(-4000);
      throw new Error(`${(err as Error).message}\n--- wrangler output ---\n${tail}`);
    }
  };

  try {
    await runToEnd(
      join(bin, 'tsx'),
      [join(root, 'scripts', 'seed.ts'), '--persist-to', dir],
      env,
      join(dir, 'seed.log'),
    );
    const seeded = performance.now();
    copyDocsAssets(); // /docs loads Swagger UI from the assets, as `npm start` provides them
    copyModelAssets(); // and the `use` embedding provider its weights
    await serve();
    const ready = performance.now();
    return {
      baseUrl,
      dir,
      seededS: (seeded - started) / 1000,
      healthyS: (ready - started) / 1000,
      kill: async () => {
        if (server?.pid === undefined || server.exitCode !== null || server.signalCode !== null) return;
        const exited = new Promise<void>((r) => server?.once('exit', () => r()));
        try {
          process.kill(-server.pid, 'SIGKILL');
        } catch {
          // already gone
        }
        await exited;
        await closeLog();
      },
      restart: serve,
      stop: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const instance = await startLocalInstance();
  console.log(
    `[e2e] tooldrift at ${instance.baseUrl} (world ${WORLD_SEED} × ${WORLD_SCALE}): seeded in ` +
      `${instance.seededS.toFixed(1)} s, healthy after ${instance.healthyS.toFixed(1)} s`,
  );
  project.provide('baseUrl', instance.baseUrl);
  project.provide('userKey', E2E_USER_KEY);
  project.provide('adminKey', E2E_ADMIN_KEY);
  return instance.stop;
}
