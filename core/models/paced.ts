/**
 * Models that pace their caller (core/util/pacer.ts): every agent loop — an evaluation's task runs, a tree search,
 * an STE exploration, a DRAFT tool, a solve — alternates model calls with its own work, so a text model that calls
 * `pace()` before each request makes the whole loop yield to the event loop about every slice of CPU, without a
 * line in the loop itself. An embedding model on this isolate's CPU (`local`: the lexical encoder, USE lite) also
 * splits a large `embed` into groups of `localGroup` texts with a pace between them; a remote one (Workers AI,
 * OpenAI) is called with the texts as given, since splitting would multiply billed requests.
 */
import type { Pacer } from '../util/pacer.ts';
import type { EmbeddingModel, TextModel } from './types.ts';

export function pacedTextModel(model: TextModel, pacer: Pacer): TextModel {
  return {
    provider: model.provider,
    model: model.model,
    capabilities: model.capabilities,
    async generate(request, signal) {
      await pacer.pace();
      return model.generate(request, signal);
    },
  };
}

/** Texts per group of a local encoder (the lexical encoder embeds ≈ 16 texts in a few milliseconds). */
export const LOCAL_EMBED_GROUP = 16;

export function pacedEmbeddingModel(
  model: EmbeddingModel,
  pacer: Pacer,
  options: { local: boolean; localGroup?: number },
): EmbeddingModel {
  const group = options.local ? (options.localGroup ?? LOCAL_EMBED_GROUP) : Number.POSITIVE_INFINITY;
  return {
    provider: model.provider,
    model: model.model,
    dimensions: model.dimensions,
    async embed(texts, signal) {
      if (texts.length <= group) {
        await pacer.pace();
        return model.embed(texts, signal);
      }
      const out: number[][] = [];
      for (let at = 0; at < texts.length; at += group) {
        await pacer.pace();
        out.push(...(await model.embed(texts.slice(at, at + group), signal)));
      }
      return out;
    },
  };
}
