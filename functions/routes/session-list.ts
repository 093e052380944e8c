/**
 * The session browser (issue 7): recent sessions, from the call journal. A session lives in its own Durable
 * Object, which cannot be enumerated; every call made to one is journalled in D1 (`journal`), so grouping the
 * journal by session gives each session that was used: its surfaces, how many calls and how they ended, and
 * its first and last call. A session that was started but never called does not appear. The transcript of one
 * session stays at `GET /v1/sessions/{id}`; the journal rows themselves (inputs, faults) remain admin-only.
 *
 * Sessions belong to the key that started them (edge/stores/sessions.ts): a user key lists its own sessions, an
 * admin key every session.
 *
 * Pagination is by keyset on (last call time, session id), newest activity first.
 */
import { z } from '@hono/zod-openapi';
import { listJournalSessions } from '../../edge/stores/journal.ts';
import { pageAnswer, pageParams } from '../http/keyset.ts';
import { component, itemsPage, routeModule } from '../http/openapi.ts';
import { surfaceFilter } from '../schemas/resource-filters.ts';

const ListQuery = z.object({
  surface: surfaceFilter('Sessions with a call to this surface.'),
  ...pageParams(100),
});

const SessionSummary = component('SessionSummary', {
  id: z.string(),
  surfaces: z.array(z.string()).openapi({ description: 'Server surfaces called (a schedule may switch).' }),
  calls: z.number().int(),
  outcomes: z.record(z.string(), z.number().int()).openapi({ description: 'Calls per outcome.' }),
  finished: z.boolean().openapi({ description: 'A Finish was journalled.' }),
  firstAt: z.string(),
  lastAt: z.string(),
  links: z.object({ self: z.string() }),
});

export const registerSessionListRoutes = routeModule('Sessions', 'user', (routes) => {
  routes.get(
    '/v1/sessions',
    'Recent sessions (from the call journal), most recently active first; by cursor',
    itemsPage(ListQuery, 'A page of sessions', SessionSummary),
    async (c, { query, owner }) => {
      const page = await listJournalSessions(c.env, { ...query, owner });
      return pageAnswer(c, page, ({ id, details: d, firstAt, lastAt }) => ({
        id,
        surfaces: d.surfaces,
        calls: d.calls,
        outcomes: d.outcomes,
        finished: (d.outcomes.finished ?? 0) > 0,
        firstAt: new Date(firstAt).toISOString(),
        lastAt: new Date(lastAt).toISOString(),
        links: { self: `/v1/sessions/${id}` },
      }));
    },
  );
});
