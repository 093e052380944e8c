/**
 * Explorations (ToolEvo data collection, issue 6): tasks × trees per task, each tree a Monte Carlo tree search in
 * its own Durable Object, fanned out through the JOBS queue (`explore-tree`, edge/jobs/explore-tree.ts).
 * D1 holds the exploration and one row per tree (status, counters, outcome); the trees' objects hold the nodes.
 */
import { z } from '@hono/zod-openapi';
import {
  DEPTH_RULES,
  EMPTY_CANDIDATE_RULES,
  PRIOR_MODES,
  ROLLOUT_RULES,
  treeModelCalls,
} from '../../core/search/config.ts';
import { DATASET_NAMES } from '../../core/world/types.ts';
import type { Bindings } from '../../edge/env.ts';
import { enqueueJob } from '../../edge/jobs/enqueue.ts';
import {
  cancelExploration,
  EXPLORE_TREE,
  type ExplorationConfig,
  TREE_LOCATION_HINTS,
  treeSeed,
} from '../../edge/jobs/explore-tree.ts';
import { type Estimate, spendView, startSpend } from '../../edge/metering.ts';
import { ModelChoiceSchema, textModelFor } from '../../edge/models.ts';
import {
  getExploration,
  insertExploration,
  treeStats,
  treeWithConfig,
} from '../../edge/stores/explorations.ts';
import type { Owner } from '../../edge/stores/owners.ts';
import { requireSurface } from '../../edge/stores/surfaces.ts';
import { missingTaskIds, taskIdsMatching } from '../../edge/stores/tasks.ts';
import { treeStub } from '../../edge/stubs.ts';
import { byId, component, idParams, requestBody, routeModule } from '../http/openapi.ts';
import { cancelOwned, ownedOr404, ProblemError } from '../http/problem.ts';
import { MODEL_USAGE } from '../schemas/agent-run.ts';
import { DryRunField, dryRunAnswer, dryRunResponse, spendFields, spendMembers } from '../schemas/spend.ts';
import { surfaceChoice } from '../schemas/surface-choice.ts';

/** Trees of one exploration at most (tasks × treesPerTask). */
export const MAX_TREES = 2000;

const SearchSettings = requestBody('SearchSettings', {
  mode: z.enum(['mcts', 'greedy']).default('mcts'),
  k: z.number().int().min(1).max(16).default(5).openapi({ description: 'Candidates per expansion.' }),
  maxDepth: z.number().int().min(1).max(50).default(15).openapi({ description: 'T: max depth of a path.' }),
  depthRule: z.enum(DEPTH_RULES).default('paper').openapi({
    description:
      "How depth is compared with T: 'paper' (Algorithm 1: depth > T), 'code' (authors' code: parent depth > T), 'tooldrift' (depth >= T).",
  }),
  priors: z.enum(PRIOR_MODES).default('raw').openapi({
    description:
      "'raw' exp(mean token log-prob) as in ToolEvo; 'normalised' over siblings (tooldrift option).",
  }),
  emptyCandidates: z.enum(EMPTY_CANDIDATE_RULES).default('any').openapi({
    description:
      "'any': one empty sample makes the state terminal with −1 (ToolEvo); 'all': only when all are empty.",
  }),
  promptWordLimit: z.number().int().min(0).max(1_000_000).default(8000).openapi({
    description: 'Prompts over this many words count as an empty generation (0: no limit).',
  }),
  frequencyPenalty: z.number().min(-2).max(2).default(1.2),
  reflectionPrompt: z
    .boolean()
    .default(false)
    .openapi({ description: 'tooldrift option: explicit reflection prompt on error states.' }),
  fewShots: z.enum(['per-call', 'fixed']).default('per-call').openapi({
    description:
      "'per-call': ToolEvo's few-shots drawn for every generation (1 UpdateTool + 2 of the task's dataset); 'fixed': tooldrift's three fixed examples.",
  }),
  driftHint: z.boolean().default(false).openapi({
    description:
      "tooldrift option: a hint that tools drift in the prompt's guidelines (off: ToolEvo's prompt gives none).",
  }),
  simulations: z.number().int().min(1).max(500).default(12).openapi({ description: 'M: simulations.' }),
  cPuct: z.number().min(0).max(100).default(1.25),
  temperature: z.number().min(0).max(2).default(0.5),
  maxLoads: z.number().int().min(0).max(100).default(5),
  maxModelCalls: z.number().int().min(1).max(100_000).default(2000),
  maxTokens: z.number().int().min(1).default(20_000_000),
  maxNewTokens: z.number().int().min(1).max(8192).default(1024),
  selfReflection: z.boolean().default(true).openapi({
    description:
      'Ablation w/o self-reflection when false: no reflection on invocation errors (their messages are hidden from the prompt; with reflectionPrompt, the reflection prompt is used on deprecation errors only).',
  }),
  toolUpdate: z.boolean().default(true).openapi({
    description:
      'Ablation w/o tool update when false: no UpdateTool in the prompt (tool list, guideline, example) nor on the server.',
  }),
  cachedRollout: z.boolean().default(true).openapi({ description: 'Ablation: reuse rollout states.' }),
  rollout: z.enum(ROLLOUT_RULES).default('all').openapi({
    description:
      "'all': every new child of an expansion is rolled out (the authors' code); 'one': one new child chosen at random (ToolEVO Algorithm 1).",
  }),
});

