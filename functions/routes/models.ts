/** GET /v1/models: the providers this deployment can use and what each can do. */
import { z } from '@hono/zod-openapi';
import { modelCatalog } from '../../edge/models.ts';
import { component, routeModule } from '../http/openapi.ts';

const CapabilitiesSchema = z.object({
  n: z.boolean(),
  logprobs: z.boolean(),
  seed: z.boolean(),
  embeddings: z.boolean(),
  simulated: z
    .boolean()
    .openapi({ description: 'True for the simulated policy (a seeded stand-in, not a model).' }),
  structuredOutput: z.boolean().optional(),
});

const CatalogSchema = component('ModelCatalog', {
  default: z.object({ provider: z.string(), model: z.string() }),
  providers: z.array(
    z.object({
      provider: z.string(),
      available: z.boolean(),
      reason: z.string().optional(),
      models: z.array(z.string()),
      defaultModel: z.string(),
      capabilities: CapabilitiesSchema,
    }),
  ),
  embeddings: z.object({ provider: z.string(), model: z.string() }),
});

export const registerModelRoutes = routeModule('Models', 'public', (routes) => {
  routes.get(
    '/v1/models',
    'Configured model providers and their capabilities (n, log-probabilities, seed, embeddings)',
    { ok: [200, 'The catalogue', CatalogSchema] },
    (c) => modelCatalog(c.env),
  );
});
