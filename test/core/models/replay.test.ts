import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CassetteMissError, ModelConfigError } from '../../../core/models/errors.ts';
import { createTextModel } from '../../../core/models/factory.ts';
import {
  CASSETTE_FORMAT,
  MemoryCassetteStore,
  parseCassetteFile,
  ReplayModel,
  requestHash,
} from '../../../core/models/replay.ts';
import type { GenerateRequest, GenerateResponse, TextModel } from '../../../core/models/types.ts';
import { JsonFileCassetteStore } from '../../../scripts/lib/cassette-file.ts';

/** A model whose every answer differs (a counter), so replay must hand back exactly what was recorded. */
function countingModel(): TextModel & { calls: number } {
  const model = {
    provider: 'counting',
    model: 'counter-1',
    capabilities: { n: true, logprobs: true, seed: true, embeddings: false, simulated: false },
    calls: 0,
    async generate(request: GenerateRequest): Promise<GenerateResponse> {
      model.calls++;
      const k = request.n ?? 1;
      return {
        candidates: Array.from({ length: k }, (_, i) => ({
          text: `answer ${model.calls}.${i} to ${request.messages.at(-1)!.content}`,
          finishReason: i === 0 ? ('stop' as const) : ('length' as const),
          logprob: { sum: -0.5 * (model.calls + i), count: 3 + i },
        })),
        model: 'counter-1',
        usage: { calls: 1, inputTokens: 10, outputTokens: 4 * k, latencyMs: 123, costUsd: 0.001 },
      };
    },
  };
  return model;
}

const question = (content: string, extra: Partial<GenerateRequest> = {}): GenerateRequest => ({
  messages: [{ role: 'user', content }],
  temperature: 0.7,
  ...extra,
});

describe('replay: record → replay round trip', () => {
  it('returns identical candidates, occurrence by occurrence, without calling a model', async () => {
    const store = new MemoryCassetteStore();
    const inner = countingModel();
    const recorder = new ReplayModel({ mode: 'record', store, inner });
    const requests = [
      question('a', { n: 3, logprobs: true }),
      question('b'),
      question('a', { n: 3, logprobs: true }),
    ];
    const recorded: GenerateResponse[] = [];
    for (const r of requests) recorded.push(await recorder.generate(r));
    expect(inner.calls).toBe(3);
    // The same request twice got two different answers.
    expect(recorded[0]!.candidates).not.toEqual(recorded[2]!.candidates);

    const player = new ReplayModel({ mode: 'replay', store, model: 'counter-1' });
    for (const [i, r] of requests.entries()) {
      const replayed = await player.generate(r);
      expect(replayed.candidates).toEqual(recorded[i]!.candidates);
      expect(replayed.model).toBe('counter-1');
      expect(replayed.usage).toEqual({ ...recorded[i]!.usage, latencyMs: 0, costUsd: 0 });
    }
    expect(inner.calls).toBe(3);
  });

  it('survives a JSON cassette file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tooldrift-cassette-'));
    cleanup.push(dir);
    const path = join(dir, 'run.json');
    const recorder = new ReplayModel({
      mode: 'record',
      store: await JsonFileCassetteStore.open(path),
      inner: countingModel(),
    });
    const first = await recorder.generate(question('x', { n: 2, logprobs: true, seed: 3 }));
    await recorder.generate(question('y'));

    const text = await readFile(path, 'utf8');
    const file = parseCassetteFile(JSON.parse(text), path);
    expect(file.format).toBe(CASSETTE_FORMAT);
    const hashes = Object.keys(file.entries);
    expect(hashes).toHaveLength(2);
    expect(hashes).toEqual([...hashes].sort());

    const player = new ReplayModel({
      mode: 'replay',
      store: await JsonFileCassetteStore.open(path),
      model: 'counter-1',
    });
    const again = await player.generate(question('x', { n: 2, logprobs: true, seed: 3 }));
    expect(again.candidates).toEqual(first.candidates);
  });

  it('a record session replaces what the cassette held for a request', async () => {
    const store = new MemoryCassetteStore();
    await new ReplayModel({ mode: 'record', store, inner: countingModel() }).generate(question('q'));
    const second = await new ReplayModel({ mode: 'record', store, inner: countingModel() }).generate(
      question('q'),
    );
    const hash = await requestHash(question('q'), 'counter-1');
    expect((await store.get(hash))?.responses.map((r) => r.candidates[0]!.text)).toEqual([
      second.candidates[0]!.text,
    ]);
  });
});

