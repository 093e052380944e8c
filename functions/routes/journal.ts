/** The call journal (admin): every session call with what it became, filterable, and resettable. */
import { z } from '@hono/zod-openapi';
import { deleteJournal, listJournal } from '../../edge/stores/journal.ts';
import { component, routeModule } from '../http/openapi.ts';

const Filter = z.object({
  session: z.string().max(100).optional(),
  surface: z.string().max(100).optional(),
  via: z.enum(['react', 'action', 'rest', 'mcp', 'http']).optional(),
  outcome: z.enum(['ok', 'error', 'finished', 'rejected', 'fault']).optional(),
});

/** A JSON value as the journal stored it: the step's input, the kernel call it became, the fault injected. */
const Journalled = z.unknown();

const JournalEntry = component('JournalEntry', {
  id: z.number().int(),
  sessionId: z.string(),
  at: z.string(),
  surfaceId: z.string(),
  via: z.string(),
  action: z.string().nullable(),
  input: Journalled,
  call: Journalled,
  observation: z.string().nullable(),
  outcome: z.string(),
  httpStatus: z.number().int(),
  latencyMs: z.number().int(),
  fault: Journalled,
});

export const registerJournalRoutes = routeModule('Admin', 'admin', (routes) => {
  routes.get(
    '/v1/admin/journal',
    'Journalled session calls, newest first (admin)',
    {
      query: Filter.extend({
        limit: z.coerce.number().int().min(1).max(500).default(100),
        before: z.coerce
          .number()
          .int()
          .positive()
          .optional()
          .openapi({ description: 'Page: entries with a smaller id.' }),
      }),
      ok: [
        200,
        'A page of entries',
        z.object({ items: z.array(JournalEntry), nextBefore: z.number().int().nullable() }),
      ],
      problems: [403],
    },
    async (c, { query: { limit, before, ...filter } }) => {
      const page = await listJournal(c.env, filter, { limit, before });
      return c.json(
        {
          items: page.items.map((r) => ({ ...r, at: new Date(r.at).toISOString() })),
          nextBefore: page.nextBefore,
        },
        200,
      );
    },
  );

  routes.delete(
    '/v1/admin/journal',
    'Delete journalled calls matching the filter (all without one) (admin)',
    {
      query: Filter,
      ok: [200, 'How many were deleted', z.object({ deleted: z.number().int() })],
      problems: [403],
    },
    async (c, { query }) => ({ deleted: await deleteJournal(c.env, query) }),
  );
});
