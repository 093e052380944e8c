/**
 * RFC 9457 problem details, the pure part: the catalogue of problem types tooldrift answers with (each
 * documented at `/problems/{slug}`), and how a problem document and a validation problem are built. The API
 * (functions/http/problem.ts) sends them; the CLI (cli/validation.ts) builds the same documents client-side, so
 * a bad flag reads exactly as the API's answer would. No HTTP framework here.
 */
import type { z } from 'zod';

export const PROBLEM_TYPES = {
  'validation-error': {
    status: 400,
    title: 'Request validation failed',
    description:
      'A body, query or path parameter does not match the schema; `errors` lists each failing field.',
  },
  'malformed-json': {
    status: 400,
    title: 'Malformed JSON body',
    description:
      'The request declared a JSON body but it could not be parsed; `detail` gives the parser message.',
  },
  unauthorized: {
    status: 401,
    title: 'Missing or invalid API key',
    description: 'The route changes state or costs money: send `Authorization: Bearer <key>`.',
  },
  forbidden: {
    status: 403,
    title: 'Insufficient rights',
    description: 'The key is valid but lacks the admin role this route requires.',
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    description: 'No route or resource matches the request.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    description: 'The path exists but not for this HTTP method; `Allow` lists the methods it accepts.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    description: 'The request conflicts with the current state of the resource.',
  },
  gone: {
    status: 410,
    title: 'Gone',
    description: 'The resource existed but has been removed (for example a sunset tool).',
  },
  'payload-too-large': {
    status: 413,
    title: 'Request body too large',
    description: 'The body exceeds the documented maximum size (MAX_BODY_BYTES).',
  },
  'uri-too-long': {
    status: 414,
    title: 'URI too long',
    description: 'The URL exceeds the maximum length the API accepts; send large inputs in a request body.',
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported media type',
    description: 'The Content-Type is not one the route accepts (usually `application/json`).',
  },
  'quota-exhausted': {
    status: 403,
    title: 'Model-spend quota exhausted',
    description:
      "The key's model-call quota is used up, so no evaluation or exploration can start with it; an admin can issue a key with a larger quota (POST /v1/keys).",
  },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    description: 'The per-key token bucket is empty; retry after the number of seconds in `Retry-After`.',
  },
  'internal-error': {
    status: 500,
    title: 'Internal error',
    description: 'An unexpected failure on the server; the request id identifies it in the logs.',
  },
  unavailable: {
    status: 503,
    title: 'Service unavailable',
    description: 'A dependency (database, queue, model provider) is not reachable right now.',
  },
} as const satisfies Record<string, { status: number; title: string; description: string }>;

export type ProblemSlug = keyof typeof PROBLEM_TYPES;

export interface FieldError {
  /** Where the failing value is: `body`, `query`, `param` or `header`. */
  in: string;
  /** Dotted path of the field within that location (empty for the whole value). */
  field: string;
  /** JSON pointer of the field within that location. */
  pointer: string;
  message: string;
}

export interface ProblemOptions {
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Extra members (RFC 9457 §3.2 extension members). */
  extensions?: Record<string, unknown>;
  /** Override the catalogue status (rarely needed). */
  status?: number;
}

export function problemBody(slug: ProblemSlug, opts: ProblemOptions, instance?: string, requestId?: string) {
  const t = PROBLEM_TYPES[slug];
  return {
    type: `/problems/${slug}`,
    title: t.title,
    status: opts.status ?? t.status,
    detail: opts.detail,
    ...(instance ? { instance } : {}),
    ...(requestId ? { requestId } : {}),
    ...(opts.errors && opts.errors.length > 0 ? { field: opts.errors[0]?.field, errors: opts.errors } : {}),
    ...opts.extensions,
  };
}

/** The detail and field errors of a validation problem (pure: the CLI builds the same document client-side). */
export function validationProblemOptions(where: string, error: z.ZodError): ProblemOptions {
  const errors = zodFieldErrors(where, error);
  const first = errors[0];
  const at = first ? `${first.in}${first.field ? `.${first.field}` : ''}` : locationOf(where);
  return { detail: `Invalid ${at}: ${first?.message ?? 'does not match the schema'}`, errors };
}

/**
 * Where a field error is, as the problem names it: a JSON body (Hono's validation target `json`) is `body`, as
 * every hand-written body error says; `query`, `param` and `header` stay.
 */
function locationOf(target: string): string {
  return target === 'json' || target === 'form' ? 'body' : target;
}

function pointerOf(path: readonly string[]): string {
  return `/${path.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

/**
 * Converts zod issues to field errors. A strict object's unknown keys (one `unrecognized_keys` issue) become one
 * error per key, each naming the key itself.
 */
export function zodFieldErrors(where: string, error: z.ZodError): FieldError[] {
  return issueFieldErrors(locationOf(where), error.issues, []);
}

type Issue = z.ZodError['issues'][number];

/**
 * Of a union's failed options, the one the value is closest to: the single option with the fewest unknown keys at the
 * union's own level (`{"api": …, "queryset": …}` is an API suite even when a method is wrong, not a ToolQA-D suite
 * with two unknown fields), then with the fewest issues (`{"sampleSize": 0}` is a ToolQA-D suite with one bad
 * field, not an API suite missing two — among options that know every key of the value); undefined when no single
 * option stands out. An option of another type altogether (a list where an object came) is never the one.
 */
function closestOption(options: readonly (readonly Issue[])[]): readonly Issue[] | undefined {
  const scores = options.map((option) =>
    option.some((i) => i.code === 'invalid_type' && i.path.length === 0)
      ? null
      : [
          option
            .filter((i) => i.code === 'unrecognized_keys' && i.path.length === 0)
            .reduce((n, i) => n + (i as { keys: string[] }).keys.length, 0),
          option.length,
        ],
  );
  const below = (a: number[], b: number[]) => a[0]! < b[0]! || (a[0] === b[0] && a[1]! < b[1]!);
  let best: number[] | null = null;
  for (const s of scores) if (s && (!best || below(s, best))) best = s;
  if (!best) return undefined;
  const fewestUnknown = scores.flatMap((s, i) => (s && s[0] === best[0] ? [i] : []));
  if (fewestUnknown.length === 1) return options[fewestUnknown[0] as number];
  // A tie is broken by the issues only among options that know every key of the value: a value with keys no
  // option knows matches none, and gets the union's own summary.
  if (best[0] !== 0) return undefined;
  const at = fewestUnknown.filter((i) => scores[i]?.[1] === best[1]);
  return at.length === 1 ? options[at[0] as number] : undefined;
}

/**
 * A union none of whose options matched: the option the value is closest to is the one the body meant
 * (`closestOption`); failing that, when one option failed only on unknown keys, that is the option the
 * body meant (`{"action": …, "action_input": …, "extra": 1}` for a step), and its unknown keys are the errors,
 * each named, instead of the union's summary. The options' issue paths are relative to the union's.
 */
function issueFieldErrors(at: string, issues: readonly Issue[], base: readonly string[]): FieldError[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path.map(String)];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        in: at,
        field: [...path, key].join('.'),
        pointer: pointerOf([...path, key]),
        message: 'unknown field',
      }));
    }
    if (issue.code === 'invalid_union') {
      const meant =
        closestOption(issue.errors) ??
        issue.errors.find(
          (option) => option.length > 0 && option.every((i) => i.code === 'unrecognized_keys'),
        );
      if (meant) return issueFieldErrors(at, meant, path);
    }
    return [{ in: at, field: path.join('.'), pointer: pointerOf(path), message: issue.message }];
  });
}
