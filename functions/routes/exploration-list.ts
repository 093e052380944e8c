/**
 * Browsing explorations (issue 7, the dashboard): the list of explorations newest first, and the trees of one
 * exploration with their D1 status and counters, so a client can pick a tree to open (`GET /v1/trees/{id}`)
 * without knowing how tree ids are formed. Starting, reading and cancelling one exploration stay in
 * explorations.ts.
 */
import { z } from '@hono/zod-openapi';
import { getExploration, listExplorations, listTrees } from '../../edge/stores/explorations.ts';
import { pageAnswer, pageParams } from '../http/keyset.ts';
import { component, idParams, itemsPage, routeModule } from '../http/openapi.ts';
import { ProblemError } from '../http/problem.ts';

const STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
const ListQuery = z.object({
  status: z.enum(STATUSES).optional(),
  ...pageParams(100),
});

const ExplorationItem = component('ExplorationListItem', {
  id: z.string(),
  status: z.enum(STATUSES),
  trees: z.number().int(),
  finished: z.number().int().openapi({ description: 'Trees that succeeded or failed.' }),
  solved: z.number().int(),
  surface: z.string().nullable(),
  promptSurface: z.string().nullable(),
  tasks: z.number().int(),
  mode: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  links: z.object({ self: z.string(), trees: z.string() }),
});

const TreeItem = component('TreeListItem', {
  id: z.string(),
  taskId: z.string(),
  treeIndex: z.number().int(),
  status: z.enum(STATUSES),
  solved: z.boolean().nullable(),
  nodes: z.number().int(),
  iterations: z.number().int(),
  modelCalls: z.number().int(),
  updatedAt: z.string(),
  links: z.object({ self: z.string(), events: z.string() }),
});

interface StoredConfig {
  taskIds?: string[];
  surface?: string;
  promptSurface?: string;
  search?: { mode?: string };
}

export const registerExplorationListRoutes = routeModule('Explorations', 'user', (routes) => {
  routes.get(
    '/v1/explorations',
    'Explorations, newest first, with tree counts; by cursor',
    itemsPage(ListQuery, 'A page of explorations', ExplorationItem),
    async (c, { query: q, owner }) => {
      const page = await listExplorations(c.env, { ...q, owner });
      return {
        items: page.items.map(({ row: r, finished, solved }) => {
          const config = r.config as StoredConfig;
          return {
            id: r.id,
            status: r.status,
            trees: r.treesTotal,
            finished,
            solved,
            surface: config.surface ?? null,
            promptSurface: config.promptSurface ?? null,
            tasks: config.taskIds?.length ?? 0,
            mode: config.search?.mode ?? null,
            createdAt: new Date(r.createdAt).toISOString(),
            updatedAt: new Date(r.updatedAt).toISOString(),
            links: { self: `/v1/explorations/${r.id}`, trees: `/v1/explorations/${r.id}/trees` },
          };
        }),
        nextCursor: page.nextCursor,
      };
    },
  );

  routes.get(
    '/v1/explorations/{id}/trees',
    'The trees of an exploration (task, index, status, counters), by task id then tree index; by cursor',
    {
      params: idParams(z.string().min(1).max(100)),
      ...itemsPage(z.object(pageParams(300, 200, 500)), 'A page of trees', TreeItem),
      problems: [404],
    },
    async (c, { params: { id }, query, owner }) => {
      if (!(await getExploration(c.env, id, owner)))
        throw new ProblemError('not-found', { detail: `No exploration with id ${id}.` });
      return pageAnswer(c, await listTrees(c.env, id, query), (t) => ({
        id: t.id,
        taskId: t.taskId,
        treeIndex: t.treeIndex,
        status: t.status,
        solved: t.solved ?? null,
        nodes: t.nodes,
        iterations: t.iterations,
        modelCalls: t.modelCalls,
        updatedAt: new Date(t.updatedAt).toISOString(),
        links: { self: `/v1/trees/${t.id}`, events: `/v1/trees/${t.id}/events` },
      }));
    },
  );
});
