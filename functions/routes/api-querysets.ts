/**
 * Query sets of an imported API (issue 22 §5): RestBench files (a query and its gold call path, e.g.
 * `["GET /search/person", "GET /person/{person_id}/movie_credits"]`), DRAFT's test files, and call-level sets
 * (a query, the gold tool and its arguments: STE's `tool_test.json`, ToolAlpaca's evaluation file, or a plain
 * list). Each is validated against the API's operations — an unknown gold path is a 400 naming its line — and
 * stored one row per query. A session started from an item (`POST /v1/sessions {"api", "queryset", "item"}`) is
 * scored against its gold.
 */
import { z } from '@hono/zod-openapi';
import { parseQuerySet } from '../../core/apis/querysets.ts';
import { apiCatalog } from '../../edge/apis.ts';
import { InvalidInputError } from '../../edge/errors.ts';
import {
  deleteQuerySet,
  findApi,
  findQuerySet,
  insertQuerySet,
  listQuerySets,
  type QuerySetRecord,
  queryItems,
} from '../../edge/stores/apis.ts';
import { linkNext, pageAnswer, pageParams } from '../http/keyset.ts';
import { byId, component, requestBody, routeModule } from '../http/openapi.ts';
import { ownedOr404, ProblemError } from '../http/problem.ts';

const FORMATS = ['restbench', 'draft', 'ste', 'toolalpaca', 'calls'] as const;

const CreateQuerySet = requestBody('CreateQuerySet', {
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: 'Default: the format and the date.' }),
  format: z.enum(FORMATS).optional().openapi({ description: 'Default: recognised from the items.' }),
  items: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).openapi({
    description:
      "The query file as it is (RestBench and DRAFT arrays, STE's map of API → queries, ToolAlpaca's list of APIs).",
  }),
});

const QuerySetView = component('QuerySet', {
  id: z.string(),
  api: z.string(),
  name: z.string(),
  format: z.string(),
  items: z.number().int(),
  warnings: z.array(z.object({ pointer: z.string(), operation: z.string().optional(), message: z.string() })),
  createdAt: z.string(),
  links: z.record(z.string(), z.string()),
});

const GoldCallView = z.object({
  operation: z.string(),
  method: z.string().optional(),
  path: z.string().optional(),
  args: z.record(z.string(), z.unknown()).optional(),
});

const QueryItemView = component('QueryItem', {
  index: z.number().int(),
  query: z.string(),
  gold: z.object({ path: z.array(GoldCallView), answer: z.unknown().optional() }),
  meta: z.record(z.string(), z.unknown()).optional(),
});

function view(r: QuerySetRecord) {
  return {
    id: r.id,
    api: r.apiId,
    name: r.name,
    format: r.format,
    items: r.items,
    warnings: r.warnings,
    createdAt: new Date(r.createdAt).toISOString(),
    links: {
      self: `/v1/apis/${r.apiId}/querysets/${r.id}`,
      session: `/v1/sessions (POST {"api": "${r.apiId}", "queryset": "${r.id}", "item": 0})`,
    },
  };
}

const findApiOr404 = ownedOr404(findApi, 'API');

export const registerApiQuerySetRoutes = routeModule('APIs', 'user', (routes) => {
  const api = routes.on(z.object({ id: z.string().min(1).max(100) }), byId(findApiOr404));

  api.post(
    '/v1/apis/{id}/querysets',
    'Add a query set to the API (validated against its operations)',
    {
      body: CreateQuerySet,
      example: {
        name: 'pets',
        format: 'restbench',
        items: [{ query: 'What is the name of pet 1?', solution: ['GET /pets/{petId}'] }],
      },
      ok: [201, 'The query set', QuerySetView],
    },
    async (c, { resource, body, owner }) => {
      const catalog = await apiCatalog(c.env, resource.id);
      const parsed = parseQuerySet(body.items, catalog, body.format ? { format: body.format } : {});
      if (!parsed.ok) {
        const first = parsed.problems[0] as (typeof parsed.problems)[number];
        throw new InvalidInputError(
          `Query ${first.line} of the set cannot be used: ${first.reason}.`,
          parsed.problems.slice(0, 20).map((p) => ({
            in: 'body',
            field: 'items',
            pointer: `/items${p.pointer}`,
            message: `line ${p.line}: ${p.reason}`,
          })),
        );
      }
      const name = body.name ?? `${parsed.set.format} ${new Date().toISOString().slice(0, 10)}`;
      return view(await insertQuerySet(c.env, resource.id, name, parsed.set, owner));
    },
  );

  api.get(
    '/v1/apis/{id}/querysets',
    "The API's query sets, newest first; by cursor",
    {
      query: z.object({ ...pageParams(120) }),
      ok: [
        200,
        'A page of query sets',
        z.object({ items: z.array(QuerySetView), nextCursor: z.string().nullable() }),
      ],
    },
    async (c, { resource, query, owner }) =>
      pageAnswer(c, await listQuerySets(c.env, resource.id, { ...query, owner }), view),
  );

  routes.get(
    '/v1/apis/{id}/querysets/{queryset}',
    'A query set with a page of its queries and their gold',
    {
      params: z.object({ id: z.string().min(1).max(100), queryset: z.string().min(1).max(100) }),
      query: z.object({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        cursor: z.coerce
          .number()
          .int()
          .min(0)
          .optional()
          .openapi({ description: 'The `nextCursor` of the previous page.' }),
      }),
      ok: [
        200,
        'The query set and a page of its queries',
        QuerySetView.extend({ queries: z.array(QueryItemView), nextCursor: z.number().int().nullable() }),
      ],
      problems: [404],
    },
    async (c, { params: { id, queryset }, query, owner }) => {
      await findApiOr404(c.env, id, owner);
      const set = await findQuerySet(c.env, id, queryset, owner);
      if (!set) throw new ProblemError('not-found', { detail: `API ${id} has no query set ${queryset}.` });
      const page = await queryItems(c.env, set.id, {
        after: query.cursor === undefined ? -1 : query.cursor,
        limit: query.limit,
      });
      linkNext(c, page.next === null ? null : String(page.next));
      return { ...view(set), queries: page.items, nextCursor: page.next };
    },
  );

  routes.delete(
    '/v1/apis/{id}/querysets/{queryset}',
    'Delete a query set',
    {
      params: z.object({ id: z.string().min(1).max(100), queryset: z.string().min(1).max(100) }),
      ok: [204, 'Deleted'],
      problems: [404],
    },
    async (c, { params: { id, queryset }, owner }) => {
      await findApiOr404(c.env, id, owner);
      if (!(await deleteQuerySet(c.env, id, queryset, owner))) {
        throw new ProblemError('not-found', { detail: `API ${id} has no query set ${queryset}.` });
      }
    },
  );
});
