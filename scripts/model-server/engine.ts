/**
 * The inference engine of the local model server: one GGUF model run by node-llama-cpp (llama.cpp's prebuilt CPU
 * binaries from the npm package; `build: 'never'`, so nothing is ever downloaded or compiled), one context with
 * one sequence, requests served one at a time in arrival order.
 *
 * - Prompts: chat messages go through the chat wrapper node-llama-cpp resolves from the GGUF's metadata
 *   (`tokenizer.chat_template`, matched to a built-in wrapper or rendered as Jinja); raw prompts are tokenized
 *   as they are.
 * - Tokens are chosen here (sampling.ts) from the full next-token distribution llama.cpp returns, so the
 *   log-probabilities are the model's own and a request's `seed` repeats its sampling exactly.
 * - The KV cache keeps the longest common prefix with the previous request (and between the `n` choices of
 *   one request), so a multi-turn agent whose prompt grows by a step re-evaluates only the new tokens.
 * - A request is cancelled between two tokens when its signal aborts (the client went away, or a deadline).
 */
import {
  type ChatHistoryItem,
  type ChatWrapper,
  getLlama,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  LlamaLogLevel,
  type LlamaModel,
  resolveChatWrapper,
  type Token,
} from 'node-llama-cpp';
import {
  choiceRng,
  type Distribution,
  pickToken,
  type SamplingParams,
  stableLength,
  stopIndex,
  tokenLogprob,
  topLogprobs,
} from './sampling.ts';

export interface EngineOptions {
  modelPath: string;
  /** Context size in tokens (default: the model's training context, capped at 8192). */
  contextSize?: number | undefined;
  /** CPU threads (default 1: the project's machines are shared 2-core machines). */
  threads?: number | undefined;
}

export interface ChatInputMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface GenerateParams extends SamplingParams {
  /** Candidates (choices) to generate from the same prompt. */
  n: number;
  /** At most this many tokens per choice (default: until the context is full). */
  maxTokens?: number | undefined;
  stop: string[];
  seed?: number | undefined;
  /** Keep per-token log-probabilities, with this many alternatives per position. */
  logprobs: boolean;
  topLogprobs: number;
}

export interface TokenRecord {
  id: number;
  text: string;
  logprob: number;
  top: { text: string; logprob: number }[];
}

export interface ChoiceResult {
  index: number;
  text: string;
  finishReason: 'stop' | 'length';
  /** The generated tokens that spell `text` (present when log-probabilities were asked for). */
  tokens: TokenRecord[];
  /** Tokens generated, the stop string's and excluded from `text` included (usage counts them). */
  generated: number;
}

export interface Delta {
  index: number;
  text: string;
  tokens: TokenRecord[];
}

/** Thrown for a prompt that does not fit the context: an OpenAI-style 400 `context_length_exceeded`. */
export class ContextLengthError extends Error {
  readonly promptTokens: number;
  readonly contextSize: number;
  constructor(promptTokens: number, contextSize: number) {
    super(
      `This model's maximum context length is ${contextSize} tokens. However, your prompt has ${promptTokens} tokens, which leaves no room for a completion.`,
    );
    this.promptTokens = promptTokens;
    this.contextSize = contextSize;
  }
}

export class Engine {
  readonly llama: Llama;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  readonly sequence: LlamaContextSequence;
  readonly chatWrapper: ChatWrapper;
  readonly contextSize: number;
  /** Counters since load: choices finished, choices cancelled by their signal, tokens generated. */
  readonly stats = { choices: 0, cancelled: 0, generatedTokens: 0 };
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(llama: Llama, model: LlamaModel, context: LlamaContext, chatWrapper: ChatWrapper) {
    this.llama = llama;
    this.model = model;
    this.context = context;
    this.sequence = context.getSequence();
    this.chatWrapper = chatWrapper;
    this.contextSize = context.contextSize;
  }

  static async load(options: EngineOptions): Promise<Engine> {
    const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
    const model = await llama.loadModel({ modelPath: options.modelPath, gpuLayers: 0 });
    const contextSize = options.contextSize ?? Math.min(model.trainContextSize, 8192);
    const context = await model.createContext({
      contextSize,
      sequences: 1,
      threads: options.threads ?? 1,
      batchSize: Math.min(512, contextSize),
    });
    const chatWrapper = resolveChatWrapper(model) ?? resolveChatWrapper({ type: 'general' });
    return new Engine(llama, model, context, chatWrapper as ChatWrapper);
  }

