/**
 * The *validate* stage of the mock pipeline: a call's base arguments against the operation's parameter and body
 * schemas, and the error answer the document declares for a bad request or a missing entity.
 *
 * Errors are answered the way the document says: its response for the status (the exact code, `4XX`, or
 * `default`), with the body shaped from that response's schema and its message-like fields (`message`, `error`,
 * `detail`, `status_message`, …) carrying the reason; a code-like integer field (`status_code`, `code`) carries
 * the status where the schema allows it. A document that declares nothing for the status gets an RFC 9457
 * problem naming the parameter.
 */
import type { ApiOperation, ParamLocation } from '../types.ts';
import { validateJson } from '../validate.ts';
import { type ProduceContext, Producer } from './produce.ts';
import { errorResponse, propertiesOf, typesOf } from './schema-walk.ts';

export interface MockResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface FieldError {
  field: string;
  in?: ParamLocation;
  message: string;
}

const MESSAGE_FIELDS = [
  'message',
  'error',
  'detail',
  'status_message',
  'error_description',
  'errorMessage',
  'title',
  'description',
  'msg',
];
const CODE_FIELDS = ['status_code', 'statusCode', 'code', 'status', 'error_code'];

/** The base arguments' problems: missing required parameters and values their schemas reject. */
export function requestErrors(op: ApiOperation, args: Readonly<Record<string, unknown>>): FieldError[] {
  const errors: FieldError[] = [];
  for (const p of op.params) {
    const present = Object.hasOwn(args, p.name) && args[p.name] !== undefined;
    if (!present) {
      if (p.required)
        errors.push({ field: p.name, in: p.in, message: `the ${p.in} parameter ${p.name} is required` });
      continue;
    }
    const result = validateJson(p.schema, args[p.name]);
    if (!result.valid) {
      const first = result.errors[result.errors.length - 1];
      errors.push({
        field: p.name,
        in: p.in,
        message: `${p.name}${first?.pointer ?? ''}: ${first?.message ?? 'invalid value'}`,
      });
    }
  }
  if (op.body && !op.body.flattened) {
    if (!Object.hasOwn(args, 'body')) {
      if (op.body.required)
        errors.push({ field: 'body', in: 'body', message: 'the request body is required' });
    } else {
      const result = validateJson(op.body.schema, args.body);
      if (!result.valid) {
        const first = result.errors[result.errors.length - 1];
        errors.push({
          field: `body${first?.pointer ?? ''}`,
          in: 'body',
          message: first?.message ?? 'invalid body',
        });
      }
    }
  }
  return errors;
}

/** The document's answer for an error status (see the module header). */
export function declaredError(
  ctx: ProduceContext,
  status: number,
  message: string,
  errors: readonly FieldError[] = [],
): MockResponse {
  const declared = errorResponse(ctx.op, status) ?? (status === 400 ? errorResponse(ctx.op, 422) : undefined);
  if (!declared?.schema) {
    return {
      status,
      headers: { 'content-type': 'application/problem+json' },
      body: {
        type: 'about:blank',
        title: status === 404 ? 'Not Found' : 'Bad Request',
        status,
        detail: message,
        ...(errors.length > 0 ? { errors } : {}),
      },
    };
  }
  const code = /^\d{3}$/.test(declared.status) ? Number(declared.status) : status;
  const body = new Producer(ctx).body(
    declared.schema,
    `/${declared.status}`,
    null,
    `${ctx.op.name}/error/${status}`,
  );
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const props = propertiesOf(declared.schema);
    const out = body as Record<string, unknown>;
    const messageField = MESSAGE_FIELDS.find(
      (f) => props[f] && typesOf(props[f]).includes('string') && validateJson(props[f], message).valid,
    );
    if (messageField) out[messageField] = message;
    const codeField = CODE_FIELDS.find((f) => props[f] && validateJson(props[f], code).valid);
    if (codeField) out[codeField] = code;
  }
  return { status: code, headers: { 'content-type': declared.mediaType ?? 'application/json' }, body };
}
