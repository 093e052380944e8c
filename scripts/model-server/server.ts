/**
 * The HTTP side of the local model server (`npm run model:serve`): an OpenAI-compatible API over one Engine, on
 * node:http. Routes: `GET /v1/models` (and `/v1/models/{id}`), `POST /v1/chat/completions`, `POST
 * /v1/completions`, `GET /health`. Streaming answers are server-sent events (`data: {chunk}` … `data: [DONE]`).
 * A client that disconnects cancels its generation (or its place in the queue).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  ApiError,
  chatChunk,
  chatCompletion,
  completion,
  completionChunk,
  type ParsedRequest,
  parseChatRequest,
  parseCompletionRequest,
  type ResponseHead,
  usage,
  usageChunk,
} from './api.ts';
import {
  type ChoiceResult,
  ContextLengthError,
  type Delta,
  type Engine,
  type GenerateParams,
} from './engine.ts';

export interface ModelServerOptions {
  engine: Engine;
  /** The model id clients send as `model` (and `/v1/models` lists). */
  modelName: string;
  /**
   * Completion tokens per choice when a request sets no `max_tokens` (llama-server's `--n-predict`); default:
   * until the context is full, as vLLM does.
   */
  defaultMaxTokens?: number | undefined;
  /** Largest accepted request body in bytes (default 8 MiB). */
  maxBodyBytes?: number;
  /** Written once per request (method, path, status, ms), when given. */
  log?: (line: string) => void;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { ...JSON_HEADERS, ...headers });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type))
    throw new ApiError(
      415,
      `Expected a JSON body (content-type: application/json), got ${JSON.stringify(type)}.`,
    );
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new ApiError(413, `The request body is larger than ${limit} bytes.`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new ApiError(
      400,
      `The request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function generateParams(r: ParsedRequest, defaultMaxTokens: number | undefined): GenerateParams {
  return {
    n: r.n,
    temperature: r.temperature,
    topP: r.topP,
    frequencyPenalty: r.frequencyPenalty,
    presencePenalty: r.presencePenalty,
    maxTokens: r.maxTokens ?? defaultMaxTokens,
    stop: r.stop,
    seed: r.seed,
    logprobs: r.logprobs,
    topLogprobs: r.topLogprobs,
  };
}

class EventStream {
  readonly #res: ServerResponse;
  constructor(res: ServerResponse) {
    this.#res = res;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
  }
  send(data: unknown): void {
    this.#res.write(`data: ${JSON.stringify(data)}\n\n`);
  }
  end(): void {
    this.#res.write('data: [DONE]\n\n');
    this.#res.end();
  }
}

export function createModelServer(options: ModelServerOptions): Server {
  const { engine, modelName } = options;
  const limit = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const created = Math.floor(Date.now() / 1000);
  const fingerprint = `tooldrift-local-${engine.model.fileInfo.version}`;
  const modelCard = () => ({
    id: modelName,
    object: 'model',
    created,
    owned_by: 'local',
    description: String(engine.metadata('general.description') ?? ''),
    context_length: engine.contextSize,
  });

  function head(r: ParsedRequest, prefix: string): ResponseHead {
    if (r.model !== modelName)
      throw new ApiError(
        404,
        `The model \`${r.model}\` does not exist. This server serves \`${modelName}\`.`,
        {
          param: 'model',
          code: 'model_not_found',
        },
      );
    return {
      id: `${prefix}-${randomUUID().replaceAll('-', '')}`,
      created: Math.floor(Date.now() / 1000),
      model: modelName,
      fingerprint,
    };
  }

  async function chat(body: unknown, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const r = parseChatRequest(body);
    const h = head(r, 'chatcmpl');
    const prompt = engine.chatTokens(r.messages);
    engine.assertFits(prompt);
    const params = generateParams(r, options.defaultMaxTokens);
    if (!r.stream) {
      const choices = await engine.generate(prompt, params, undefined, signal);
      send(res, 200, chatCompletion(h, choices, r.logprobs, usage(prompt.length, generatedOf(choices))));
      return;
    }
    const stream = new EventStream(res);
    const started = new Set<number>();
    const onDelta = (d: Delta) => {
      if (!started.has(d.index)) {
        started.add(d.index);
        stream.send(chatChunk(h, { index: d.index, role: true }, false));
      }
      if (d.text !== '' || d.tokens.length > 0)
        stream.send(chatChunk(h, { index: d.index, delta: d }, r.logprobs));
    };
    const choices = await engine.generate(prompt, params, onDelta, signal);
    for (const c of choices) {
      if (!started.has(c.index)) stream.send(chatChunk(h, { index: c.index, role: true }, false));
      stream.send(chatChunk(h, { index: c.index, finishReason: c.finishReason }, false));
    }
    if (r.includeUsage)
      stream.send(usageChunk(h, 'chat.completion.chunk', usage(prompt.length, generatedOf(choices))));
    stream.end();
  }

  async function complete(body: unknown, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const r = parseCompletionRequest(body);
    const h = head(r, 'cmpl');
    const prompts = r.prompts.map((p) => engine.textTokens(p));
    for (const p of prompts) engine.assertFits(p);
    const promptTokens = prompts.reduce((s, p) => s + p.length, 0);
    const params = generateParams(r, options.defaultMaxTokens);
    const stream = r.stream ? new EventStream(res) : null;
    const run = async () => {
      const all: ChoiceResult[] = [];
      for (const [p, prompt] of prompts.entries()) {
        const offsets = new Map<number, number>();
        const onDelta = stream
          ? (d: Delta) => {
              const index = p * r.n + d.index;
              const offset = offsets.get(index) ?? 0;
              offsets.set(index, offset + d.text.length);
              stream.send(completionChunk(h, { index, delta: d, offset }, r.logprobs));
            }
          : undefined;
        const choices = await engine.generate(prompt, params, onDelta, signal);
        all.push(...choices.map((c) => ({ ...c, index: p * r.n + c.index })));
      }
      return all;
    };
    if (!stream) {
      const all = await run();
      send(res, 200, completion(h, all, r.logprobs, usage(promptTokens, generatedOf(all))));
      return;
    }
    const all = await run();
    for (const c of all)
      stream.send(completionChunk(h, { index: c.index, finishReason: c.finishReason }, false));
    if (r.includeUsage) stream.send(usageChunk(h, 'text_completion', usage(promptTokens, generatedOf(all))));
    stream.end();
  }

  return createServer((req, res) => {
    const started = performance.now();
    const controller = new AbortController();
    // The response closing before it finished means the client is gone: stop generating for it.
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    });
    const path = (req.url ?? '/').split('?')[0] as string;
    const handle = async () => {
      const route = (methods: string[]) => {
        if (!methods.includes(req.method ?? ''))
          throw new ApiError(405, `Method ${req.method} is not allowed on ${path}.`, {
            code: 'method_not_allowed',
          });
      };
      if (path === '/health') {
        route(['GET']);
        return send(res, 200, { status: 'ok', model: modelName });
      }
      if (path === '/v1/models') {
        route(['GET']);
        return send(res, 200, { object: 'list', data: [modelCard()] });
      }
      if (path.startsWith('/v1/models/')) {
        route(['GET']);
        const id = decodeURIComponent(path.slice('/v1/models/'.length));
        if (id !== modelName)
          throw new ApiError(404, `The model \`${id}\` does not exist.`, {
            param: 'model',
            code: 'model_not_found',
          });
        return send(res, 200, modelCard());
      }
      if (path === '/v1/chat/completions') {
        route(['POST']);
        return chat(await readJson(req, limit), res, controller.signal);
      }
      if (path === '/v1/completions') {
        route(['POST']);
        return complete(await readJson(req, limit), res, controller.signal);
      }
      throw new ApiError(404, `Unknown route ${req.method} ${path}.`, { code: 'not_found' });
    };
    handle()
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const api =
          error instanceof ApiError
            ? error
            : error instanceof ContextLengthError
              ? new ApiError(400, error.message, { param: 'messages', code: 'context_length_exceeded' })
              : new ApiError(
                  500,
                  `The server failed: ${error instanceof Error ? error.message : String(error)}`,
                );
        // Mid-stream: the error is the last event (OpenAI's streaming error shape), then the stream ends.
        if (res.headersSent) {
          res.end(`data: ${JSON.stringify(api.body())}\n\n`);
        } else {
          send(
            res,
            api.status,
            api.body(),
            api.status === 405
              ? { allow: path === '/health' || path.startsWith('/v1/models') ? 'GET' : 'POST' }
              : {},
          );
        }
      })
      .finally(() => {
        options.log?.(
          `${req.method} ${path} ${res.statusCode} ${Math.round(performance.now() - started)} ms`,
        );
      });
  });
}

function generatedOf(choices: readonly ChoiceResult[]): number {
  return choices.reduce((s, c) => s + c.generated, 0);
}