const TaskFilter = z
  .object({
    dataset: z.enum(DATASET_NAMES).optional(),
    difficulty: z.enum(['easy', 'hard']).optional(),
    split: z.enum(['train', 'dev', 'test']).optional(),
    limit: z.number().int().min(1).max(500).default(10),
  })
  .strict();

const CreateExploration = requestBody('CreateExploration', {
  tasks: z
    .union([z.array(z.string().min(1).max(200)).min(1).max(500), TaskFilter])
    .openapi({ description: 'Task ids, or a filter (first `limit` matching tasks by id).' }),
  surface: surfaceChoice('s-in', 'Server surface id (default s-in: ToolEvo explores on P_s_in).'),
  promptSurface: surfaceChoice('pc', 'Surface whose docs the agent sees.'),
  treesPerTask: z.number().int().min(1).max(50).default(20),
  search: SearchSettings.default(SearchSettings.parse({})),
  model: ModelChoiceSchema.default({}),
  seed: z.string().min(1).max(200).default('0'),
  /** Iterations per alarm of each tree (tests use small chunks to step through a search). */
  chunkIterations: z.number().int().min(1).max(100).optional(),
  locationHint: z
    .enum(TREE_LOCATION_HINTS)
    .optional()
    .openapi({
      description:
        "Durable Object location hint for the exploration's trees, so their searches run near the model server " +
        '(Cloudflare creates each tree object near the hinted region; a hint, not a guarantee). It has no ' +
        'effect in local development (wrangler dev, tests).',
    }),
  dryRun: DryRunField,
});

const Counts = z.object({
  queued: z.number().int(),
  running: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});

const ExplorationView = component('Exploration', {
  id: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
  stoppedFor: z.string().nullable().openapi({
    description:
      "Why a cancelled exploration stopped by itself: `quota-exhausted` when its key's model-call quota ran out before every tree started (null otherwise).",
  }),
  trees: z.number().int(),
  counts: Counts,
  solved: z.number().int(),
  successRate: z.number().nullable().openapi({ description: 'Solved / finished trees so far.' }),
  usage: z.object({ nodes: z.number().int(), iterations: z.number().int(), ...MODEL_USAGE }),
  config: z.record(z.string(), z.unknown()),
  ...spendMembers,
  createdAt: z.string(),
  updatedAt: z.string(),
  links: z.record(z.string(), z.string()),
});

const ExplorationId = z.string().min(1).max(100);

