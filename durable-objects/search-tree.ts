/**
 * One ToolEvo search tree per Durable Object (spec §8.2, issue 6). The search itself is `core/search/mcts.ts`;
 * this class stores the tree, advances it in alarm-driven chunks, reports progress and, when the search ends,
 * writes the outcome to the D1 `trees` row.
 *
 * Storage (the object's SQLite): `nodes` holds one row per node (id, JSON) and `meta` one row with everything
 * else of the tree (task, config, iteration counter, usage, done, stop reason) plus this object's own state
 * (start parameters, status, failed attempts, whether the outcome reached D1). A chunk writes only the nodes it
 * created or changed, with multi-row INSERT OR REPLACE statements of at most 100 bound parameters, and the meta
 * row, all in one synchronous transaction: storage always holds the tree as after a whole number of iterations.
 *
 * Resumption: every alarm reloads the tree from storage before it searches. An alarm that fails or is cut off
 * (eviction, restart, a provider error) has written nothing of its unfinished chunk, and the search is seeded by
 * (seed, iteration) and the state ids (mcts.ts), so the retried chunk recomputes exactly the same nodes: none is
 * lost, none duplicated, and the finished tree equals an uninterrupted search with the same seed. `resume` sets
 * the alarm again for a running tree that has none (the cron sweeper calls it when the tree's progress stalled).
 */

import { DurableObject } from 'cloudflare:workers';
import { outcomeLabel } from '../core/methods/method.ts';
import { meteredModel, UsageMeter } from '../core/models/usage.ts';
import type { SearchConfig } from '../core/search/config.ts';
import { runSearch, searchEnv, summarizeSearch } from '../core/search/mcts.ts';
import { explorationComplete, rewardProgress } from '../core/search/progress.ts';
import {
  createTree,
  ROOT,
  type SearchNode,
  type SearchStopReason,
  type SearchTask,
  type SearchTree,
  type SearchUsage,
  TREE_FORMAT,
} from '../core/search/tree.ts';
import { asBackground } from '../core/util/foreground.ts';
import type { Bindings } from '../edge/env.ts';
import { chargeSpend, mayContinue, QUOTA_EXHAUSTED } from '../edge/metering.ts';
import { type ModelChoice, textModelFor } from '../edge/models.ts';
import {
  getExploration,
  recordTreeOutcome,
  settleExploration,
  treeStatusCounts,
  updateTreeCounters,
} from '../edge/stores/explorations.ts';
import { jobSurfaces } from '../edge/stores/surfaces.ts';
import { recordTrajectories } from '../edge/stores/trajectories.ts';
import { edgeKernelDeps, worldFor } from '../edge/world-runtime.ts';
import { afterFailedChunk, type ChunkedJobMeta, retryAt } from './chunked-job.ts';

/** What a tree needs to run: the task (with its gold), the search settings, the surfaces and the model. */
export interface TreeStartParams {
  treeId: string;
  explorationId: string;
  task: SearchTask & { id: string; dataset: string };
  config: SearchConfig;
  surfaceId: string;
  promptSurfaceId: string;
  model: ModelChoice;
  /** Iterations per alarm (default CHUNK_ITERATIONS). */
  chunkIterations?: number;
}

export type TreeStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface TreeProgress {
  treeId: string;
  status: TreeStatus;
  /** Simulations done and asked for (M). */
  simulations: number;
  simulationsTotal: number;
  nodes: number;
  modelCalls: number;
  /** The best terminal reward found so far (+1 once a correct Finish exists), null before any terminal node. */
  bestReward: number | null;
  solved: boolean;
  done: boolean;
  stopReason: SearchStopReason | 'cancelled' | 'failed' | null;
  error: string | null;
}

/** A node as the visualisation sees it (its environment state is left out). */
export interface TreeViewNode {
  id: number;
  parent: number | null;
  children: number[];
  depth: number;
  text: string;
  observation: string;
  action: string | null;
  /** What the server did with the step: `ok`, `finished:…`, `error:<reason>`, `rejected:<reason>`; `none` at the root. */
  outcome: string;
  prior: number;
  visits: number;
  value: number;
  q: number;
  terminal: boolean;
  reward: number | null;
  ending: SearchNode['ending'];
  /** Created by a rollout and never visited by back-propagation (N = 0): a cached rollout state. */
  cached: boolean;
}

