/**
 * A list query's optional filters, one shape for every list (`z.object({ ...filters, ...pageParams(n) })`): a text
 * value of bounded length and a `true` / `false` flag (a query string has no booleans).
 */
import { z } from '@hono/zod-openapi';

/** An optional text filter of 1 to `max` characters. */
export function textFilter(max: number, description?: string) {
  const filter = z.string().min(1).max(max).optional();
  return description === undefined ? filter : filter.openapi({ description });
}

/** An optional `true` / `false` flag. */
export function flagFilter(description?: string) {
  const flag = z.enum(['true', 'false']).optional();
  return description === undefined ? flag : flag.openapi({ description });
}