async function resolveTasks(
  env: Bindings,
  spec: z.infer<typeof CreateExploration>['tasks'],
): Promise<string[]> {
  if (Array.isArray(spec)) {
    const unique = [...new Set(spec)];
    const missing = await missingTaskIds(env, unique);
    if (missing.length > 0) {
      throw new ProblemError('validation-error', {
        detail: `Unknown task id${missing.length > 1 ? 's' : ''}: ${missing.slice(0, 5).join(', ')}.`,
        errors: missing
          .slice(0, 5)
          .map((id) => ({ in: 'body', field: 'tasks', pointer: '/tasks', message: `no task ${id}` })),
      });
    }
    return unique;
  }
  const ids = await taskIdsMatching(env, spec, spec.limit);
  if (ids.length === 0) {
    throw new ProblemError('validation-error', {
      detail: 'No task matches the filter (is the world seeded?).',
      errors: [{ in: 'body', field: 'tasks', pointer: '/tasks', message: 'matches no task' }],
    });
  }
  return ids;
}

/** The exploration, if the caller may see it (another user key's is a 404 like a missing one). */
const explorationOf = ownedOr404(getExploration, 'exploration');

type ExplorationRow = Awaited<ReturnType<typeof explorationOf>>;

/** The exploration as the API shows it: its row with its trees' counts and usage. */
async function explorationView(env: Bindings, row: ExplorationRow): Promise<z.infer<typeof ExplorationView>> {
  const groups = await treeStats(env, row.id);
  const counts = { queued: 0, running: 0, done: 0, failed: 0, cancelled: 0 };
  const usage = { nodes: 0, iterations: 0, modelCalls: 0, inputTokens: 0, outputTokens: 0 };
  let solved = 0;
  for (const g of groups) {
    counts[g.status === 'succeeded' ? 'done' : g.status] += g.n;
    solved += g.solved;
    usage.nodes += g.nodes;
    usage.iterations += g.iterations;
    usage.modelCalls += g.modelCalls;
    usage.inputTokens += g.inputTokens;
    usage.outputTokens += g.outputTokens;
  }
  const finished = counts.done + counts.failed;
  return {
    id: row.id,
    status: row.status,
    stoppedFor: row.stoppedFor,
    trees: row.treesTotal,
    counts,
    solved,
    successRate: finished === 0 ? null : solved / finished,
    usage,
    config: row.config as Record<string, unknown>,
    ...spendFields(await spendView(env, 'exploration', row.id)),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    links: {
      self: `/v1/explorations/${row.id}`,
      events: `/v1/explorations/${row.id}/events`,
      trees: '/v1/trees/{treeId}',
    },
  };
}

/** The aggregate progress an exploration's event stream sends (null once the exploration is gone). */
async function explorationProgress(env: Bindings, id: string, owner: Owner) {
  const row = await getExploration(env, id, owner);
  if (!row) return null;
  const view = await explorationView(env, row);
  return {
    data: {
      status: view.status,
      counts: view.counts,
      solved: view.solved,
      successRate: view.successRate,
      usage: view.usage,
    },
    done: view.status !== 'queued' && view.status !== 'running',
  };
}

