/**
 * A surface as a whole OpenAPI 3.1 document: an imported API's surface is the drifted API itself
 * (`apiSurfaceOpenApi`); a kernel surface is its session REST endpoints in its shape (`surfaceOpenApi`'s paths and
 * components, with the bearer scheme). Served by `GET /v1/surfaces/{id}/openapi.json` and
 * `GET /v1/streams/{id}/releases/{n}/openapi.json`.
 */
import type { ApiSurface } from '../../core/apis/surface/model.ts';
import { apiSurfaceOpenApi } from '../../core/apis/surface/openapi.ts';
import type { ApiCatalog } from '../../core/apis/types.ts';
import { surfaceOpenApi } from '../../core/surfaces/docs.ts';
import type { Surface } from '../../core/surfaces/model.ts';

export type AnySurface =
  | { kind: 'kernel'; surface: Surface }
  | { kind: 'api'; surface: ApiSurface; catalog: ApiCatalog };

export function surfaceDocument(found: AnySurface): Record<string, unknown> {
  if (found.kind === 'api') return apiSurfaceOpenApi(found.surface, found.catalog);
  const surface = found.surface;
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
}
