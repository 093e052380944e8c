/**
 * RFC 9457 problem details at the HTTP boundary. Every client error tooldrift returns is
 * `application/problem+json` with a `type` from the catalogue (core/http/problems.ts, each documented at
 * `/problems/{slug}`), a human `title`, the HTTP `status`, a `detail` naming what was wrong, the request id,
 * and — for validation failures — the failing fields.
 */

import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  type ProblemOptions,
  type ProblemSlug,
  problemBody,
  validationProblemOptions,
} from '../../core/http/problems.ts';
import type { DomainError } from '../../edge/errors.ts';

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: '/problems/validation-error' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().optional(),
    requestId: z.string().optional(),
    field: z.string().optional(),
    errors: z
      .array(z.object({ in: z.string(), field: z.string(), pointer: z.string(), message: z.string() }))
      .optional(),
  })
  .openapi('Problem');

export type Problem = z.infer<typeof ProblemSchema>;

/** A problem+json response for the current request. */
export function problem(c: Context, slug: ProblemSlug, opts: ProblemOptions): Response {
  const body = problemBody(slug, opts, new URL(c.req.url).pathname, c.get('requestId') as string | undefined);
  const headers = new Headers({ 'content-type': 'application/problem+json', ...opts.headers });
  const requestId = c.get('requestId') as string | undefined;
  if (requestId) headers.set('x-request-id', requestId);
  return new Response(JSON.stringify(body), { status: body.status as ContentfulStatusCode, headers });
}

/** The validation-error problem for a failed zod parse of one request part (`body`, `query`, `param`…). */
export function validationProblem(c: Context, where: string, error: z.ZodError): Response {
  return problem(c, 'validation-error', validationProblemOptions(where, error));
}

/** Thrown anywhere in a handler to answer with a problem; caught by the app's error handler. */
export class ProblemError extends Error {
  constructor(
    readonly slug: ProblemSlug,
    readonly options: ProblemOptions,
  ) {
    super(options.detail);
    this.name = 'ProblemError';
  }
}

/** The one mapping of a domain error (edge/errors.ts) to a problem: its category is the problem type. */
export function domainProblem(err: DomainError): { slug: ProblemSlug; options: ProblemOptions } {
  return {
    slug: err.slug,
    options: {
      detail: err.message,
      errors: err.issues,
      ...(Object.keys(err.extensions).length > 0 ? { extensions: err.extensions } : {}),
      ...(err.retryAfterSeconds !== null
        ? { headers: { 'retry-after': String(err.retryAfterSeconds) } }
        : {}),
    },
  };
}

/** The 429 of an expensive tool call refused by the caller's concurrency bound (edge/tool-calls.ts). */
export function toolCallRefusedProblem(err: { message: string; retryAfterSeconds: number }): ProblemOptions {
  return {
    detail: err.message,
    headers: { 'retry-after': String(err.retryAfterSeconds) },
    extensions: { retryAfterSeconds: err.retryAfterSeconds },
  };
}

/**
 * What a lookup found, or a 404 problem "No <what> with id <id>." — a row another key owns is looked up as
 * nothing, so it is a 404 like a missing one.
 */
export async function foundOr404<T>(
  lookup: Promise<T | null | undefined>,
  what: string,
  id: string,
): Promise<T> {
  const found = await lookup;
  if (found === null || found === undefined) {
    throw new ProblemError('not-found', { detail: `No ${what} with id ${id}.` });
  }
  return found;
}

/**
 * A finder of the caller's resource by id: `lookup(env, id, owner)`'s row, or `foundOr404`'s 404 (a row another
 * key owns is looked up as nothing).
 */
export function ownedOr404<E, O, T>(
  lookup: (env: E, id: string, owner: O) => Promise<T | null | undefined>,
  what: string,
): (env: E, id: string, owner: O) => Promise<T> {
  return (env, id, owner) => foundOr404(lookup(env, id, owner), what, id);
}

/**
 * A cancel route's answer: `find` the caller's resource (its 404 for a missing one or another key's), `cancel`
 * it, then `show` it as it is after the cancel (found again; without `show`, what `find` found).
 */
export async function cancelOwned<T>(find: () => Promise<T>, cancel: () => Promise<unknown>): Promise<T>;
export async function cancelOwned<T, V>(
  find: () => Promise<T>,
  cancel: () => Promise<unknown>,
  show: (after: T) => V | Promise<V>,
): Promise<V>;
export async function cancelOwned<T, V>(
  find: () => Promise<T>,
  cancel: () => Promise<unknown>,
  show?: (after: T) => V | Promise<V>,
): Promise<T | V> {
  await find();
  await cancel();
  const after = await find();
  return show ? show(after) : after;
}
