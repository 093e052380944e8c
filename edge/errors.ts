/**
 * Domain errors of the edge runtime. Stores, model wiring and jobs throw these; they know nothing of HTTP.
 * Only the HTTP boundary (`functions/http/domain-errors.ts`) turns one into an RFC 9457 problem, so an alarm,
 * a queue consumer or a cron tick that meets one sees a plain error with a message, never an HTTP response.
 *
 * `slug` names the category with the same words as the problem catalogue (`validation-error`, `not-found`…) so
 * the mapping is one lookup; `issues` locate the offending input the way problem `errors` do.
 */

/** Where an invalid value is (`body`, `query`, `param`), its dotted field, its JSON pointer and what is wrong. */
export interface FieldIssue {
  in: string;
  field: string;
  pointer: string;
  message: string;
}

import type { ProblemSlug } from '../core/http/problems.ts';

export type DomainErrorSlug = Extract<
  ProblemSlug,
  'validation-error' | 'not-found' | 'conflict' | 'gone' | 'unavailable' | 'quota-exhausted' | 'rate-limited'
>;

export abstract class DomainError extends Error {
  abstract readonly slug: DomainErrorSlug;
  /** Facts a client acts on (RFC 9457 extension members), e.g. a quota's estimate and what is left. */
  extensions: Record<string, unknown> = {};
  /** Seconds after which the same request may succeed (a `Retry-After` header over HTTP). */
  retryAfterSeconds: number | null = null;

  constructor(
    message: string,
    /** The offending fields, when the error is about input. */
    readonly issues: FieldIssue[] = [],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The input names something this deployment cannot do or does not have (a 400 at the HTTP boundary). */
export class InvalidInputError extends DomainError {
  readonly slug = 'validation-error';
}

/** A resource the caller named does not exist (404). */
export class NotFoundError extends DomainError {
  readonly slug = 'not-found';
}

/** The request conflicts with the resource's current state (409). */
export class ConflictError extends DomainError {
  readonly slug = 'conflict';
}

/**
 * The owner's model-spend quota is used up, or smaller than what the request estimates it would spend: it may not
 * start (403 quota-exhausted, with `estimate` and `modelCallsLeft`).
 */
export class QuotaExhaustedError extends DomainError {
  readonly slug = 'quota-exhausted';

  constructor(message: string, facts: { estimate?: { modelCalls: number }; modelCallsLeft: number }) {
    super(message);
    this.extensions = facts;
  }
}

/**
 * The key has as much of something in flight as it may (expensive tool calls running, background runs queued):
 * retry later (429 rate-limited with `Retry-After`).
 */
export class TooBusyError extends DomainError {
  readonly slug = 'rate-limited';

  constructor(message: string, retryAfterSeconds: number, facts: Record<string, unknown> = {}) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
    this.extensions = { ...facts, retryAfterSeconds };
  }
}

/** A dependency (database contents, queue, provider) is not ready (503). */
export class UnavailableError extends DomainError {
  readonly slug = 'unavailable';
}

/** The same issues under a parent field: `model.provider` at `/model/provider` becomes `suite.model.provider`. */
export function nestIssues(issues: FieldIssue[], parent: string): FieldIssue[] {
  return issues.map((issue) => ({
    ...issue,
    field: issue.field ? `${parent}.${issue.field}` : parent,
    pointer: `/${parent.replaceAll('.', '/')}${issue.pointer === '/' ? '' : issue.pointer}`,
  }));
}
