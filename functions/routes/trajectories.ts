/**
 * The trajectory browser (issue 7): the root→Finish paths that finished search trees left in D1 (`trajectories`,
 * written by edge/stores/trajectories.ts), filterable and paginated newest first, and one trajectory with its
 * full ReAct text and steps. A key is required, like the explorations that produced them.
 *
 * Pagination is by keyset on (created_at, id), so a page never repeats or skips a row when trees keep finishing
 * while someone browses; the cursor is the last row's `{createdAt}_{id}`.
 */
import { z } from '@hono/zod-openapi';
import { type TrajectoryStepRecord, trajectoryStats } from '../../core/search/trajectories.ts';
import { DATASET_NAMES } from '../../core/world/types.ts';
import { getTrajectory, listTrajectories, type TrajectoryRow } from '../../edge/stores/trajectories.ts';
import { flagFilter } from '../http/filters.ts';
import { pageAnswer, pageParams } from '../http/keyset.ts';
import { component, idParams, itemsPage, routeModule } from '../http/openapi.ts';
import { foundOr404 } from '../http/problem.ts';
import { explorationFilter, surfaceFilter, taskFilter } from '../schemas/resource-filters.ts';

const ListQuery = z.object({
  exploration: explorationFilter('An exploration id.'),
  task: taskFilter('A task id.'),
  dataset: z.enum(DATASET_NAMES).optional(),
  surface: surfaceFilter('The server surface searched.'),
  success: flagFilter('`true`: correct Finish (reward +1); `false`: wrong Finish (reward −1).'),
  selected: flagFilter(
    'Chosen for the SFT export by its default rule (at most 4 successes per task that repeat no failed call).',
  ),
  ...pageParams(300),
});

const TrajectorySummary = component('TrajectorySummary', {
  id: z.string(),
  treeId: z.string(),
  explorationId: z.string(),
  taskId: z.string(),
  dataset: z.string(),
  surface: z.string(),
  promptSurface: z.string(),
  reward: z.number().int(),
  success: z.boolean(),
  steps: z.number().int().openapi({ description: 'Steps on the path (the Finish included).' }),
  repeats: z.number().int().openapi({
    description:
      'Calls (action and Action Input) made again after the same call had failed on the path; the SFT export leaves such successes out by default.',
  }),
  selected: z.boolean(),
  model: z.string(),
  seed: z.string(),
  createdAt: z.string(),
  links: z.object({ self: z.string(), tree: z.string(), exploration: z.string() }),
});

const TrajectoryStep = z.object({
  node: z.number().int(),
  text: z.string(),
  observation: z.string(),
  action: z.string().optional(),
  outcome: z.string().nullable(),
});

const TrajectoryDetail = TrajectorySummary.extend({
  question: z.string().nullable(),
  leafNode: z.number().int(),
  text: z.string().openapi({ description: 'The ReAct text of the whole path.' }),
  stepList: z.array(TrajectoryStep),
  toolUpdates: z.array(z.string()),
}).openapi('Trajectory');

function summary(r: Omit<TrajectoryRow, 'text' | 'toolUpdates'>): z.infer<typeof TrajectorySummary> {
  return {
    id: r.id,
    treeId: r.treeId,
    explorationId: r.explorationId,
    taskId: r.taskId,
    dataset: r.dataset,
    surface: r.surfaceId,
    promptSurface: r.promptSurfaceId,
    reward: r.reward,
    success: r.reward > 0,
    steps: r.steps.length,
    repeats: trajectoryStats(r.steps as TrajectoryStepRecord[]).repeats,
    selected: r.selected,
    model: r.model,
    seed: r.seed,
    createdAt: new Date(r.createdAt).toISOString(),
    links: {
      self: `/v1/trajectories/${encodeURIComponent(r.id)}`,
      tree: `/v1/trees/${encodeURIComponent(r.treeId)}`,
      exploration: `/v1/explorations/${encodeURIComponent(r.explorationId)}`,
    },
  };
}

export const registerTrajectoryRoutes = routeModule('Explorations', 'user', (routes) => {
  const trajectory = routes.on(idParams(z.string().min(1).max(300)), (env, { id }, { owner }) =>
    foundOr404(getTrajectory(env, id, owner), 'trajectory', id),
  );

  routes.get(
    '/v1/trajectories',
    'Trajectories (root→Finish paths of finished search trees), newest first, filtered; by cursor',
    itemsPage(ListQuery, 'A page of trajectories', TrajectorySummary),
    async (c, { query: { limit, cursor, ...filter }, owner }) => {
      const page = await listTrajectories(c.env, filter, { limit, cursor }, owner);
      return pageAnswer(c, page, summary);
    },
  );

  trajectory.get(
    '/v1/trajectories/{id}',
    'One trajectory: its question, ReAct text, steps and tool updates',
    { ok: [200, 'The trajectory', TrajectoryDetail] },
    (_c, { resource: row }) => {
      const { t } = row;
      return {
        ...summary(t),
        question: row.question ?? null,
        leafNode: t.leafNode,
        text: t.text,
        stepList: t.steps as z.infer<typeof TrajectoryStep>[],
        toolUpdates: t.toolUpdates,
      };
    },
  );
});
