/**
 * User keys (issue 13 item 6): admins issue, list and revoke them. A key is stored hashed (SHA-256); its secret
 * is in the issue answer only. Each key owns what it creates (edge/stores/owners.ts), has its own rate limit and
 * a model-call quota that evaluations and explorations check before they start and stop at.
 */
import { z } from '@hono/zod-openapi';
import { type ApiKeyInfo, issueKey, listKeys, revokeKey } from '../../edge/stores/api-keys.ts';
import { pageAnswer, pageParams } from '../http/keyset.ts';
import { component, idParams, itemsPage, routeModule } from '../http/openapi.ts';
import { foundOr404 } from '../http/problem.ts';
import { toView } from '../schemas/view.ts';

const KeyId = z
  .string()
  .regex(/^key_[0-9a-f]{20}$/, 'expected a key id such as key_0123456789abcdef0123')
  .openapi({ description: 'A key id returned by POST /v1/keys.' });

const IssueKey = z
  .strictObject({
    name: z.string().trim().min(1).max(100).openapi({ description: 'Who or what the key is for.' }),
    ratePerMinute: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .openapi({ description: "Requests per minute (default: the deployment's RATE_LIMIT_PER_MINUTE)." }),
    rateBurst: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .openapi({ description: "Burst size (default: the deployment's RATE_LIMIT_BURST)." }),
    modelCallQuota: z.number().int().min(0).max(1_000_000_000).optional().openapi({
      description:
        "Model calls this key's evaluations and explorations may make in all (default: no limit). They check it before they start and stop when it is used up.",
    }),
  })
  .openapi('IssueKey');

const ApiKey = component('ApiKey', {
  id: z.string(),
  name: z.string(),
  prefix: z.string().openapi({ description: 'The first characters of the secret, to tell keys apart.' }),
  ratePerMinute: z.number().int().nullable(),
  rateBurst: z.number().int().nullable(),
  modelCallQuota: z.number().int().nullable(),
  modelCallsUsed: z.number().int(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  links: z.object({ self: z.string() }),
});

const IssuedKey = ApiKey.extend({
  secret: z.string().openapi({ description: 'The bearer key. Shown once: only its SHA-256 is stored.' }),
}).openapi('IssuedKey');

function view(k: ApiKeyInfo): z.infer<typeof ApiKey> {
  return toView(ApiKey, k, { links: { self: `/v1/keys/${k.id}` } });
}

export const registerKeyRoutes = routeModule('Keys', 'admin', (routes) => {
  routes.post(
    '/v1/keys',
    'Issue a user key (admin): its own rate limit and model-call quota; the secret is shown once',
    {
      body: IssueKey,
      example: { name: 'lab laptop', ratePerMinute: 120, modelCallQuota: 10_000 },
      ok: [201, 'The key, with its secret', IssuedKey],
      problems: [403],
    },
    async (c, { body }) => {
      const { key, secret } = await issueKey(c.env, body);
      return c.json({ ...view(key), secret }, 201, { location: `/v1/keys/${key.id}` });
    },
  );

  routes.get(
    '/v1/keys',
    'Issued user keys (admin), newest first, revoked ones included; never their secrets',
    { ...itemsPage(z.object(pageParams(40)), 'A page of keys', ApiKey), problems: [403] },
    async (c, { query }) => pageAnswer(c, await listKeys(c.env, query), view),
  );

  routes.delete(
    '/v1/keys/{id}',
    'Revoke a user key (admin): it answers 401 from then on; what it created stays',
    { params: idParams(KeyId), ok: [200, 'The revoked key', ApiKey], problems: [403, 404] },
    async (c, { params: { id } }) => {
      const key = await foundOr404(revokeKey(c.env, id), 'key', id);
      return view(key);
    },
  );
});
