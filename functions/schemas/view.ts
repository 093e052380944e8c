/** A response view derived from its response schema instead of a field-by-field copy of the stored record. */
import type { z } from '@hono/zod-openapi';

/** The keys a view type `V` requires (its non-optional ones). */
type RequiredKeys<V> = { [K in keyof V]-?: Record<never, never> extends Pick<V, K> ? never : K }[keyof V];

/** A record that has each key the view `V` requires that `fields` (of type `F`) does not give. */
type RecordFor<V, F> = { [K in Exclude<RequiredKeys<V>, keyof F>]: unknown };

/**
 * The view of a stored `record` that the object `schema` describes: each of the schema's keys takes `fields`'
 * value when given (a renamed or computed field, links), else the record's field of the same name, an epoch-ms
 * number becoming its ISO 8601 string where the schema wants a string (a null stays null). The record's other
 * fields are left out. The record's type must have every key the schema requires that `fields` does not give (a
 * type error, not a runtime one); its values are not type-checked (an epoch-ms number may stand for a string).
 */
export function toView<S extends z.ZodObject, F extends Partial<z.input<S>> = Record<never, never>>(
  schema: S,
  record: RecordFor<z.input<S>, F>,
  fields: F = {} as F,
): z.input<S> {
  const from = record as Record<string, unknown>;
  const given = fields as Record<string, unknown>;
  const view: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (key in given) {
      view[key] = given[key];
      continue;
    }
    const value = from[key];
    if (!(key in from) && !field.safeParse(undefined).success) {
      throw new Error(`toView: the record has no field ${key} for ${schema.description ?? 'its view'}`);
    }
    const isoDate = typeof value === 'number' && !field.safeParse(value).success;
    view[key] =
      isoDate && field.safeParse(new Date(value).toISOString()).success
        ? new Date(value).toISOString()
        : value;
  }
  return view as z.input<S>;
}
