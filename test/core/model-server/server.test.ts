/**
 * `npm run model:serve`'s server with the committed tiny model, driven by the official `openai` client (and raw
 * fetch for the bad requests a client library would not send).
 */
import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalModel, MICRO_NAME, startLocalModel } from './local-model.ts';

let local: LocalModel;
let client: OpenAI;

beforeAll(async () => {
  local = await startLocalModel();
  client = new OpenAI({ baseURL: local.baseUrl, apiKey: 'unused', maxRetries: 0 });
}, 120_000);
afterAll(async () => {
  await local?.close();
});

const messages = [
  {
    role: 'system' as const,
    content: 'Answer the question below by working with tools, one step at a time.',
  },
  {
    role: 'user' as const,
    content: 'Question: What was the highest coffee price from 2010-01-01 to 2011-01-01?',
  },
];

async function apiError(call: () => Promise<unknown>): Promise<APIError> {
  try {
    await call();
  } catch (error) {
    if (error instanceof APIError) return error;
    throw error;
  }
  throw new Error('expected an API error');
}

describe('model server: the official openai client', () => {
  it('lists the model with its label', async () => {
    const list = await client.models.list();
    expect(list.data.map((m) => m.id)).toEqual([MICRO_NAME]);
    expect(JSON.stringify(list.data[0])).toContain('trained on simulator trajectories');
    expect((await client.models.retrieve(MICRO_NAME)).id).toBe(MICRO_NAME);
  });

  it('the chat template in the GGUF renders what training fed the model', () => {
    const check = JSON.parse(String(local.engine.metadata('tooldrift.micro.chat_check'))) as {
      messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
      ids: number[];
    };
    const prompt = local.engine.chatTokens(check.messages.slice(0, 2));
    expect(check.ids.slice(0, prompt.length)).toEqual(prompt);
    // What follows the prompt in training is the assistant's content and the end-of-turn token.
    const rest = local.engine.model.detokenize(check.ids.slice(prompt.length) as never, true);
    expect(rest).toBe(`${check.messages[2]?.content}<|im_end|>\n`);
  });

  it('n choices with log-probabilities, stop strings and exact usage', async () => {
    const r = await client.chat.completions.create({
      model: MICRO_NAME,
      messages,
      n: 3,
      logprobs: true,
      top_logprobs: 2,
      seed: 11,
      temperature: 0.8,
      stop: ['Observation:', '\n\n'],
      max_tokens: 40,
    });
    expect(r.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(r.usage?.prompt_tokens).toBe(local.engine.chatTokens(messages).length);
    expect(r.choices.some((c) => (c.logprobs?.content?.length ?? 0) > 0)).toBe(true);
    for (const c of r.choices) {
      const text = c.message.content ?? '';
      expect(text).not.toContain('Observation:');
      expect(text).not.toContain('\n\n');
      expect(['stop', 'length']).toContain(c.finish_reason);
      const tokens = c.logprobs?.content ?? [];
      if (text !== '') expect(tokens.length).toBeGreaterThan(0);
      // The tokens spell the text (the last one may run into the cut stop string).
      expect(
        tokens
          .map((t) => t.token)
          .join('')
          .startsWith(text),
      ).toBe(true);
      for (const t of tokens) {
        expect(t.logprob).toBeLessThanOrEqual(0);
        expect(t.top_logprobs).toHaveLength(2);
        const [best, second] = t.top_logprobs;
        expect(best!.logprob).toBeGreaterThanOrEqual(second!.logprob);
        expect(t.logprob).toBeLessThanOrEqual(best!.logprob + 1e-9);
      }
    }
  });

  it('counts completion tokens exactly: max_tokens ends a choice with length', async () => {
    const r = await client.chat.completions.create({
      model: MICRO_NAME,
      messages,
      n: 2,
      logprobs: true,
      seed: 3,
      temperature: 1,
      max_tokens: 12,
    });
    let generated = 0;
    for (const c of r.choices) {
      const n = c.logprobs?.content?.length ?? 0;
      expect(n).toBeLessThanOrEqual(12);
      // Without stop strings every generated token is in the answer; `stop` means the model ended its turn.
      expect(c.finish_reason).toBe(n === 12 ? 'length' : 'stop');
      generated += n;
    }
    expect(r.usage?.completion_tokens).toBe(generated);
    expect(r.usage?.total_tokens).toBe((r.usage?.prompt_tokens ?? 0) + generated);
  });

  it('a seed repeats the sampling; temperature 0 is greedy', async () => {
    const ask = (seed: number, temperature: number) =>
      client.chat.completions
        .create({ model: MICRO_NAME, messages, n: 2, seed, temperature, max_tokens: 24 })
        .then((r) => r.choices.map((c) => c.message.content));
    const a = await ask(21, 1);
    expect(await ask(21, 1)).toEqual(a);
    expect(await ask(22, 1)).not.toEqual(a);
    const [g1, g2] = await ask(1, 0);
    expect(g1).toBe(g2);
    expect((await ask(2, 0))[0]).toBe(g1);
  });

  it('streams the same text as a whole answer, with usage at the end', async () => {
    const body = {
      model: MICRO_NAME,
      messages,
      n: 2,
      seed: 5,
      temperature: 0.7,
      max_tokens: 20,
      stop: ['Observation:'],
    };
    const whole = await client.chat.completions.create(body);
    const stream = await client.chat.completions.create({
      ...body,
      stream: true,
      stream_options: { include_usage: true },
    });
    const texts = ['', ''];
    const finish: (string | null)[] = [null, null];
    let usage: unknown = null;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      for (const c of chunk.choices) {
        texts[c.index] += c.delta.content ?? '';
        if (c.finish_reason) finish[c.index] = c.finish_reason;
      }
    }
    expect(texts).toEqual(whole.choices.map((c) => c.message.content));
    expect(finish).toEqual(whole.choices.map((c) => c.finish_reason));
    expect(usage).toEqual(whole.usage);
  });

  it('serves /v1/completions with per-token log-probabilities and offsets', async () => {
    const r = await client.completions.create({
      model: MICRO_NAME,
      prompt: 'Thought: I need the coffee prices.\n\nAction:',
      max_tokens: 8,
      logprobs: 2,
      seed: 9,
      temperature: 0,
    });
    const choice = r.choices[0]!;
    const lp = choice.logprobs!;
    expect(lp.tokens?.join('')).toBe(choice.text);
    expect(lp.text_offset?.[0]).toBe(0);
    for (let i = 1; i < (lp.tokens?.length ?? 0); i++)
      expect(lp.text_offset![i]).toBe(lp.text_offset![i - 1]! + lp.tokens![i - 1]!.length);
    expect(r.usage?.completion_tokens).toBe(lp.tokens?.length);
  });

  it('answers bad requests with OpenAI-style errors naming the field', async () => {
    const bad = async (body: Record<string, unknown>) =>
      apiError(() => client.chat.completions.create({ model: MICRO_NAME, messages, ...body } as never));
    let e = await bad({ messages: [] });
    expect([e.status, e.param, e.type]).toEqual([400, 'messages', 'invalid_request_error']);
    e = await bad({ temperature: 3 });
    expect([e.status, e.param]).toEqual([400, 'temperature']);
    e = await bad({ n: 0 });
    expect([e.status, e.param]).toEqual([400, 'n']);
    e = await bad({ top_logprobs: 3 });
    expect([e.status, e.param]).toEqual([400, 'top_logprobs']);
    e = await bad({ tools: [{ type: 'function', function: { name: 'f' } }] });
    expect([e.status, e.param, e.code]).toEqual([400, 'tools', 'unsupported_parameter']);
    e = await bad({ model: 'gpt-4o' });
    expect([e.status, e.code]).toEqual([404, 'model_not_found']);
    e = await bad({ messages: [{ role: 'user', content: 'word '.repeat(5000) }] });
    expect([e.status, e.code]).toEqual([400, 'context_length_exceeded']);
  });

  it('answers transport-level mistakes with 4xx JSON errors', async () => {
    type ErrorBody = { error: { message: string; code: string | null } };
    const post = (path: string, body: string, type = 'application/json') =>
      fetch(`${local.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
    let r = await post('/chat/completions', '{"model":');
    expect(r.status).toBe(400);
    expect(((await r.json()) as ErrorBody).error.message).toMatch(/not valid JSON/);
    r = await post('/chat/completions', 'hello', 'text/plain');
    expect(r.status).toBe(415);
    r = await post('/chat/completions', '[1]');
    expect(r.status).toBe(400);
    r = await fetch(`${local.baseUrl}/chat/completions`);
    expect([r.status, r.headers.get('allow')]).toEqual([405, 'POST']);
    r = await fetch(`${local.baseUrl}/embeddings`, { method: 'POST' });
    expect(r.status).toBe(404);
    expect(((await r.json()) as ErrorBody).error.code).toBe('not_found');
  });

  it('a client that goes away cancels its generation', async () => {
    const before = { ...local.engine.stats };
    const controller = new AbortController();
    const pending = client.chat.completions.create(
      { model: MICRO_NAME, messages, max_tokens: 1500, temperature: 1, seed: 1 },
      { signal: controller.signal },
    );
    // Abort once generation has begun.
    while (local.engine.stats.generatedTokens === before.generatedTokens)
      await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(pending).rejects.toThrow();
    while (local.engine.stats.cancelled === before.cancelled) await new Promise((r) => setTimeout(r, 5));
    expect(local.engine.stats.generatedTokens - before.generatedTokens).toBeLessThan(1500);
    // The server goes on serving.
    const r = await client.chat.completions.create({ model: MICRO_NAME, messages, max_tokens: 4, seed: 1 });
    expect(r.choices).toHaveLength(1);
  });
});
