/**
 * The trained Chain-of-Tools heads of a toolset (issue 14): the weights of a finished training run read from D1
 * (`edge/stores/toolset-training.ts`) and checked against the deployment's frozen encoder. Shared by the toolset
 * routes (cotools search, `POST /v1/toolsets/{id}/judge`) and the toolPool aid's `judge: "trained"` gate.
 */

import type { EmbeddingModel } from '../core/models/types.ts';
import { judgeTexts } from '../core/retrieval/cotools/judge.ts';
import { type CotoolsWeights, unpackWeights } from '../core/retrieval/cotools/training.ts';
import type { ToolGate } from '../core/retrieval/tool-pool.ts';
import type { Bindings } from './env.ts';
import { encoderLabel } from './jobs/train-toolset.ts';
import { embeddingModelFor } from './models.ts';
import type { Owner } from './stores/owners.ts';
import { findTraining, readBlob, type TrainingRow } from './stores/toolset-training.ts';
import { findToolset } from './stores/toolsets.ts';

export type TrainedWeights =
  | { ok: true; weights: CotoolsWeights; encoder: EmbeddingModel }
  /** Trained over another frozen encoder than this deployment's: the vectors are not comparable. */
  | { ok: false; reason: string };

/**
 * Unpacked weights of this isolate by run id, least recently used first out: a finished run's weights never
 * change, and they are ≈ 8 MB read from D1 — read once for the cotools search, the judge route and every
 * evaluation chunk's toolPool gate, not once each.
 */
const weightsCache = new Map<string, CotoolsWeights>();
const WEIGHTS_CACHE_ENTRIES = 2;

async function runWeights(env: Bindings, run: TrainingRow): Promise<CotoolsWeights> {
  const hit = weightsCache.get(run.id);
  if (hit) {
    weightsCache.delete(run.id);
    weightsCache.set(run.id, hit);
    return hit;
  }
  const blob = await readBlob(env.DB, run.id, 'weights');
  if (!blob) throw new Error(`training ${run.id} is finished but its weights are missing`);
  const weights = unpackWeights(blob);
  weightsCache.set(run.id, weights);
  for (const oldest of weightsCache.keys()) {
    if (weightsCache.size <= WEIGHTS_CACHE_ENTRIES) break;
    weightsCache.delete(oldest);
  }
  return weights;
}

/** A finished run's weights, or why this deployment cannot use them. Throws when a finished run lost its blob. */
export async function trainedWeights(env: Bindings, run: TrainingRow): Promise<TrainedWeights> {
  const weights = await runWeights(env, run);
  const encoder = embeddingModelFor(env);
  if (weights.encoder !== encoderLabel(encoder) || weights.retriever.hidden !== encoder.dimensions)
    return {
      ok: false,
      reason: `Training version ${run.version} was trained over ${weights.encoder} (${weights.retriever.hidden}-d); this deployment embeds with ${encoderLabel(encoder)} (${encoder.dimensions}-d). Train again.`,
    };
  return { ok: true, weights, encoder };
}

/**
 * The Tool Judge gate of a toolset (cotools.md eq. 3–5: a step needs a tool when the judge's probability
 * exceeds 0.5): its newest finished training's judge. A string says why there is none (never trained, no
 * judge in that run, another encoder); null when the toolset does not exist for this owner.
 */
export async function toolsetJudgeGate(
  env: Bindings,
  toolsetId: string,
  owner?: Owner,
): Promise<ToolGate | string | null> {
  const record = await findToolset(env.DB, toolsetId, owner);
  if (!record) return null;
  const run = await findTraining(env.DB, record.id, { succeeded: true });
  if (!run)
    return `Toolset ${toolsetId} has no finished training: POST /v1/toolsets/${toolsetId}/train first`;
  const trained = await trainedWeights(env, run);
  if (!trained.ok) return trained.reason;
  const { judge } = trained.weights;
  if (!judge) return `Training version ${run.version} of toolset ${toolsetId} has no Tool Judge`;
  const encoder = trained.encoder;
  return {
    id: `trained-v${run.version}`,
    needsTool: async (text) => {
      const [verdict] = await judgeTexts(judge, encoder, [text]);
      return verdict?.needsTool ?? true;
    },
  };
}