export const registerExplorationRoutes = routeModule('Explorations', 'user', (routes) => {
  const exploration = routes.on(idParams(ExplorationId), byId(explorationOf));
  const tree = routes.on(idParams(z.string().min(1).max(200)), byId(treeOrProblem));

  routes.post(
    '/v1/explorations',
    'Start an exploration: ToolEvo tree searches over tasks × trees per task, through the queue',
    {
      body: CreateExploration,
      example: {
        tasks: { dataset: 'coffee', split: 'train', limit: 1 },
        surface: 's-ood',
        treesPerTask: 1,
        search: { simulations: 2, k: 2, maxDepth: 8 },
        seed: 'example',
      },
      ok: [202, 'The exploration', ExplorationView],
      responses: dryRunResponse,
    },
    async (c, { body, owner }) => {
      await requireSurface(c.env, body.surface, 'surface');
      await requireSurface(c.env, body.promptSurface, 'promptSurface');
      textModelFor(c.env, body.model); // a 400 when this deployment cannot serve the model choice
      const taskIds = await resolveTasks(c.env, body.tasks);
      const total = taskIds.length * body.treesPerTask;
      if (total > MAX_TREES) {
        throw new ProblemError('validation-error', {
          detail: `${taskIds.length} tasks × ${body.treesPerTask} trees is ${total} trees; the maximum is ${MAX_TREES}.`,
          errors: [
            { in: 'body', field: 'treesPerTask', pointer: '/treesPerTask', message: 'too many trees' },
          ],
        });
      }
      const estimate: Estimate = { modelCalls: total * treeModelCalls(body.search) };
      if (body.dryRun) return await dryRunAnswer(c, owner.id, estimate);
      const id = crypto.randomUUID();
      await startSpend(c.env, { kind: 'exploration', id, ownerId: owner.id }, estimate);
      const now = Date.now();
      const config: ExplorationConfig = {
        taskIds,
        surface: body.surface,
        promptSurface: body.promptSurface,
        treesPerTask: body.treesPerTask,
        search: body.search,
        model: body.model,
        seed: body.seed,
        ...(body.chunkIterations ? { chunkIterations: body.chunkIterations } : {}),
        ...(body.locationHint ? { locationHint: body.locationHint } : {}),
      };
      const rows = taskIds.flatMap((taskId, t) =>
        Array.from({ length: body.treesPerTask }, (_, i) => ({
          id: `${id}.${t}.${i}`,
          explorationId: id,
          taskId,
          treeIndex: i,
          status: 'queued' as const,
          seed: treeSeed(body.seed, taskId, i),
          updatedAt: now,
        })),
      );
      await insertExploration(
        c.env,
        { id, ownerId: owner.id, config, treesTotal: total, createdAt: now },
        rows,
      );
      for (const row of rows) {
        await enqueueJob(
          c.env,
          EXPLORE_TREE,
          { explorationId: id, treeId: row.id },
          { id: `${id}:${row.id}`, ownerId: owner.id },
        );
      }
      return await explorationView(c.env, await explorationOf(c.env, id, owner));
    },
  );

  exploration.get(
    '/v1/explorations/{id}',
    'Status, tree counts, success rate so far and usage of an exploration',
    { ok: [200, 'The exploration', ExplorationView] },
    (c, { resource: row }) => explorationView(c.env, row),
  );

  exploration.events(
    '/v1/explorations/{id}/events',
    'Aggregate progress as Server-Sent Events (`progress` each second while it changes, then `done`)',
    (env, { params: { id }, owner }) => explorationProgress(env, id, owner),
    'the exploration was deleted',
  );

  routes.delete(
    '/v1/explorations/{id}',
    'Cancel an exploration: queued trees never start, running trees stop',
    { params: idParams(ExplorationId), ok: [200, 'The exploration', ExplorationView], problems: [404] },
    async (c, { params: { id }, owner }) =>
      cancelOwned(
        () => explorationOf(c.env, id, owner),
        () => cancelExploration(c.env, id),
        (row) => explorationView(c.env, row),
      ),
  );

  tree.get(
    '/v1/trees/{id}',
    'One search tree as JSON for visualisation (cached rollout nodes marked)',
    { ok: [200, 'The tree', z.record(z.string(), z.unknown())] },
    (_c, { resource: view }) => view as unknown as Record<string, unknown>,
  );

  // A tree that has not started is a 404 (the loader), not an empty stream.
  tree.events(
    '/v1/trees/{id}/events',
    "One tree's progress as Server-Sent Events (simulations, best reward, nodes, model calls)",
    async (env, { params: { id } }) => {
      const progress = await treeStub(env, id).progress();
      return progress ? { data: progress, done: progress.status !== 'running' } : null;
    },
    'no such tree',
  );
});

async function treeOrProblem(env: Bindings, id: string, owner: Owner) {
  const row = await treeWithConfig(env, id, owner);
  // A queued tree's object may not exist yet: asking for it here creates it, so with the exploration's hint.
  const view = row ? await treeStub(env, id, (row.config as ExplorationConfig).locationHint).tree() : null;
  if (!view) throw new ProblemError('not-found', { detail: `No started tree with id ${id}.` });
  return view;
}
