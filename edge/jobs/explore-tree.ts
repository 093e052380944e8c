/**
 * The `explore-tree` job: one queue message per search tree of an exploration, which starts the tree's Durable
 * Object. Starting is idempotent twice over: the job id is `${explorationId}:${treeId}` (enqueueJob sends it
 * once), and `SearchTreeObject.start` leaves an existing tree alone, so a redelivered message creates no second
 * tree and restarts nothing.
 */
import { and, eq } from 'drizzle-orm';
import type { SearchConfig } from '../../core/search/config.ts';
import type { SearchTree } from '../../core/search/tree.ts';
import { database } from '../../db/client.ts';
import { explorations, tasks, trees } from '../../db/schema.ts';
import type { TreeProgress, TreeStartParams, TreeView } from '../../durable-objects/search-tree.ts';
import type { Bindings } from '../env.ts';
import type { ModelChoice } from '../models.ts';
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

/** The tree's Durable Object, typed by its own method signatures. */
export interface TreeRpc {
  start(params: TreeStartParams): Promise<TreeProgress>;
  progress(): Promise<TreeProgress | null>;
  tree(): Promise<TreeView | null>;
  searchTree(): Promise<SearchTree | null>;
  cancel(): Promise<TreeProgress | null>;
  fetch(request: Request): Promise<Response>;
}

/**
 * The stub of a tree's object. The location hint only matters when the object does not exist yet (it is created
 * near the hinted region); later gets may leave it out.
 */
export function treeStub(env: Bindings, treeId: string, locationHint?: TreeLocationHint): TreeRpc {
  const id = env.TREES.idFromName(treeId);
  return (locationHint ? env.TREES.get(id, { locationHint }) : env.TREES.get(id)) as unknown as TreeRpc;
}

async function exploreTree(payload: unknown, { env }: JobContext) {
  const { explorationId, treeId } = payload as ExploreTreePayload;
  const db = database(env.DB);
  const [exploration] = await db
    .select()
    .from(explorations)
    .where(eq(explorations.id, explorationId))
    .limit(1);
  const [row] = await db.select().from(trees).where(eq(trees.id, treeId)).limit(1);
  if (!exploration || !row) throw new Error(`exploration ${explorationId} or tree ${treeId} is missing`);
  if (exploration.status === 'cancelled' || row.status === 'cancelled')
    return { treeId, skipped: 'cancelled' };
  const [task] = await db.select().from(tasks).where(eq(tasks.id, row.taskId)).limit(1);
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
  const now = Date.now();
  await db
    .update(trees)
    .set({ status: 'running', updatedAt: now })
    .where(and(eq(trees.id, treeId), eq(trees.status, 'queued')));
  await db
    .update(explorations)
    .set({ status: 'running', updatedAt: now })
    .where(and(eq(explorations.id, explorationId), eq(explorations.status, 'queued')));
  return { treeId, status: progress.status };
}

/** The `explore-tree` job kind. */
export const exploreTreeJob: JobKind = { kind: EXPLORE_TREE, run: exploreTree };