  /** Metadata string of the GGUF (general.* and the model's own keys), or undefined. */
  metadata(key: string): unknown {
    let value: unknown = this.model.fileInfo.metadata;
    for (const part of key.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
    return value;
  }

  /** The chat messages as prompt tokens under the model's chat template, ready for the assistant's turn. */
  chatTokens(messages: readonly ChatInputMessage[]): Token[] {
    const history: ChatHistoryItem[] = messages.map((m) =>
      m.role === 'system'
        ? { type: 'system', text: m.content }
        : m.role === 'user'
          ? { type: 'user', text: m.content }
          : { type: 'model', response: [m.content] },
    );
    history.push({ type: 'model', response: [] });
    const { contextText } = this.chatWrapper.generateContextState({ chatHistory: history });
    return contextText.tokenize(this.model.tokenizer);
  }

  /** A raw prompt's tokens (with BOS when the model's tokenizer adds one). */
  textTokens(prompt: string): Token[] {
    const bos = this.model.tokens.bos;
    const tokens = this.model.tokenize(prompt);
    const addBos = this.metadata('tokenizer.ggml.add_bos_token') !== false && bos !== null;
    return addBos && tokens[0] !== bos ? [bos as Token, ...tokens] : tokens;
  }

  /** Throws ContextLengthError when the prompt leaves no room for a completion. */
  assertFits(prompt: readonly Token[]): void {
    if (prompt.length >= this.contextSize) throw new ContextLengthError(prompt.length, this.contextSize);
  }

  /** Runs `task` after every request queued before it. */
  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * `n` choices for one prompt, one after another; `onDelta` receives text as it becomes final (for streaming).
   * Rejects with the signal's reason when it aborts.
   */
  generate(
    prompt: Token[],
    params: GenerateParams,
    onDelta?: (delta: Delta) => void,
    signal?: AbortSignal,
  ): Promise<ChoiceResult[]> {
    this.assertFits(prompt);
    return this.#exclusive(async () => {
      const out: ChoiceResult[] = [];
      try {
        for (let index = 0; index < params.n; index++) {
          signal?.throwIfAborted();
          out.push(await this.#choice(prompt, params, index, onDelta, signal));
          this.stats.choices++;
        }
      } catch (error) {
        if (signal?.aborted) this.stats.cancelled++;
        throw error;
      }
      return out;
    });
  }

  /** The distribution after `prompt`, reusing the cached prefix. */
  async #prime(prompt: Token[]): Promise<Distribution> {
    const cached = this.sequence.contextTokens;
    let common = 0;
    while (common < cached.length && common < prompt.length - 1 && cached[common] === prompt[common])
      common++;
    if (common < this.sequence.nextTokenIndex)
      await this.sequence.eraseContextTokenRanges([{ start: common, end: this.sequence.nextTokenIndex }]);
    const rest = prompt.slice(common);
    const last = rest.pop() as Token;
    const results = await this.sequence.controlledEvaluate([
      ...rest,
      [last, { generateNext: { probabilities: true } }],
    ]);
    return results.at(-1)?.next.probabilities as Distribution;
  }

  async #next(token: Token): Promise<Distribution> {
    const results = await this.sequence.controlledEvaluate([
      [token, { generateNext: { probabilities: true } }],
    ]);
    return results.at(-1)?.next.probabilities as Distribution;
  }

  #text(tokens: readonly Token[]): string {
    return this.model.detokenize(tokens as Token[], false);
  }

  async #choice(
    prompt: Token[],
    params: GenerateParams,
    index: number,
    onDelta: ((delta: Delta) => void) | undefined,
    signal: AbortSignal | undefined,
  ): Promise<ChoiceResult> {
    const rng = choiceRng(params.seed, index);
    const room = this.contextSize - prompt.length;
    const limit = Math.min(params.maxTokens ?? room, room);
    const counts = new Map<number, number>();
    const tokens: Token[] = [];
    const records: (TokenRecord & { end: number })[] = [];
    let shown = 0;
    let released = 0;
    let finishReason: ChoiceResult['finishReason'] = 'length';
    let text = '';
    let dist = await this.#prime(prompt);
    while (tokens.length < limit) {
      signal?.throwIfAborted();
      const token = pickToken(dist, counts, params, rng) as Token;
      if (this.model.isEogToken(token)) {
        finishReason = 'stop';
        break;
      }
      tokens.push(token);
      this.stats.generatedTokens++;
      counts.set(token, (counts.get(token) ?? 0) + 1);
      text = this.#text(tokens);
      records.push({
        id: token,
        text: this.#text([token]),
        logprob: tokenLogprob(dist, token),
        top: params.logprobs
          ? topLogprobs(dist, params.topLogprobs).map((t) => ({
              text: this.#text([t.id as Token]),
              logprob: t.logprob,
            }))
          : [],
        end: stableLength(text, []),
      });
      const at = stopIndex(text, params.stop);
      if (at >= 0) {
        text = text.slice(0, at);
        finishReason = 'stop';
        break;
      }
      if (onDelta) {
        const stable = stableLength(text, params.stop);
        if (stable > shown) {
          const upTo = records.findLastIndex((r) => r.end <= stable) + 1;
          onDelta({
            index,
            text: text.slice(shown, stable),
            tokens: records.slice(released, upTo).map(strip),
          });
          shown = stable;
          released = Math.max(released, upTo);
        }
      }
      if (tokens.length >= limit) break;
      dist = await this.#next(token);
    }
    // Tokens that spell only the stop string (they start at or after the cut) are not part of the answer.
    const answerTokens = records.filter(
      (_, i) => (i === 0 ? 0 : (records[i - 1] as { end: number }).end) < text.length,
    );
    if (onDelta && (text.length > shown || answerTokens.length > released))
      onDelta({ index, text: text.slice(shown), tokens: answerTokens.slice(released).map(strip) });
    return {
      index,
      text,
      finishReason,
      tokens: params.logprobs ? answerTokens.map(strip) : [],
      generated: tokens.length,
    };
  }

  async dispose(): Promise<void> {
    await this.context.dispose();
    await this.model.dispose();
    await this.llama.dispose();
  }
}

function strip(r: TokenRecord & { end?: number }): TokenRecord {
  return { id: r.id, text: r.text, logprob: r.logprob, top: r.top };
}
