/**
 * The `examples` mode (issue 22 §3): the document's own example of the success response, verbatim — Prism's
 * static mode. An operation without an example answers a body shaped from its schema with a fixed seed (the same
 * body every time, as Prism's static generation), so every operation answers something.
 */
import type { ApiOperation } from '../types.ts';
import { Producer } from './produce.ts';
import type { MockResponse } from './request.ts';
import { successResponse } from './schema-walk.ts';
import { emptyOverlay } from './state.ts';
import type { MockWorld } from './world.ts';

export function examplesCall(world: MockWorld, op: ApiOperation): MockResponse {
  const ok = successResponse(op);
  const status = ok && /^\d{3}$/.test(ok.status) ? Number(ok.status) : ok ? 200 : 204;
  const headers = { 'content-type': ok?.mediaType ?? 'application/json' };
  if (ok?.example !== undefined) return { status, headers, body: ok.example };
  if (!ok?.schema) return { status, headers: {}, body: null };
  const producer = new Producer({ world, op, overlay: emptyOverlay() });
  return { status, headers, body: producer.body(ok.schema, `/${ok.status}`, null, `${op.name}/static`) };
}
