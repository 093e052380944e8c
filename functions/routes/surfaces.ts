/**
 * Surfaces: list and read them (public), their own OpenAPI documents, and admin creation of custom surfaces
 * (a JSON body validated against the published Surface schema and the adapter's consistency rules).
 */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { baseApiSurface } from '../../core/apis/surface/base.ts';
import { describeApiDrift } from '../../core/apis/surface/diff.ts';
import { apiToolList } from '../../core/apis/surface/docs.ts';
import { validateSurface } from '../../core/surfaces/adapter.ts';
import { builtinSurface } from '../../core/surfaces/builtin.ts';
import { renderToolList } from '../../core/surfaces/docs.ts';
import {
  DRIFT_KINDS,
  describeDrift,
  driftProblems,
  driftSurfaceId,
  generateSurface,
  SPECIAL_CHAR_SETS,
} from '../../core/surfaces/drift/index.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import { SurfaceSchema } from '../../core/surfaces/schema.ts';
import { apiCatalog } from '../../edge/apis.ts';
import { findApi } from '../../edge/stores/apis.ts';
import {
  deleteSurface,
  findApiSurface,
  findSurface,
  insertSurface,
  listSurfaces,
  surfaceIdTaken,
} from '../../edge/stores/surfaces.ts';
import type { AppEnv } from '../app-env.ts';
import { optionalPrincipal } from '../http/auth.ts';
import { arrayPage, pageAnswer, pageParams } from '../http/keyset.ts';
import { component, itemsPage, namedSchema, requestBody, routeModule } from '../http/openapi.ts';
import { ProblemError, validationProblem } from '../http/problem.ts';
import { type AnySurface, surfaceDocument } from '../schemas/surface-document.ts';

const SurfaceJson = namedSchema(SurfaceSchema, 'Surface', {
  description:
    'A surface: exposed tool names, parameter shapes, response format and lifecycle (core/surfaces/model.ts).',
});

const SurfaceSummary = component('SurfaceSummary', {
  id: z.string(),
  kind: z.enum(['builtin', 'custom', 'generated']),
  title: z.string(),
  description: z.string(),
  derivedFrom: z.string().nullable(),
  tools: z.array(z.string()),
  retired: z.array(z.string()),
  response: z.string(),
});

const IdParam = z.object({ id: z.string().min(1).max(100) });

function summary(surface: Surface, kind: 'builtin' | 'custom' | 'generated') {
  return {
    id: surface.id,
    kind,
    title: surface.title,
    description: surface.description,
    derivedFrom: surface.derivedFrom ?? null,
    tools: surface.tools.map((t) => t.name),
    retired: surface.retired.map((r) => r.name),
    response: surface.response.kind,
  };
}

/**
 * A surface by id: a kernel one (public), else — for the key that owns it — an imported API's own (the API's id)
 * or a drifted version of it. Another key's API surface is a 404, as a missing one.
 */
async function anySurface(c: Context<AppEnv>, id: string): Promise<AnySurface> {
  const kernel = await findSurface(c.env, id);
  if (kernel) return { kind: 'kernel', surface: kernel };
  const principal = await optionalPrincipal(c);
  if (principal) {
    const owner = { id: principal.ownerId, admin: principal.role === 'admin' };
    const stored = await findApiSurface(c.env, id, owner);
    if (stored)
      return { kind: 'api', surface: stored.surface, catalog: await apiCatalog(c.env, stored.apiId) };
    const api = await findApi(c.env, id, owner);
    if (api) {
      const catalog = await apiCatalog(c.env, api.id);
      return { kind: 'api', surface: baseApiSurface(api.id, catalog, api.title), catalog };
    }
  }
  throw new ProblemError('not-found', {
    detail: `No surface with id ${id}${principal ? '' : ' (a surface of an imported API needs the key that owns it)'}.`,
  });
}

