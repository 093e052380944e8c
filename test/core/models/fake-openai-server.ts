/**
 * An in-process fake of an OpenAI-compatible server (node:http on 127.0.0.1, a random port): each request
 * takes the next scripted reply, and every request is recorded (path, headers, JSON body) for assertions.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | { status?: number; headers?: Record<string, string>; json: unknown }
  | { status?: number; headers?: Record<string, string>; text: string; contentType?: string }
  /** Accept the request and never answer. */
  | { hang: true };

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeServer {
  baseUrl: string;
  received: ReceivedRequest[];
  /** Queue replies, answered in order; when the queue is empty the `fallback` answers. */
  script(...replies: Reply[]): void;
  fallback: Reply;
  close(): Promise<void>;
}

export async function startFakeOpenAI(): Promise<FakeServer> {
  const queue: Reply[] = [];
  const received: ReceivedRequest[] = [];
  const state = { fallback: { status: 500, json: { error: { message: 'no reply scripted' } } } as Reply };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>),
      });
      const reply = queue.shift() ?? state.fallback;
      if ('hang' in reply) return;
      const status = reply.status ?? 200;
      if ('json' in reply) {
        res.writeHead(status, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.json));
      } else {
        res.writeHead(status, { 'content-type': reply.contentType ?? 'application/json', ...reply.headers });
        res.end(reply.text);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    script: (...replies) => queue.push(...replies),
    get fallback() {
      return state.fallback;
    },
    set fallback(reply: Reply) {
      state.fallback = reply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging requests keep their sockets open; drop them so close() can finish.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A chat-completions body with the given choices (logprobs given per choice as token log-probabilities). */
export function completion(
  choices: Array<{ text: string | null; finish?: string | null; logprobs?: number[] }>,
  usage = { prompt_tokens: 12, completion_tokens: 5 },
): Record<string, unknown> {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'fake-model',
    choices: choices.map((c, index) => ({
      index,
      message: { role: 'assistant', content: c.text },
      finish_reason: c.finish === undefined ? 'stop' : c.finish,
      logprobs: c.logprobs
        ? {
            content: c.logprobs.map((logprob, i) => ({
              token: `t${i}`,
              logprob,
              bytes: null,
              top_logprobs: [],
            })),
          }
        : null,
    })),
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}
