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

describe('model choice', () => {
  it('gives the simulated policy by default and refuses providers this deployment lacks', async () => {
    const { env } = await import('cloudflare:workers');
    const { textModelFor } = await import('../../edge/models.ts');
    // textModelFor throws a domain error (edge/errors.ts); its slug is the problem type the HTTP boundary uses.
    const { DomainError: ProblemError } = await import('../../edge/errors.ts');
    const sim = textModelFor(env);
    expect(sim.provider).toBe('sim');
    expect(sim.capabilities.simulated).toBe(true);
    const reply = await sim.generate({
      messages: [{ role: 'user', content: 'Question: What is 2 + 3?' }],
      seed: 1,
    });
    expect(reply.model).toContain('(simulator)');
    for (const provider of ['workers-ai', 'openai'] as const) {
      let error: unknown;
      try {
        textModelFor(env, { provider });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ProblemError);
      expect((error as InstanceType<typeof ProblemError>).slug).toBe('validation-error');
      expect((error as Error).message).toContain(`Model provider ${provider} is not available here`);
    }
  });
});