const GenerateRequest = requestBody('GenerateSurface', {
  generate: z.strictObject({
    base: z.string().min(1).max(64).default('pc').openapi({ description: 'Surface to derive from.' }),
    seed: z.string().min(1).max(200),
    kinds: z
      .array(z.enum(DRIFT_KINDS))
      .min(1)
      .openapi({ description: `Drift kinds to apply: ${DRIFT_KINDS.join(', ')}.` }),
    id: SurfaceSchema.shape.id.optional(),
    title: z.string().min(1).max(200).optional(),
    specialChars: z.enum(SPECIAL_CHAR_SETS).default('paper').openapi({
      description:
        "The characters special-chars joins words with: 'paper' (ToolEvo's _ - @ % # . ? &) or 'function-calling' (- and _ only: names function-calling APIs accept).",
    }),
  }),
});

/** Stores a surface after checking it is consistent and its id is free. */
export async function storeSurface(env: AppEnv['Bindings'], surface: Surface, kind: 'custom' | 'generated') {
  const problems = validateSurface(surface);
  if (problems.length > 0) {
    throw new ProblemError('validation-error', {
      detail: `The surface is not consistent: ${problems[0]}`,
      errors: problems.map((message) => ({ in: 'body', field: '', pointer: '/', message })),
    });
  }
  if (await surfaceIdTaken(env, surface.id)) {
    throw new ProblemError('conflict', { detail: `A surface with id ${surface.id} exists already.` });
  }
  await insertSurface(env, surface, kind);
}