describe('replay: misses', () => {
  it('fails loudly, naming the request hash', async () => {
    const store = new MemoryCassetteStore();
    const player = new ReplayModel({ mode: 'replay', store, model: 'counter-1' });
    const request = question('never asked');
    const hash = await requestHash(request, 'counter-1');
    const error = await player.generate(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CassetteMissError);
    expect((error as CassetteMissError).requestHash).toBe(hash);
    expect((error as Error).message).toBe(
      `replay: no recorded response for request ${hash} (model counter-1): never recorded`,
    );
  });

  it('counts a request asked more often than recorded as a miss', async () => {
    const store = new MemoryCassetteStore();
    await new ReplayModel({ mode: 'record', store, inner: countingModel() }).generate(question('once'));
    const player = new ReplayModel({ mode: 'replay', store, model: 'counter-1' });
    await player.generate(question('once'));
    await expect(player.generate(question('once'))).rejects.toThrow(/: occurrence 2 requested, 1 recorded$/);
  });

  it('record-missing replays what exists and records the rest', async () => {
    const store = new MemoryCassetteStore();
    const first = await new ReplayModel({ mode: 'record', store, inner: countingModel() }).generate(
      question('p'),
    );
    const inner = countingModel();
    const mixed = new ReplayModel({ mode: 'record-missing', store, inner });
    expect((await mixed.generate(question('p'))).candidates).toEqual(first.candidates);
    expect(inner.calls).toBe(0);
    await mixed.generate(question('p'));
    await mixed.generate(question('new'));
    expect(inner.calls).toBe(2);
    const hash = await requestHash(question('p'), 'counter-1');
    expect((await store.get(hash))?.responses).toHaveLength(2);
  });
});

describe('replay: request hash', () => {
  it('is a SHA-256 hex digest that ignores key order and spelled-out defaults', async () => {
    const a = await requestHash({ messages: [{ role: 'user', content: 'hi' }], temperature: 0 }, 'm');
    const b = await requestHash(
      {
        temperature: 0,
        n: 1,
        logprobs: false,
        model: 'm',
        stop: [],
        messages: [{ content: 'hi', role: 'user' }],
      },
      'other-default',
    );
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
  });

  it('changes with anything that changes the answer', async () => {
    const base: GenerateRequest = { messages: [{ role: 'user', content: 'hi' }], temperature: 0.5, seed: 1 };
    const hashes = await Promise.all([
      requestHash(base, 'm'),
      requestHash(base, 'm2'),
      requestHash({ ...base, temperature: 0.6 }, 'm'),
      requestHash({ ...base, seed: 2 }, 'm'),
      requestHash({ ...base, n: 2 }, 'm'),
      requestHash({ ...base, logprobs: true }, 'm'),
      requestHash({ ...base, stop: ['x'] }, 'm'),
      requestHash({ ...base, maxTokens: 10 }, 'm'),
      requestHash({ ...base, messages: [{ role: 'system', content: 'hi' }] }, 'm'),
    ]);
    expect(new Set(hashes).size).toBe(hashes.length);
  });
});

describe('replay: configuration', () => {
  it('needs a model to record from, and a store', async () => {
    expect(() => new ReplayModel({ mode: 'record', store: new MemoryCassetteStore() })).toThrow(
      ModelConfigError,
    );
    expect(() => createTextModel({ provider: 'replay', model: 'm' })).toThrow(
      'provider replay needs deps.cassettes',
    );
  });

  it('is built by the factory around another provider', async () => {
    const store = new MemoryCassetteStore();
    const inner = countingModel();
    const recorder = createTextModel(
      { provider: 'replay', mode: 'record', inner: { provider: 'sim', model: 'sim-x' } },
      { cassettes: store, sim: () => inner },
    );
    expect(recorder.model).toBe('counter-1');
    await recorder.generate(question('via factory'));
    const player = createTextModel({ provider: 'replay', model: 'counter-1' }, { cassettes: store });
    expect((await player.generate(question('via factory'))).candidates[0]!.text).toBe(
      'answer 1.0 to via factory',
    );
  });

  it('replaying alone reports the capabilities it is told the recording model had', () => {
    const store = new MemoryCassetteStore();
    const alone = createTextModel({ provider: 'replay', model: 'm' }, { cassettes: store });
    expect(alone.capabilities).toEqual({
      n: true,
      logprobs: false,
      seed: false,
      structuredOutput: false,
      embeddings: false,
      simulated: false,
    });
    const told = createTextModel(
      {
        provider: 'replay',
        model: 'tooldrift-sim-v1',
        capabilities: { logprobs: true, seed: true, simulated: true },
      },
      { cassettes: store },
    );
    expect(told.capabilities).toMatchObject({ logprobs: true, seed: true, simulated: true });
    const recording = new ReplayModel({ mode: 'record', store, inner: countingModel() });
    expect(recording.capabilities).toEqual(countingModel().capabilities);
  });

  it('rejects a file that is not a cassette', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tooldrift-cassette-'));
    cleanup.push(dir);
    const path = join(dir, 'bad.json');
    await writeFile(
      path,
      JSON.stringify({ format: CASSETTE_FORMAT, entries: { nothex: { request: {}, responses: [] } } }),
    );
    await expect(JsonFileCassetteStore.open(path)).rejects.toThrow(ModelConfigError);
  });
});

const cleanup: string[] = [];
afterEach(async () => {
  for (const dir of cleanup.splice(0)) await rm(dir, { recursive: true, force: true });
});