export interface TreeView {
  treeId: string;
  explorationId: string;
  task: { id: string; question: string; dataset: string };
  config: SearchConfig;
  progress: TreeProgress;
  summary: ReturnType<typeof summarizeSearch>;
  nodes: TreeViewNode[];
}

interface Meta extends ChunkedJobMeta {
  params: TreeStartParams;
  iteration: number;
  usage: SearchUsage;
  model: string | null;
  done: boolean;
  stopReason: SearchStopReason | null;
  status: TreeStatus;
}

/** Iterations per alarm: small enough to stay far below an invocation's CPU limit with a hosted model. */
export const CHUNK_ITERATIONS = 4;
/** Wall-clock budget of one chunk (checked between iterations). */
export const CHUNK_MILLISECONDS = 20_000;
/** D1 and Durable Object SQLite allow at most 100 bound parameters per statement; a node row binds 2. */
const NODES_PER_STATEMENT = 50;

function countersOf(meta: Meta, tree: SearchTree) {
  return {
    nodes: tree.nodes.length,
    iterations: meta.iteration,
    modelCalls: meta.usage.modelCalls,
    inputTokens: meta.usage.inputTokens,
    outputTokens: meta.usage.outputTokens,
  };
}

export class SearchTreeObject extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.ctx.storage.sql.exec(
        'CREATE TABLE IF NOT EXISTS nodes (id INTEGER PRIMARY KEY, json TEXT NOT NULL)',
      );
      this.ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, json TEXT NOT NULL)');
    });
  }

  /** `f` of the stored meta, or null before the tree has started. */
  private ofMeta<T>(f: (meta: Meta) => T): T | null {
    const meta = this.readMeta();
    return meta ? f(meta) : null;
  }

  private readMeta(): Meta | null {
    const row = this.ctx.storage.sql
      .exec<{ json: string }>("SELECT json FROM meta WHERE key = 'tree'")
      .toArray()[0];
    return row ? (JSON.parse(row.json) as Meta) : null;
  }

  private writeMeta(meta: Meta): void {
    this.ctx.storage.sql.exec(
      "INSERT OR REPLACE INTO meta (key, json) VALUES ('tree', ?)",
      JSON.stringify(meta),
    );
  }

  private writeNodes(nodes: SearchNode[]): void {
    for (let i = 0; i < nodes.length; i += NODES_PER_STATEMENT) {
      const chunk = nodes.slice(i, i + NODES_PER_STATEMENT);
      const values = chunk.map(() => '(?, ?)').join(', ');
      this.ctx.storage.sql.exec(
        `INSERT OR REPLACE INTO nodes (id, json) VALUES ${values}`,
        ...chunk.flatMap((n) => [n.id, JSON.stringify(n)]),
      );
    }
  }

  private loadTree(meta: Meta): SearchTree {
    const nodes = this.ctx.storage.sql
      .exec<{ id: number; json: string }>('SELECT id, json FROM nodes ORDER BY id')
      .toArray()
      .map((r, i) => {
        if (r.id !== i) throw new Error(`search tree storage is missing node ${i}`);
        return JSON.parse(r.json) as SearchNode;
      });
    // The dataset stays on the task: the search draws the prompt's few-shots from that dataset's pool.
    const task = meta.params.task;
    return {
      format: TREE_FORMAT,
      task,
      config: meta.params.config,
      nodes,
      iteration: meta.iteration,
      usage: meta.usage,
      model: meta.model,
      done: meta.done,
      stopReason: meta.stopReason,
    };
  }

  /**
   * Creates the tree and schedules its first chunk. Idempotent: a second call for a tree that exists (a
   * redelivered queue message) changes nothing and returns its progress.
   */
  async start(params: TreeStartParams): Promise<TreeProgress> {
    const existing = this.readMeta();
    if (existing) return this.progressOf(existing);
    const root = createTree(params.task, params.config);
    const meta: Meta = {
      params,
      iteration: 0,
      usage: root.usage,
      model: null,
      done: false,
      stopReason: null,
      status: 'running',
      failures: 0,
      error: null,
      reported: false,
    };
    this.ctx.storage.transactionSync(() => {
      this.writeNodes(root.nodes);
      this.writeMeta(meta);
    });
    await this.ctx.storage.setAlarm(Date.now());
    return this.progressOf(meta);
  }

  async progress(): Promise<TreeProgress | null> {
    return this.ofMeta((meta) => this.progressOf(meta));
  }

  async tree(): Promise<TreeView | null> {
    const meta = this.readMeta();
    if (!meta) return null;
    const tree = this.loadTree(meta);
    return {
      treeId: meta.params.treeId,
      explorationId: meta.params.explorationId,
      task: {
        id: meta.params.task.id,
        question: meta.params.task.question,
        dataset: meta.params.task.dataset,
      },
      config: meta.params.config,
      progress: this.progressOf(meta, tree),
      summary: summarizeSearch(tree),
      nodes: tree.nodes.map((n) => ({
        id: n.id,
        parent: n.parent,
        children: n.children,
        depth: n.depth,
        text: n.text,
        observation: n.observation,
        action: n.action ?? null,
        outcome: outcomeLabel(n.outcome),
        prior: n.prior,
        visits: n.visits,
        value: n.value,
        q: n.visits === 0 ? 0 : n.value / n.visits,
        terminal: n.terminal,
        reward: n.reward,
        ending: n.ending,
        cached: n.id !== ROOT && n.visits === 0,
      })),
    };
  }

  /** The whole stored tree (what `serializeTree` of an in-process search gives). */
  async searchTree(): Promise<SearchTree | null> {
    return this.ofMeta((meta) => this.loadTree(meta));
  }

  /** Sets the alarm again when the search is running and none is set (after a restart lost it); true if it did. */
  async resume(): Promise<boolean> {
    if (this.readMeta()?.status !== 'running' || (await this.ctx.storage.getAlarm()) !== null) return false;
    await this.ctx.storage.setAlarm(Date.now());
    return true;
  }

  /** Stops the search; the nodes found so far stay readable. */
  async cancel(): Promise<TreeProgress | null> {
    const meta = this.readMeta();
    if (!meta) return null;
    if (meta.status === 'running') {
      meta.status = 'cancelled';
      this.writeMeta(meta);
      await this.ctx.storage.deleteAlarm();
      await this.report(meta);
    }
    return this.progressOf(meta);
  }

  /** A chunk of the work runs as background work: its pacers defer to requests (core/util/foreground.ts). */
  override alarm(): Promise<void> {
    return asBackground(() => this.runChunk());
  }

  /** One chunk of the search, then the next alarm (or the outcome to D1 when the search is over). */
  private async runChunk(): Promise<void> {
    const meta = this.readMeta();
    if (!meta) return;
    if (meta.status !== 'running') {
      if (!meta.reported) await this.report(meta);
      return;
    }
    const { params } = meta;
    // The exploration owner's model-spend quota (issue 13 item 6), checked before every chunk: with none left
    // the exploration stops (saying why) and so does this tree; the others stop at their next chunk.
    const owner = (await getExploration(this.env, params.explorationId))?.ownerId ?? null;
    const spend = { kind: 'exploration' as const, id: params.explorationId, ownerId: owner };
    if (!(await mayContinue(this.env, owner))) {
      await settleExploration(this.env, params.explorationId, 'cancelled', QUOTA_EXHAUSTED);
      await this.cancel();
      return;
    }
    const tree = this.loadTree(meta);
    const callsBefore = meta.usage.modelCalls;
    // Every model call of the chunk is metered: a chunk that fails is redone, but what its calls spent stays spent.
    const meter = new UsageMeter();
    try {
      const { surface, docs } = await jobSurfaces(this.env, params.surfaceId, params.promptSurfaceId);
      const env = searchEnv(tree, {
        model: meteredModel(textModelFor(this.env, params.model), meter, { runId: params.treeId }),
        world: worldFor(this.env),
        surface,
        docs,
        deps: edgeKernelDeps(this.env, tree.task.gold),
      });
      const result = await runSearch(tree, env, {
        maxIterations: params.chunkIterations ?? CHUNK_ITERATIONS,
        deadline: Date.now() + CHUNK_MILLISECONDS,
      });
      const next: Meta = {
        ...meta,
        iteration: tree.iteration,
        usage: tree.usage,
        model: tree.model,
        done: tree.done,
        stopReason: tree.stopReason,
        // A finished search has succeeded as a job whether or not it found a solution (`solved` says that).
        status: tree.done ? 'succeeded' : 'running',
        failures: 0,
      };
      this.ctx.storage.transactionSync(() => {
        this.writeNodes(result.changed.map((id) => tree.nodes[id] as SearchNode));
        this.writeMeta(next);
      });
      // The chunk's model calls count against the owner's quota (a chunk is not cut short).
      await chargeSpend(this.env, spend, next.usage.modelCalls - callsBefore);
      if (next.done) await this.report(next, tree);
      else {
        await this.ctx.storage.setAlarm(Date.now());
        await this.reportProgress(next, tree);
      }
    } catch (err) {
      // Nothing of the failed chunk was stored: the next attempt reloads the tree and redoes it.
      const spent = meter.total();
      const usage: SearchUsage = {
        modelCalls: meta.usage.modelCalls + spent.calls,
        inputTokens: meta.usage.inputTokens + spent.inputTokens,
        outputTokens: meta.usage.outputTokens + spent.outputTokens,
      };
      const next: Meta = { ...afterFailedChunk(meta, err), usage };
      // What the failed chunk's calls spent counts against the owner's quota too.
      await chargeSpend(this.env, spend, spent.calls);
      this.writeMeta(next);
      if (next.status === 'failed') await this.report(next);
      else await this.ctx.storage.setAlarm(retryAt(next.failures));
    }
  }

  private progressOf(meta: Meta, tree?: SearchTree): TreeProgress {
    const nodes = tree?.nodes ?? this.storedNodes();
    const { bestReward, solved } = rewardProgress(nodes);
    return {
      treeId: meta.params.treeId,
      status: meta.status,
      simulations: meta.iteration,
      simulationsTotal: meta.params.config.simulations,
      nodes: nodes.length,
      modelCalls: meta.usage.modelCalls,
      bestReward,
      solved,
      done: meta.status !== 'running',
      stopReason:
        meta.status === 'cancelled' ? 'cancelled' : meta.status === 'failed' ? 'failed' : meta.stopReason,
      error: meta.error,
    };
  }

  private storedNodes(): { reward: number | null; ending: SearchNode['ending'] }[] {
    return this.ctx.storage.sql
      .exec<{ json: string }>('SELECT json FROM nodes ORDER BY id')
      .toArray()
      .map((r) => JSON.parse(r.json) as SearchNode);
  }

  /** Live counters on the D1 row (the exploration's aggregate progress reads them). */
  private async reportProgress(meta: Meta, tree: SearchTree): Promise<void> {
    await updateTreeCounters(this.env, meta.params.treeId, countersOf(meta, tree));
  }

  /**
   * The outcome to D1: the tree row, the exploration's status once no tree of it is left to run, and the
   * trajectories. Every write is idempotent, so a retried alarm may repeat it.
   */
  private async report(meta: Meta, loaded?: SearchTree): Promise<void> {
    const tree = loaded ?? this.loadTree(meta);
    const summary = summarizeSearch(tree);
    await recordTreeOutcome(this.env, meta.params.treeId, {
      ...countersOf(meta, tree),
      status: meta.status,
      solved: summary.success,
      summary: { ...summary, stopReason: meta.stopReason, error: meta.error },
    });
    // A finished search's paths and its DPO pairs over the whole tree become training data (idempotent on (tree,
    // leaf node) and (tree, pair)); only here is the whole tree at hand. A cancelled or failed
    // tree records none: its paths were cut short by something other than the search.
    if (meta.status === 'succeeded') {
      const { params } = meta;
      await recordTrajectories(this.env, tree, {
        treeId: params.treeId,
        explorationId: params.explorationId,
        taskId: params.task.id,
        dataset: params.task.dataset,
        surfaceId: params.surfaceId,
        promptSurfaceId: params.promptSurfaceId,
        model: tree.model ?? 'unknown',
        seed: tree.config.seed,
      });
    }
    if (explorationComplete(await treeStatusCounts(this.env, meta.params.explorationId))) {
      await settleExploration(this.env, meta.params.explorationId, 'succeeded');
    }
    if (!meta.reported) {
      meta.reported = true;
      this.writeMeta(meta);
    }
  }
}
