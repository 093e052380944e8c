/**
 * Description files of an imported API (issue 23 §1): uploaded tool descriptions such as DRAFT's `TMDB_Initial.json`
 * and `TMDB_DRAFT.json` (`{"0": {ID, tool_name, description, url, …}, …}`), read against the API's operations (a
 * file tool documents the operation whose method prefixes its name and whose path ends its url). An API suite names
 * one as its documentation (`docs: [{"description": id}]`): the API's own docs with the file's descriptions.
 * A malformed file is a 400 naming the JSON pointer of its first problem under `/file`; a file that documents no
 * operation of the API is a 400 too; tools that match none are listed with the stored file.
 */
import { z } from '@hono/zod-openapi';
import { readDescriptionFile } from '../../core/aids/api-docs.ts';
import { RestBenchFileError } from '../../core/draft/restbench.ts';
import { apiCatalog } from '../../edge/apis.ts';
import { InvalidInputError } from '../../edge/errors.ts';
import {
  type DescriptionRecord,
  deleteDescription,
  findDescription,
  insertDescription,
  listDescriptions,
} from '../../edge/stores/api-descriptions.ts';
import { findApi } from '../../edge/stores/apis.ts';
import { pageAnswer } from '../http/keyset.ts';
import { byId, component, requestBody, routeModule } from '../http/openapi.ts';
import { ownedOr404, ProblemError } from '../http/problem.ts';

const CreateDescription = requestBody('CreateDescription', {
  name: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: 'Default: "descriptions" and the date.' }),
  file: z.record(z.string(), z.unknown()).openapi({
    description:
      'The description file as it is: DRAFT\'s tool-instruction format, `{"0": {"ID": 0, "tool_name": "GET_movie_movie_id_keywords", "description": "…", "url": "…/movie/{movie_id}/keywords"}, …}`.',
  }),
});

const DescriptionView = component('ApiDescription', {
  id: z.string(),
  api: z.string(),
  name: z.string(),
  tools: z.number().int(),
  matched: z
    .number()
    .int()
    .openapi({ description: 'Tools of the file that document an operation of the API.' }),
  unmatched: z
    .array(z.string())
    .optional()
    .openapi({ description: 'Tools of the file that match no operation.' }),
  createdAt: z.string(),
  links: z.record(z.string(), z.string()),
});

function view(r: Omit<DescriptionRecord, 'unmatched'> & { unmatched?: string[] }) {
  return {
    id: r.id,
    api: r.apiId,
    name: r.name,
    tools: r.tools,
    matched: r.matched,
    ...(r.unmatched ? { unmatched: r.unmatched } : {}),
    createdAt: new Date(r.createdAt).toISOString(),
    links: {
      self: `/v1/apis/${r.apiId}/descriptions/${r.id}`,
      suite: `POST /v1/evals {"api": "${r.apiId}", "docs": [{"description": "${r.id}"}], …}`,
    },
  };
}

const findApiOr404 = ownedOr404(findApi, 'API');
const Params = z.object({ id: z.string().min(1).max(100), description: z.string().min(1).max(100) });

export const registerApiDescriptionRoutes = routeModule('APIs', 'user', (routes) => {
  const api = routes.on(z.object({ id: z.string().min(1).max(100) }), byId(findApiOr404));

  api.post(
    '/v1/apis/{id}/descriptions',
    "Upload a description file of the API's operations (e.g. DRAFT's TMDB_DRAFT.json)",
    {
      body: CreateDescription,
      example: {
        name: 'rewritten',
        file: {
          '0': {
            ID: 0,
            tool_name: 'GET_pets_petId',
            description: 'Reads one pet by its id (from the list of pets): its name and its tag.',
            url: 'https://petstore.example/pets/{petId}',
          },
        },
      },
      ok: [201, 'The description file, read against the API', DescriptionView],
    },
    async (c, { resource, body }) => {
      const catalog = await apiCatalog(c.env, resource.id);
      let file: ReturnType<typeof readDescriptionFile>;
      try {
        file = readDescriptionFile(body.file, catalog.operations);
      } catch (err) {
        if (!(err instanceof RestBenchFileError)) throw err;
        throw new InvalidInputError(`The description file cannot be read: ${err.message}.`, [
          { in: 'body', field: 'file', pointer: `/file${err.pointer}`, message: err.message },
        ]);
      }
      if (Object.keys(file.descriptions).length === 0) {
        throw new InvalidInputError(
          `No tool of the file documents an operation of API ${resource.id} (a tool matches by its method prefix and the path its url ends with).`,
          [
            {
              in: 'body',
              field: 'file',
              pointer: '/file',
              message: 'no tool matches an operation of the API',
            },
          ],
        );
      }
      const name = body.name ?? `descriptions ${new Date().toISOString().slice(0, 10)}`;
      return view(await insertDescription(c.env, resource.id, name, file));
    },
  );

  api.get(
    '/v1/apis/{id}/descriptions',
    "The API's description files, newest first; by cursor",
    {
      query: z.object({
        limit: z.coerce.number().int().min(1).max(100).default(20),
        cursor: z
          .string()
          .min(1)
          .max(1000)
          .optional()
          .openapi({ description: 'The `nextCursor` of the previous page.' }),
      }),
      ok: [
        200,
        'A page of description files',
        z.object({ items: z.array(DescriptionView), nextCursor: z.string().nullable() }),
      ],
    },
    async (c, { resource, query }) =>
      pageAnswer(
        c,
        await listDescriptions(c.env, resource.id, {
          limit: query.limit,
          ...(query.cursor ? { cursor: query.cursor } : {}),
        }),
        view,
      ),
  );

  routes.get(
    '/v1/apis/{id}/descriptions/{description}',
    'A description file with its descriptions by operation',
    {
      params: Params,
      ok: [
        200,
        'The description file',
        DescriptionView.extend({ descriptions: z.record(z.string(), z.string()) }),
      ],
      problems: [404],
    },
    async (c, { params: { id, description }, owner }) => {
      await findApiOr404(c.env, id, owner);
      const found = await findDescription(c.env, id, description);
      if (!found)
        throw new ProblemError('not-found', { detail: `API ${id} has no description file ${description}.` });
      return { ...view(found), descriptions: found.descriptions };
    },
  );

  routes.delete(
    '/v1/apis/{id}/descriptions/{description}',
    'Delete a description file',
    { params: Params, ok: [204, 'Deleted'], problems: [404] },
    async (c, { params: { id, description }, owner }) => {
      await findApiOr404(c.env, id, owner);
      if (!(await deleteDescription(c.env, id, description)))
        throw new ProblemError('not-found', { detail: `API ${id} has no description file ${description}.` });
    },
  );
});
