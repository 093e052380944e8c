import { describe, expect, it } from 'vitest';
import { call } from './helpers.ts';

describe('GET /v1/models', () => {
  it('lists the providers this deployment can use, the simulator labelled as such', async () => {
    const res = await call('/v1/models');
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      default: { provider: string; model: string };
      providers: {
        provider: string;
        available: boolean;
        reason?: string;
        capabilities: { simulated: boolean };
      }[];
      embeddings: { provider: string };
    };
    expect(body.default).toEqual({ provider: 'sim', model: 'tooldrift-sim-v1' });
    const byName = Object.fromEntries(body.providers.map((p) => [p.provider, p]));
    expect(byName.sim).toMatchObject({ available: true, capabilities: { simulated: true } });
    // The tests run like local development: no AI binding, no OpenAI-compatible server configured.
    expect(byName['workers-ai']).toMatchObject({ available: false, capabilities: { simulated: false } });
    expect(byName['workers-ai']?.reason).toContain('AI binding');
    expect(byName.openai).toMatchObject({ available: false });
    expect(body.embeddings.provider).toBe('lexical');
  });
});
