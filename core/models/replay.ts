/**
 * The `replay` provider: recorded model answers ("cassettes"), so agent runs can be repeated and tested
 * without a model server. Each request is keyed by a stable hash: the SHA-256 (hex) of the canonical JSON of
 * the request with defaults filled in (`n` 1, `logprobs` false) and the model resolved, so equivalent
 * requests share a key across runtimes and key orders.
 *
 * Identical requests can legitimately get different answers (sampling at temperature > 0), so a key holds a
 * list of responses and the i-th occurrence of a request in a session is answered by the i-th recording.
 * Modes:
 * - `record`: every request goes to the wrapped model; this session's answers replace what the store held.
 * - `replay`: answers come from the store only; a request (or occurrence) that was never recorded throws
 *   `CassetteMissError` naming the request hash.
 * - `record-missing`: replays what exists and records what does not.
 * Replayed responses are the recorded ones (candidates, model, token counts), with latency and cost 0, since
 * nothing was spent.
 *
 * Cassettes are kept through a `CassetteStore`: in memory here; a JSON-file store for Node lives in
 * scripts/lib/cassette-file.ts. Both read and write the `CassetteFile` format below.
 */
import { z } from 'zod';
import { canonicalJson, sha256Hex } from './digest.ts';
import { CassetteMissError, ModelConfigError } from './errors.ts';
import type { Capabilities, GenerateRequest, GenerateResponse, TextModel } from './types.ts';

export const CASSETTE_FORMAT = 'tooldrift-cassette-v1';

export type ReplayMode = 'record' | 'replay' | 'record-missing';

export interface CassetteEntry {
  /** The normalised request the hash was computed from (kept for people reading the file). */
  request: Record<string, unknown>;
  /** Responses in the order the request occurred. */
  responses: GenerateResponse[];
}

export interface CassetteStore {
  get(hash: string): Promise<CassetteEntry | undefined>;
  put(hash: string, entry: CassetteEntry): Promise<void>;
}

/** The request with defaults filled in and the model resolved: what the hash covers. */
export function normalizeRequest(request: GenerateRequest, defaultModel: string): Record<string, unknown> {
  return {
    format: CASSETTE_FORMAT,
    model: request.model ?? defaultModel,
    messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    n: request.n ?? 1,
    temperature: request.temperature,
    topP: request.topP,
    frequencyPenalty: request.frequencyPenalty,
    stop: request.stop && request.stop.length > 0 ? request.stop : undefined,
    maxTokens: request.maxTokens,
    seed: request.seed,
    logprobs: request.logprobs ?? false,
    jsonSchema: request.jsonSchema,
  };
}

/** Stable request hash: SHA-256 (hex) of the canonical JSON of the normalised request. */
export function requestHash(request: GenerateRequest, defaultModel: string): Promise<string> {
  return sha256Hex(canonicalJson(normalizeRequest(request, defaultModel)));
}

const UsageSchema = z.object({
  calls: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  latencyMs: z.number(),
  costUsd: z.number(),
});

const ResponseSchema = z.object({
  candidates: z.array(
    z.object({
      text: z.string(),
      finishReason: z.enum(['stop', 'length', 'error', 'other']),
      logprob: z.object({ sum: z.number(), count: z.number() }).optional(),
    }),
  ),
  model: z.string(),
  usage: UsageSchema,
});

const CassetteFileSchema = z.object({
  format: z.literal(CASSETTE_FORMAT),
  entries: z.record(
    z.string().regex(/^[0-9a-f]{64}$/),
    z.object({ request: z.record(z.string(), z.unknown()), responses: z.array(ResponseSchema) }),
  ),
});

export type CassetteFile = z.infer<typeof CassetteFileSchema>;

/** Validates a cassette read from disk or elsewhere. */
export function parseCassetteFile(value: unknown, source: string): CassetteFile {
  const parsed = CassetteFileSchema.safeParse(value);
  if (!parsed.success)
    throw new ModelConfigError(
      `replay: ${source} is not a ${CASSETTE_FORMAT} cassette: ${z.prettifyError(parsed.error)}`,
      'replay',
    );
  return parsed.data;
}

/** A cassette as stable JSON text (entries sorted by hash, so recordings diff cleanly). */
export function serializeCassette(entries: ReadonlyMap<string, CassetteEntry>): string {
  const sorted: Record<string, CassetteEntry> = {};
  for (const hash of [...entries.keys()].sort()) sorted[hash] = entries.get(hash)!;
  return `${JSON.stringify({ format: CASSETTE_FORMAT, entries: sorted }, null, 2)}\n`;
}

