/**
 * Surfaces: list and read them (public), their own OpenAPI documents, and admin creation of custom surfaces
 * (a JSON body validated against the published Surface schema and the adapter's consistency rules).
 */
import { z } from '@hono/zod-openapi';
import { validateSurface } from '../../core/surfaces/adapter.ts';
import { builtinSurface } from '../../core/surfaces/builtin.ts';
import { renderToolList, surfaceOpenApi } from '../../core/surfaces/docs.ts';
import {
  DRIFT_KINDS,
  describeDrift,
  driftProblems,
  driftSurfaceId,
  generateSurface,
} from '../../core/surfaces/drift/index.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import { SurfaceSchema } from '../../core/surfaces/schema.ts';
import { deleteSurface, findSurface, insertSurface, listSurfaces } from '../../edge/stores/surfaces.ts';
import type { AppEnv } from '../app-env.ts';
import { component, namedSchema, requestBody, routeModule } from '../http/openapi.ts';
import { foundOr404, ProblemError, validationProblem } from '../http/problem.ts';

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

const IdParam = z.object({ id: z.string().min(1).max(64) });

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

async function surfaceOr404(env: AppEnv['Bindings'], id: string): Promise<Surface> {
  return foundOr404(findSurface(env, id), 'surface', id);
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
  if (builtinSurface(surface.id) || (await findSurface(env, surface.id))) {
    throw new ProblemError('conflict', { detail: `A surface with id ${surface.id} exists already.` });
  }
  await insertSurface(env, surface, kind);
}

export const registerSurfaceRoutes = routeModule('Surfaces', 'public', (routes) => {
  const surface = routes.on(IdParam, (env, { id }) => surfaceOr404(env, id));

  routes.get(
    '/v1/surfaces',
    'Every surface: built-in (pc, s-in, s-ood, s-ood-alt), custom and generated',
    { ok: [200, 'The surfaces', z.object({ items: z.array(SurfaceSummary) })] },
    async (c) => {
      const all = await listSurfaces(c.env);
      return { items: all.map((s) => summary(s.surface, s.kind)) };
    },
  );

  surface.get(
    '/v1/surfaces/{id}',
    'One surface, with its prompt-style tool list',
    { ok: [200, 'The surface', z.object({ surface: SurfaceJson, toolList: z.string() })] },
    (_c, { resource }) => ({
      surface: resource as z.infer<typeof SurfaceJson>,
      toolList: renderToolList(resource),
    }),
  );

  surface.get(
    '/v1/surfaces/{id}/openapi.json',
    "This surface's tools as an OpenAPI 3.1 document (the session REST endpoints in its shape)",
    { ok: [200, 'OpenAPI document', z.record(z.string(), z.unknown())] },
    (_c, { resource: surface }) => {
      const fragment = surfaceOpenApi(surface);
      return {
        openapi: '3.1.0',
        info: {
          title: `tooldrift surface ${surface.id}: ${surface.title}`,
          version: '1',
          description: `${surface.description}\n\nEach path is a tool of this surface, called inside a session (POST /v1/sessions).`,
        },
        servers: [{ url: '/' }],
        security: [{ bearerAuth: [] }],
        ...fragment,
        components: {
          ...(fragment.components as Record<string, unknown>),
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
        },
      };
    },
  );

  routes.post(
    '/v1/surfaces',
    'Create a custom surface, or generate one from a base by seeded drift (admin)',
    {
      description:
        'Send a whole `Surface`, or `{"generate": {"base": "pc", "seed": "7", "kinds": ["rename-tool", "flags"]}}` to derive one. The same seed and kinds always give the same surface.',
      role: 'admin',
      body: z.union([GenerateRequest, SurfaceJson]),
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
          id: g.id ?? driftSurfaceId(base, g.seed, g.kinds),
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
    'How a surface differs from another (default: pc): renamed tools, parameter changes, flags, lifecycle',
    {
      params: IdParam,
      query: z.object({ against: z.string().min(1).max(64).default('pc') }),
      ok: [200, 'The drift', z.record(z.string(), z.unknown())],
      problems: [404],
    },
    async (c, { params: { id }, query: { against } }) => {
      const [surface, base] = await Promise.all([surfaceOr404(c.env, id), surfaceOr404(c.env, against)]);
      return describeDrift(base, surface) as unknown as Record<string, unknown>;
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
