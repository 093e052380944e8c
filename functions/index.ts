/**
 * The Worker entry: HTTP (the Hono app), cron triggers, the JOBS queue consumer, and the Durable Object
 * classes. Handlers stay thin; the work happens in the modules they call.
 */

import { asBackground, enterForeground } from '../core/util/foreground.ts';
import type { Bindings } from '../edge/env.ts';
import { readConfig } from '../edge/env.ts';
import { consumeJobBatch } from '../edge/jobs/consumer.ts';
import { runScheduledTick } from '../edge/jobs/scheduled.ts';
import { createLogger } from '../edge/log.ts';
import { createApp } from './app.ts';

export { DraftToolObject } from '../durable-objects/draft-tool.ts';
export { EpisodeSession } from '../durable-objects/episode-session.ts';
export { RateLimiter } from '../durable-objects/rate-limiter.ts';
export { SearchTreeObject } from '../durable-objects/search-tree.ts';
export { SteExplorerObject } from '../durable-objects/ste-explorer.ts';
export { ToolIndexShard } from '../durable-objects/tool-index-shard.ts';

const app = createApp();

export default {
  // Counted while it is answered (until its Response, not its streamed body): background work defers to it.
  async fetch(request, env, ctx) {
    const leave = enterForeground();
    try {
      return await app.fetch(request, env, ctx);
    } finally {
      leave();
    }
  },

  async scheduled(controller, env, ctx) {
    const log = createLogger(readConfig(env).logLevel, { handler: 'scheduled', cron: controller.cron });
    ctx.waitUntil(asBackground(() => runScheduledTick(controller.cron, controller.scheduledTime, env, log)));
  },

  async queue(batch, env, _ctx) {
    const log = createLogger(readConfig(env).logLevel, { handler: 'queue', queue: batch.queue });
    await asBackground(() => consumeJobBatch(batch, env, log));
  },
} satisfies ExportedHandler<Bindings, unknown>;