export class MemoryCassetteStore implements CassetteStore {
  readonly entries = new Map<string, CassetteEntry>();

  constructor(initial?: CassetteFile) {
    if (initial) for (const [hash, entry] of Object.entries(initial.entries)) this.entries.set(hash, entry);
  }

  async get(hash: string): Promise<CassetteEntry | undefined> {
    return this.entries.get(hash);
  }

  async put(hash: string, entry: CassetteEntry): Promise<void> {
    this.entries.set(hash, entry);
  }

  toJSON(): string {
    return serializeCassette(this.entries);
  }
}

export interface ReplayOptions {
  mode: ReplayMode;
  store: CassetteStore;
  /** The model to record from; required by `record` and `record-missing`. */
  inner?: TextModel | undefined;
  /** The model name requests are keyed under; defaults to the inner model's. */
  model?: string | undefined;
  /**
   * What the recorded model could do, reported while replaying without it. Agents shape their requests by
   * capabilities (asking for log-probabilities only where offered), and the hash covers the request, so
   * these must match the recording model's or every request misses. Unset flags default to false (`n` to
   * true: a recording holds all k candidates either way); set `simulated` when replaying the simulator.
   */
  capabilities?: Partial<Omit<Capabilities, 'embeddings'>> | undefined;
}

export class ReplayModel implements TextModel {
  readonly provider = 'replay';
  readonly model: string;
  readonly capabilities: Capabilities;
  readonly mode: ReplayMode;
  readonly #store: CassetteStore;
  readonly #inner: TextModel | undefined;
  /** Occurrences seen this session, per hash. */
  readonly #seen = new Map<string, number>();
  /** The response list this session writes, per hash (a `record` session starts every hash afresh). */
  readonly #recorded = new Map<string, Promise<GenerateResponse[]>>();

  constructor(options: ReplayOptions) {
    if (options.mode !== 'replay' && !options.inner) {
      throw new ModelConfigError(`replay: mode ${options.mode} needs a model to record from`, 'replay');
    }
    const model = options.model ?? options.inner?.model;
    if (!model) throw new ModelConfigError('replay: name the model the cassette was recorded from', 'replay');
    this.mode = options.mode;
    this.model = model;
    this.#store = options.store;
    this.#inner = options.inner;
    this.capabilities = options.inner?.capabilities ?? {
      n: options.capabilities?.n ?? true,
      logprobs: options.capabilities?.logprobs ?? false,
      seed: options.capabilities?.seed ?? false,
      structuredOutput: options.capabilities?.structuredOutput ?? false,
      embeddings: false,
      // A recording of the simulated policy is still the simulator's output.
      simulated: options.capabilities?.simulated ?? false,
    };
  }

  async generate(request: GenerateRequest, signal?: AbortSignal): Promise<GenerateResponse> {
    const normalized = normalizeRequest(request, this.model);
    const hash = await sha256Hex(canonicalJson(normalized));
    const occurrence = this.#seen.get(hash) ?? 0;
    this.#seen.set(hash, occurrence + 1);

    if (this.mode !== 'record') {
      const stored = (await this.#store.get(hash))?.responses ?? [];
      const recorded = stored[occurrence];
      if (recorded) return replayed(recorded);
      if (this.mode === 'replay') {
        const detail =
          stored.length === 0
            ? 'never recorded'
            : `occurrence ${occurrence + 1} requested, ${stored.length} recorded`;
        throw new CassetteMissError(hash, String(normalized.model), detail);
      }
    }

    const response = await this.#inner!.generate(request, signal);
    await this.#append(hash, normalized, response);
    return response;
  }

  async #append(hash: string, request: Record<string, unknown>, response: GenerateResponse): Promise<void> {
    // One list per hash, created once even when identical requests finish together.
    let list = this.#recorded.get(hash);
    if (!list) {
      list =
        this.mode === 'record'
          ? Promise.resolve([])
          : this.#store.get(hash).then((entry) => [...(entry?.responses ?? [])]);
      this.#recorded.set(hash, list);
    }
    const responses = await list;
    responses.push(structuredClone(response));
    await this.#store.put(hash, { request, responses: [...responses] });
  }
}

function replayed(recorded: GenerateResponse): GenerateResponse {
  const copy = structuredClone(recorded);
  copy.usage = { ...copy.usage, latencyMs: 0, costUsd: 0 };
  return copy;
}