export const registerSurfaceRoutes = routeModule('Surfaces', 'public', (routes) => {
  routes.get(
    '/v1/surfaces',
    'Surfaces: built-in (pc, s-in, s-ood, s-ood-alt) first, then custom and generated ones, newest first; by cursor',
    itemsPage(z.object(pageParams(64, 50, 100)), 'A page of surfaces', SurfaceSummary),
    async (c, { query }) => {
      const page = arrayPage(await listSurfaces(c.env), query, (s) => s.surface.id);
      return pageAnswer(c, page, (s) => summary(s.surface, s.kind));
    },
  );

  routes.get(
    '/v1/surfaces/{id}',
    'One surface, with its prompt-style tool list',
    {
      description:
        'A kernel surface (public), or — with the key that owns it — a surface of an imported API: the API as imported (its id) or a drifted version.',
      params: IdParam,
      ok: [
        200,
        'The surface',
        z.object({
          surface: z.union([
            SurfaceJson,
            z
              .record(z.string(), z.unknown())
              .openapi({ description: 'An API surface (core/apis/surface/model.ts).' }),
          ]),
          toolList: z.string(),
        }),
      ],
      problems: [404],
    },
    async (c, { params: { id } }) => {
      const found = await anySurface(c, id);
      if (found.kind === 'kernel') {
        return {
          surface: found.surface as z.infer<typeof SurfaceJson>,
          toolList: renderToolList(found.surface),
        };
      }
      return {
        surface: found.surface as unknown as Record<string, unknown>,
        toolList: apiToolList(found.surface),
      };
    },
  );

  routes.get(
    '/v1/surfaces/{id}/openapi.json',
    "This surface as an OpenAPI 3.1 document: a kernel surface's session REST endpoints in its shape, or the drifted API itself",
    { params: IdParam, ok: [200, 'OpenAPI document', z.record(z.string(), z.unknown())], problems: [404] },
    async (c, { params: { id } }) => surfaceDocument(await anySurface(c, id)),
  );

  routes.post(
    '/v1/surfaces',
    'Create a custom surface, or generate one from a base by seeded drift (admin)',
    {
      description:
        'Send a whole `Surface`, or `{"generate": {"base": "pc", "seed": "7", "kinds": ["rename-tool", "flags"]}}` to derive one. The same seed and kinds always give the same surface.',
      role: 'admin',
      body: z.union([GenerateRequest, SurfaceJson]),
      example: { generate: { base: 'pc', seed: '7', kinds: ['rename-tool', 'rename-params', 'flags'] } },
      ok: [201, 'Created', SurfaceSummary],
      problems: [403, 409],
    },
    async (c, { body }) => {
      if ('generate' in body) {
        const g = body.generate;
        const base = await findSurface(c.env, g.base);
        if (!base) {
          throw new ProblemError('validation-error', {
            detail: `Unknown base surface ${g.base}.`,
            errors: [
              {
                in: 'body',
                field: 'generate.base',
                pointer: '/generate/base',
                message: `no surface named ${g.base}`,
              },
            ],
          });
        }
        const surface = generateSurface(base, {
          seed: g.seed,
          kinds: g.kinds,
          specialChars: g.specialChars,
          id: g.id ?? driftSurfaceId(base, g.seed, g.kinds, g.specialChars),
          ...(g.title ? { title: g.title } : {}),
        });
        const problems = driftProblems(surface);
        if (problems.length > 0) throw new Error(`generated surface is invalid: ${problems.join('; ')}`);
        await storeSurface(c.env, surface, 'generated');
        return summary(surface, 'generated');
      }
      const surface = body as Surface;
      await storeSurface(c.env, surface, 'custom');
      return summary(surface, 'custom');
    },
    async (result, c) => {
      // A union reports its failures per branch; report the branch the body meant instead.
      if (result.success || result.target !== 'json') return undefined as never;
      const body = (await c.req.json()) as unknown;
      const meant =
        typeof body === 'object' && body !== null && 'generate' in body ? GenerateRequest : SurfaceJson;
      const parsed = meant.safeParse(body);
      return validationProblem(c, 'json', parsed.success ? result.error : parsed.error) as never;
    },
  );

  routes.get(
    '/v1/surfaces/{id}/diff',
    'How a surface differs from another (default: pc, or for an API surface the API as imported)',
    {
      description:
        'Kernel surfaces: renamed tools, parameter changes, flags, lifecycle. API surfaces (with the key that owns them): per operation, renamed tools and paths, methods, parameters renamed, merged, split, moved or retyped, response reshaping, pagination, deprecations.',
      params: IdParam,
      query: z.object({ against: z.string().min(1).max(100).default('pc') }),
      ok: [200, 'The drift', z.record(z.string(), z.unknown())],
      problems: [404],
    },
    async (c, { params: { id }, query: { against } }) => {
      const found = await anySurface(c, id);
      if (found.kind === 'kernel') {
        const base = await anySurface(c, against);
        if (base.kind !== 'kernel') {
          throw new ProblemError('validation-error', {
            detail: `${against} is a surface of an imported API; compare ${id} with a kernel surface.`,
            errors: [{ in: 'query', field: 'against', pointer: '/against', message: 'not a kernel surface' }],
          });
        }
        return describeDrift(base.surface, found.surface) as unknown as Record<string, unknown>;
      }
      // `pc` is the default: for an API surface the default is the API as imported.
      const base = await anySurface(c, against === 'pc' ? found.surface.api : against);
      if (base.kind !== 'api' || base.surface.api !== found.surface.api) {
        throw new ProblemError('validation-error', {
          detail: `${against} is not a surface of API ${found.surface.api}.`,
          errors: [
            {
              in: 'query',
              field: 'against',
              pointer: '/against',
              message: `not a surface of API ${found.surface.api}`,
            },
          ],
        });
      }
      return describeApiDrift(base.surface, found.surface, found.catalog) as unknown as Record<
        string,
        unknown
      >;
    },
  );

  routes.delete(
    '/v1/surfaces/{id}',
    'Delete a custom or generated surface (admin); built-in surfaces cannot be deleted',
    { role: 'admin', params: IdParam, ok: [204, 'Deleted'], problems: [403, 404, 409] },
    async (c, { params: { id } }) => {
      if (builtinSurface(id)) throw new ProblemError('conflict', { detail: `${id} is a built-in surface.` });
      if (!(await deleteSurface(c.env, id)))
        throw new ProblemError('not-found', { detail: `No surface with id ${id}.` });
    },
  );
});
