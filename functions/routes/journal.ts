/** The call journal (admin): every session call with what it became, filterable, and resettable. */
import { z } from '@hono/zod-openapi';
import { deleteJournal, listJournal } from '../../edge/stores/journal.ts';
import { pageAnswer, pageParams } from '../http/keyset.ts';
import { component, itemsPage, routeModule } from '../http/openapi.ts';
import { sessionFilter, surfaceFilter } from '../schemas/resource-filters.ts';

const Filter = z.object({
  session: sessionFilter(),
  surface: surfaceFilter(),
  via: z.enum(['react', 'action', 'rest', 'mcp', 'http']).optional(),
  outcome: z.enum(['ok', 'error', 'refused', 'finished', 'rejected', 'fault']).optional(),
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
      ...itemsPage(Filter.extend(pageParams(40, 100, 500)), 'A page of entries', JournalEntry),
      problems: [403],
    },
    async (c, { query: { limit, cursor, ...filter } }) => {
      const page = await listJournal(c.env, filter, { limit, cursor });
      return pageAnswer(c, page, (r) => ({ ...r, at: new Date(r.at).toISOString() }));
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
