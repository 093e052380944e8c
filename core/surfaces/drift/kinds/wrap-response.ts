/**
 * `wrap-response` — observations come wrapped in a JSON object with generated keys and state values, e.g.
 * `{"status": "ok", "Output": "..."}` (a wrapped base gets a different wrapper).
 */
import type { ResponseFormat } from '../../model.ts';
import { RESPONSE_MESSAGE_KEYS, RESPONSE_STATE_KEYS, RESPONSE_STATES } from '../../vocab/drift-terms.ts';
import { defineDriftKind } from '../kind.ts';

export const wrapResponse = defineDriftKind({
  id: 'wrap-response',
  summary: 'observations wrapped in a JSON object',
  order: 90,
  apply(work) {
    const base = work.base.response;
    const rng = work.root.fork('wrap-response');
    for (;;) {
      const [success, failure] = rng.pick(RESPONSE_STATES);
      const format: ResponseFormat = {
        kind: 'wrapped',
        stateKey: rng.pick(RESPONSE_STATE_KEYS),
        messageKey: rng.pick(RESPONSE_MESSAGE_KEYS),
        success,
        failure,
      };
      if (
        base.kind !== 'wrapped' ||
        base.stateKey !== format.stateKey ||
        base.messageKey !== format.messageKey
      ) {
        work.response = format;
        return;
      }
    }
  },
});
