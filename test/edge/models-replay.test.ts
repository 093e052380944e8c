import { describe, expect, it } from 'vitest';
import { call } from './helpers.ts';

// Issue 13 item 13: every provider the README lists appears in the catalogue, replay with why it is unavailable.
describe('GET /v1/models lists replay', () => {
  it('lists sim, workers-ai, openai and replay, replay unavailable in the Worker with a reason', async () => {
    const body = (await (await call('/v1/models')).json()) as {
      providers: { provider: string; available: boolean; reason?: string }[];
    };
    expect(body.providers.map((p) => p.provider)).toEqual(['sim', 'workers-ai', 'openai', 'replay']);
    const replay = body.providers.find((p) => p.provider === 'replay');
    expect(replay).toMatchObject({ available: false });
    expect(replay?.reason).toMatch(/Node-side/);
  });
});
