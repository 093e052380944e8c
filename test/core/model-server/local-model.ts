/**
 * The committed tiny model (gpu-jobs/micro/model/) behind the real local model server, started in the test's own
 * process on a free loopback port: the engine is node-llama-cpp on the CPU with 1 thread, exactly as
 * `npm run model:serve` runs it. No Python is involved.
 */
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../../scripts/model-server/engine.ts';
import { createModelServer } from '../../../scripts/model-server/server.ts';

export const MICRO_MODEL = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../gpu-jobs/micro/model/tooldrift-micro.gguf',
);
export const MICRO_NAME = 'tooldrift-micro';

export interface LocalModel {
  baseUrl: string;
  engine: Engine;
  close(): Promise<void>;
}

export async function startLocalModel(
  options: { contextSize?: number; defaultMaxTokens?: number } = {},
): Promise<LocalModel> {
  const engine = await Engine.load({ modelPath: MICRO_MODEL, threads: 1, contextSize: options.contextSize });
  const server = createModelServer({
    engine,
    modelName: MICRO_NAME,
    defaultMaxTokens: options.defaultMaxTokens,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    engine,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await engine.dispose();
    },
  };
}
