/**
 * Client-side validation with the server's own schemas, so a bad flag is reported before any request and with
 * the very problem document the API would return: detail and field errors from `validationProblemOptions` and
 * the body from `problemBody` (core/http/problems.ts, both pure, the same the API uses). The request body is validated as the API
 * validates it, as the `json` part of the request.
 */
import type { z } from 'zod';
import { problemBody, validationProblemOptions } from '../core/http/problems.ts';
import type { ProblemLike } from './problem.ts';

/** Where the API's validator reports a JSON body (hono's validation target). */
export const BODY_TARGET = 'json';

export function validationProblemBody(where: string, error: z.ZodError): ProblemLike {
  return problemBody('validation-error', validationProblemOptions(where, error));
}

export type Validated<T> = { ok: true; value: T } | { ok: false; problem: ProblemLike };

/** Parses `input` with `schema` as the API parses a JSON request body. */
export function validateBody<S extends z.ZodType>(schema: S, input: unknown): Validated<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problem: validationProblemBody(BODY_TARGET, result.error) };
}
