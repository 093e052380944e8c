/**
 * The mock backend of an imported API: one call of a base operation with base arguments, answered in the API's
 * own terms (`{status, headers, body}`), with the session's overlay before and after. The pipeline
 * (`/work/shared/design/backends.md`, after Prism's):
 * 1. **validate** — the arguments against the operation's parameter and body schemas (`request.ts`); a bad call
 *    gets the status and error body the document declares;
 * 2. **produce** — by mode: `seeded` (`seeded.ts`: the derived world, the overlay, linking and matching),
 *    `examples` (`examples.ts`), or `proxy` (`proxy.ts`: the real upstream);
 * 3. **validate out** — a mock answer (seeded or generated) against the schema the document declares for its
 *    status. A mock answer that fails is a bug of the mock: it is never served silently, but reported as a 500
 *    problem naming the first failing pointer. Upstream answers pass as they came; the document's own examples
 *    are served verbatim, as Prism serves them.
 *
 * Routing (method + path → operation) is the surface's job (`core/apis/surface/`), which hands this module the
 * base operation and arguments it resolved.
 */
import type { MockMode } from '../types.ts';
import { validateJson } from '../validate.ts';
import { examplesCall } from './examples.ts';
import { type ProxyTarget, proxyCall } from './proxy.ts';
import { declaredError, type MockResponse, requestErrors } from './request.ts';
import { errorResponse, successResponse } from './schema-walk.ts';
import { seededCall } from './seeded.ts';
import type { MockOverlay } from './state.ts';
import type { MockWorld } from './world.ts';

export type { ProxyTarget } from './proxy.ts';
export type { MockResponse } from './request.ts';
export type { MockOverlay } from './state.ts';
export { emptyOverlay } from './state.ts';
export { DEFAULT_WORLD_SIZE, MockWorld } from './world.ts';

export interface BackendOptions {
  mode: MockMode;
  /** For `proxy`: where to send the call, and with which fetch. */
  proxy?: { target: ProxyTarget; fetch: typeof fetch };
}

export interface MockResult extends MockResponse {
  overlay: MockOverlay;
  /** Set when the mock answered something its document does not allow (a bug; the answer is a 500). */
  invalid?: { pointer: string; message: string };
}

function checkAnswer(world: MockWorld, operation: string, answer: MockResponse): MockResult['invalid'] {
  const op = world.operation(operation);
  if (!op || answer.body === null) return undefined;
  const declared =
    answer.status >= 200 && answer.status < 300 ? successResponse(op) : errorResponse(op, answer.status);
  if (!declared?.schema || answer.headers['content-type'] === 'application/problem+json') return undefined;
  const result = validateJson(declared.schema, answer.body);
  if (result.valid) return undefined;
  const first = result.errors[result.errors.length - 1];
  return { pointer: first?.pointer ?? '', message: first?.message ?? 'invalid' };
}

/** One call of a base operation (see the module header). */
export async function callBackend(
  world: MockWorld,
  options: BackendOptions,
  operation: string,
  args: Readonly<Record<string, unknown>>,
  overlay: MockOverlay,
): Promise<MockResult> {
  const op = world.operation(operation);
  if (!op) {
    return {
      status: 404,
      headers: { 'content-type': 'application/problem+json' },
      body: { type: 'about:blank', title: 'Not Found', status: 404, detail: `No operation ${operation}.` },
      overlay,
    };
  }
  const errors = requestErrors(op, args);
  if (errors.length > 0) {
    const first = errors[0] as (typeof errors)[number];
    return { ...declaredError({ world, op, overlay }, 400, first.message, errors), overlay };
  }
  if (options.mode === 'proxy') {
    if (!options.proxy) throw new Error('proxy mode needs a target');
    return { ...(await proxyCall(options.proxy.target, op, args, options.proxy.fetch)), overlay };
  }
  if (options.mode === 'examples') return { ...examplesCall(world, op), overlay };
  const result = seededCall(world, op, args, overlay);
  const invalid = checkAnswer(world, operation, result);
  if (!invalid) return result;
  return {
    status: 500,
    headers: { 'content-type': 'application/problem+json' },
    body: {
      type: 'about:blank',
      title: 'Mock error',
      status: 500,
      detail: `The mock produced a response that its document does not allow at ${invalid.pointer || '/'}: ${invalid.message}. This is a bug of tooldrift's mock; please report it.`,
    },
    overlay,
    invalid,
  };
}
