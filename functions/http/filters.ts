/**
 * A list query's optional filters, one shape for every list (`z.object({ ...filters, ...pageParams(n) })`): a text
 * value of bounded length, a `true` / `false` flag (a query string has no booleans), and a filter that names a
 * stored resource (`resourceFilter`): an id that names none — or another key's — is a 404, as it is in a path,
 * never an empty page (issue 24: `/v1/ste/exemplars?run=<unknown>` answered 200 where the exports answered 404).
 */
import { z } from '@hono/zod-openapi';
import type { Bindings } from '../../edge/env.ts';
import type { Owner } from '../../edge/stores/owners.ts';

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

/**
 * Whether the resource a filter names exists for the caller (`owner` is null on a public route). A lookup of a
 * resource a key owns must answer false for another user key, as its path would answer 404.
 */
export type ResourceExists = (env: Bindings, id: string, owner: Owner | null) => Promise<boolean>;

/** Filters marked by `resourceFilter`, with what they name (kept beside the schema, not in its OpenAPI document). */
const RESOURCE_FILTERS = new WeakMap<z.ZodType, { resource: string; exists: ResourceExists }>();

/**
 * An optional text filter that names a stored `resource` (`exists` looks it up): a route whose query has one
 * answers 404 for an id that names none before its handler runs, and documents that 404 (routeTable does both).
 */
export function resourceFilter(max: number, resource: string, exists: ResourceExists, description?: string) {
  const filter = textFilter(max, description);
  RESOURCE_FILTERS.set(filter, { resource, exists });
  return filter;
}

/** The query fields of `query` marked by `resourceFilter`: field name → what it names and its lookup. */
export function resourceFilters(query: unknown): [string, { resource: string; exists: ResourceExists }][] {
  const shape = (query as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {};
  return Object.entries(shape).flatMap(([name, field]) => {
    const mark = RESOURCE_FILTERS.get(field);
    return mark ? [[name, mark] as [string, typeof mark]] : [];
  });
}
