/**
 * GET /v1/methods: the agent methods of the registry (core/methods) — id, one-line summary, the JSON Schema of
 * their options, whether they carry memory across tasks, the aid slots they use and the backends they run on —
 * the aid slots (core/aids) with their option schemas and whether they are available yet, and the presets
 * (core/methods/presets.ts: a method with a set of aids, e.g. the combined agent of a drift stream). The CLI and
 * the dashboard read it.
 */
import { z } from '@hono/zod-openapi';
import { AID_SLOTS } from '../../core/aids/index.ts';
import { presetListing } from '../../core/methods/presets.ts';
import { aidListing, METHOD_IDS, methodListing } from '../../core/methods/registry.ts';
import { arrayPage, pageAnswer, pageParams } from '../http/keyset.ts';
import { component, pageOf, routeModule } from '../http/openapi.ts';

const JsonSchema = z
  .record(z.string(), z.unknown())
  .openapi({ description: 'A JSON Schema (draft 2020-12).' });

const MethodsSchema = component('MethodCatalog', {
  ...pageOf(
    z.object({
      id: z.enum(METHOD_IDS),
      summary: z.string(),
      options: JsonSchema.openapi({
        description: 'JSON Schema of the options; in a suite they are the member named by the id.',
      }),
      carriesMemory: z
        .boolean()
        .openapi({ description: 'Carries memory from one task to the next of a group.' }),
      aids: z.array(z.enum(AID_SLOTS)).openapi({ description: 'The aid slots the method uses.' }),
      backends: z
        .array(z.enum(['kernel', 'api']))
        .openapi({ description: "The backends the method runs on: ToolQA-D's kernel, imported APIs." }),
    }),
  ).shape,
  aids: z.array(
    z.object({
      slot: z.enum(AID_SLOTS),
      summary: z.string(),
      available: z.boolean().openapi({ description: 'False for a declared slot without a provider yet.' }),
      options: JsonSchema,
    }),
  ),
  presets: z.array(
    z.object({
      id: z.string(),
      summary: z.string(),
      method: z.enum(METHOD_IDS).openapi({ description: 'The registered method the preset runs.' }),
      aids: z
        .array(z.enum(AID_SLOTS))
        .openapi({ description: 'The aid slots the preset fills (all of them slots its method uses).' }),
      carriesMemory: z.boolean(),
    }),
  ),
});

export const registerMethodRoutes = routeModule('Agents', 'public', (routes) => {
  routes.get(
    '/v1/methods',
    'Agent methods (id, summary, options, memory, aids), a page at a time, every aid slot and the presets',
    { query: z.object(pageParams(40, 50, 100)), ok: [200, 'The registry', MethodsSchema] },
    (c, { query }) => ({
      ...pageAnswer(
        c,
        arrayPage(methodListing(), query, (m) => m.id),
        (m) => m,
      ),
      aids: aidListing(),
      presets: presetListing(),
    }),
  );
});
