/**
 * A local fake OpenAI-compatible model server for e2e tests: `POST /v1/chat/completions` on 127.0.0.1 (a free
 * port), answering after `latencyMs` with a plausible ReAct step, or failing at seeded rates with 429, a 5xx, or
 * a timeout (the request is held, never answered, until the client gives up). The n-th request's fate is the
 * n-th draw of a seeded generator, so the same seed gives the same sequence of fates in arrival order.
 *
 * It counts what it did, per model name and in total: answered calls with the usage tokens it reported, failures
 * by kind, and the most requests in flight at once (received and not yet answered or abandoned).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Rng } from '../../core/util/random.ts';

export interface FakeOpenAIOptions {
  seed: string;
  /** Delay of every answered (and every failed, except timeouts) request. */
  latencyMs: number;
  rates: { rateLimited: number; serverError: number; timeout: number };
}

export interface FakeCounts {
  ok: number;
  promptTokens: number;
  completionTokens: number;
  rateLimited: number;
  serverError: number;
  timeout: number;
}

export interface FakeOpenAI {
  baseUrl: string;
  /** Totals over every model. */
  total: FakeCounts;
  /** Per model name of the request body. */
  byModel: Map<string, FakeCounts>;
  maxInFlight: number;
  close: () => Promise<void>;
}

function zero(): FakeCounts {
  return { ok: 0, promptTokens: 0, completionTokens: 0, rateLimited: 0, serverError: 0, timeout: 0 };
}

/** Four-characters-a-token estimate: any deterministic count will do, it only has to be reported and summed. */
function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** A ReAct step: about half the time a tool call, otherwise a Finish (correctness does not matter here). */
function step(rng: Rng): string {
  if (rng.chance(0.5))
    return 'Thought: I should look at the data first.\nAction: LoadDB\nAction Input: {"DBName": "coffee"}';
  return `Thought: I have enough to answer.\nAction: Finish\nAction Input: {"answer": "${rng.int(1, 99)}"}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      body += d;
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

export async function startFakeOpenAI(options: FakeOpenAIOptions): Promise<FakeOpenAI> {
  const fates = new Rng(`${options.seed}/fates`);
  const answers = new Rng(`${options.seed}/answers`);
  const total = zero();
  const byModel = new Map<string, FakeCounts>();
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const held = new Set<ServerResponse>();

  const count = (model: string, apply: (c: FakeCounts) => void) => {
    apply(total);
    const c = byModel.get(model) ?? zero();
    apply(c);
    byModel.set(model, c);
  };

  const server: Server = createServer(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    let open = true;
    const done = () => {
      if (open) {
        open = false;
        inFlight--;
        held.delete(res);
      }
    };
    res.on('close', done);
    const text = await readBody(req);
    const body = JSON.parse(text) as { model?: string; n?: number };
    const model = body.model ?? '';
    const draw = fates.next();
    const { rateLimited, serverError, timeout } = options.rates;
    if (draw < timeout) {
      // Held until the client's deadline aborts the request (then `close` ends it).
      count(model, (c) => c.timeout++);
      held.add(res);
      return;
    }
    await new Promise((r) => setTimeout(r, options.latencyMs));
    if (!open) return;
    if (draw < timeout + rateLimited) {
      count(model, (c) => c.rateLimited++);
      res
        .writeHead(429, { 'content-type': 'application/json' })
        .end('{"error":{"message":"rate limited (fake)","type":"rate_limit"}}');
      return;
    }
    if (draw < timeout + rateLimited + serverError) {
      count(model, (c) => c.serverError++);
      const status = draw < timeout + rateLimited + serverError / 2 ? 500 : 503;
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end('{"error":{"message":"server error (fake)","type":"server_error"}}');
      return;
    }
    const n = Math.max(1, body.n ?? 1);
    const choices = Array.from({ length: n }, (_, index) => ({
      index,
      message: { role: 'assistant', content: step(answers) },
      finish_reason: 'stop',
    }));
    const usage = {
      prompt_tokens: tokens(text),
      completion_tokens: choices.reduce((s, c) => s + tokens(c.message.content), 0),
    };
    count(model, (c) => {
      c.ok++;
      c.promptTokens += usage.prompt_tokens;
      c.completionTokens += usage.completion_tokens;
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `fake-${total.ok}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices,
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      }),
    );
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    total,
    byModel,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
