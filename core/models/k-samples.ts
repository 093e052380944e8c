/**
 * k candidates from a provider: one call with `n = k` where the model supports `n`, otherwise k calls of one
 * candidate each (issued together; the provider's semaphore caps how many run at once). With separate calls,
 * a call that still fails after its retries with a transient error (timeout, rate limit, server error)
 * becomes a candidate with `finishReason: 'error'` and empty text, so one unlucky call does not throw away
 * the others; if every call fails, or any fails for a reason that would fail them all (bad request,
 * malformed response, abort), the error is thrown.
 */
import { isRetryable, ModelRequestError } from './errors.ts';
import type { Candidate, GenerateResponse } from './types.ts';
import { estimateCostUsd, type PriceTable } from './usage.ts';

export interface SampleCall {
  candidates: Candidate[];
  inputTokens: number;
  outputTokens: number;
  model: string | undefined;
}

export interface Sampled extends SampleCall {
  /** Provider calls that returned a response. */
  calls: number;
}

/** The requested number of candidates, checked. */
export function candidateCount(provider: string, n: number | undefined): number {
  const k = n ?? 1;
  if (!Number.isInteger(k) || k < 1) {
    throw new ModelRequestError(provider, undefined, `${provider}: n must be a positive integer, got ${n}`);
  }
  return k;
}

/**
 * `call(n, index)` makes one provider call for `n` candidates; `index` numbers the separate calls (0 for the
 * single `n = k` call) so callers can vary the seed per call.
 */
export async function sampleCandidates(
  k: number,
  supportsN: boolean,
  call: (n: number, index: number) => Promise<SampleCall>,
): Promise<Sampled> {
  if (k === 1 || supportsN) {
    const result = await call(k, 0);
    return { ...result, candidates: result.candidates.slice(0, k), calls: 1 };
  }
  const settled = await Promise.allSettled(Array.from({ length: k }, (_, index) => call(1, index)));
  const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
  const fatal = failures.find((f) => !isRetryable(f.reason));
  if (fatal) throw fatal.reason;
  if (failures.length === k) throw failures[0]!.reason;
  const out: Sampled = { candidates: [], inputTokens: 0, outputTokens: 0, model: undefined, calls: 0 };
  for (const s of settled) {
    if (s.status === 'rejected') {
      out.candidates.push({ text: '', finishReason: 'error' });
      continue;
    }
    out.calls++;
    out.inputTokens += s.value.inputTokens;
    out.outputTokens += s.value.outputTokens;
    out.model ??= s.value.model;
    // A single-candidate call that came back empty-handed still holds its place.
    out.candidates.push(s.value.candidates[0] ?? { text: '', finishReason: 'error' });
  }
  return out;
}

/** The response for sampled candidates: the model that answered, usage with latency and estimated cost. */
export function sampledResponse(
  sampled: Sampled,
  model: string,
  latencyMs: number,
  prices: PriceTable,
): GenerateResponse {
  return {
    candidates: sampled.candidates,
    model,
    usage: {
      calls: sampled.calls,
      inputTokens: sampled.inputTokens,
      outputTokens: sampled.outputTokens,
      latencyMs,
      costUsd: estimateCostUsd(model, sampled.inputTokens, sampled.outputTokens, prices),
    },
  };
}
