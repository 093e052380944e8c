/**
 * The `explore-tree` job: one queue message per search tree of an exploration, which starts the tree's Durable
 * Object. Starting is idempotent twice over: the job id is `${explorationId}:${treeId}` (enqueueJob sends it
 * once), and `SearchTreeObject.start` leaves an existing tree alone, so a redelivered message creates no second
 * tree and restarts nothing.
 */
import type { SearchConfig } from '../../core/search/config.ts';
import type { TreeStartParams } from '../../durable-objects/search-tree.ts';
import type { Bindings } from '../env.ts';
import { mayContinue, QUOTA_EXHAUSTED } from '../metering.ts';
import type { ModelChoice } from '../models.ts';
import {
  cancelOpenTrees,
  getExploration,
  getTree,
  markTreeStarted,
  openTrees,
  settleExploration,
} from '../stores/explorations.ts';
import { getTask } from '../stores/tasks.ts';
import { treeStub } from '../stubs.ts';
import type { JobContext, JobKind } from './types.ts';

export const EXPLORE_TREE = 'explore-tree';

export interface ExploreTreePayload {
  explorationId: string;
  treeId: string;
}

/** What POST /v1/explorations stores in `explorations.config` (the validated request, resolved). */
export interface ExplorationConfig {
  taskIds: string[];
  surface: string;
  promptSurface: string;
  treesPerTask: number;
  /** The search settings without the seed (each tree derives its own). */
  search: Omit<SearchConfig, 'seed'>;
  model: ModelChoice;
  seed: string;
  chunkIterations?: number;
  /** Where the trees' Durable Objects should be created (near the model server); only a hint to Cloudflare. */
  locationHint?: TreeLocationHint;
}

/** Cloudflare's documented Durable Object location hints. */
export const TREE_LOCATION_HINTS = [
  'wnam',
  'enam',
  'sam',
  'weur',
  'eeur',
  'apac',
  'oc',
  'afr',
  'me',
] as const;
export type TreeLocationHint = (typeof TREE_LOCATION_HINTS)[number] & DurableObjectLocationHint;

/** The seed of one tree: the exploration's seed, the task and the tree's index. */
export function treeSeed(seed: string, taskId: string, treeIndex: number): string {
  return `${seed}/${taskId}/${treeIndex}`;
}

async function exploreTree(payload: unknown, { env }: JobContext) {
  const { explorationId, treeId } = payload as ExploreTreePayload;
  const exploration = await getExploration(env, explorationId);
  const row = await getTree(env, treeId);
  if (!exploration || !row) throw new Error(`exploration ${explorationId} or tree ${treeId} is missing`);
  if (exploration.status === 'cancelled' || row.status === 'cancelled')
    return { treeId, skipped: 'cancelled' };
  // The owner's model-spend quota: with none left, no further tree starts and the running ones stop.
  if (!(await mayContinue(env, exploration.ownerId))) {
    await cancelExploration(env, explorationId, QUOTA_EXHAUSTED);
    return { treeId, skipped: QUOTA_EXHAUSTED };
  }
  const task = await getTask(env, row.taskId);
  if (!task) throw new Error(`task ${row.taskId} is missing`);
  const config = exploration.config as ExplorationConfig;
  const params: TreeStartParams = {
    treeId,
    explorationId,
    task: {
      id: task.id,
      question: task.question,
      gold: task.gold as TreeStartParams['task']['gold'],
      dataset: task.dataset,
    },
    config: { ...config.search, seed: row.seed },
    surfaceId: config.surface,
    promptSurfaceId: config.promptSurface,
    model: config.model,
    ...(config.chunkIterations ? { chunkIterations: config.chunkIterations } : {}),
  };
  const progress = await treeStub(env, treeId, config.locationHint).start(params);
  await markTreeStarted(env, treeId);
  await settleExploration(env, explorationId, 'running');
  return { treeId, status: progress.status };
}

/**
 * Cancels an exploration (by its owner, or by itself with a reason when its quota ran out): queued trees never
 * start (their jobs see the cancelled exploration), running ones are stopped.
 */
export async function cancelExploration(
  env: Bindings,
  explorationId: string,
  stoppedFor?: string,
): Promise<void> {
  await settleExploration(env, explorationId, 'cancelled', stoppedFor);
  for (const t of await openTrees(env, explorationId)) {
    if (t.status === 'running') await treeStub(env, t.id).cancel();
  }
  await cancelOpenTrees(env, explorationId);
}

/** The `explore-tree` job kind. */
export const exploreTreeJob: JobKind = { kind: EXPLORE_TREE, run: exploreTree };
