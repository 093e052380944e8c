/**
 * D1 schema (drizzle-orm). `npm run db:generate` turns changes here into a new flat .sql migration in
 * db/migrations, which `npm start`, the tests and `npm run deploy` apply.
 */
import { sql } from 'drizzle-orm';
import {
  customType,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';

/**
 * The owner convention (issue 13 item 6): every table of objects a key creates has this one column, the
 * creating key's owner id (`Principal.ownerId`: the key digest for env keys, the `api_keys` row id for issued keys). Null means
 * "no owner" (rows from before ownership): visible to every key, as all rows were before. Stores filter with
 * `visibleTo(table.ownerId, owner)` (edge/stores/owners.ts). Adopting it is one line in the table and one `and()`
 * in the store's query.
 */
export const ownerId = () => text('owner_id');

/**
 * Background jobs fanned out through the JOBS queue; the row is the source of truth for their status. `waiting`: the
 * job's key has its share of the queue in flight already, so its message is sent once one of them ends
 * (edge/jobs/enqueue.ts). `updated_at` is the job's heartbeat while it runs; the cron tick's sweeper re-sends a job
 * whose heartbeat stopped (edge/jobs/sweeper.ts).
 */
export const jobs = sqliteTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    status: text('status', { enum: ['waiting', 'queued', 'running', 'succeeded', 'failed'] }).notNull(),
    payload: text('payload', { mode: 'json' }).$type<unknown>().notNull(),
    result: text('result', { mode: 'json' }).$type<unknown>(),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** The key the job works for (its share of the queue); null for the deployment's own jobs (the canary). */
    ownerId: ownerId(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [
    index('jobs_kind_status').on(t.kind, t.status),
    index('jobs_created').on(t.createdAt),
    index('jobs_owner_status').on(t.ownerId, t.status, t.createdAt),
    index('jobs_status_updated').on(t.status, t.updatedAt),
  ],
);

/**
 * Model spend per run (edge/metering.ts): what a run that spends model calls estimated before it started, what it
 * has charged to its key since, and how far those charges went past the key's quota (`overshoot`). One row per
 * (kind, subject): an evaluation, an exploration, an STE or DRAFT run, a training.
 */
export const modelSpend = sqliteTable(
  'model_spend',
  {
    kind: text('kind').notNull(),
    subjectId: text('subject_id').notNull(),
    ownerId: ownerId(),
    estimate: integer('estimate').notNull(),
    modelCalls: integer('model_calls').notNull().default(0),
    overshoot: integer('overshoot').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.subjectId] })],
);

/**
 * One row per cron tick actually handled. The unique (cron, scheduled_time) pair makes the scheduled handler
 * idempotent: a retried or overlapping invocation for the same due time finds the row and does nothing.
 */
export const cronTicks = sqliteTable(
  'cron_ticks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    cron: text('cron').notNull(),
    scheduledTime: integer('scheduled_time').notNull(),
    startedAt: integer('started_at').notNull(),
    finishedAt: integer('finished_at'),
    summary: text('summary', { mode: 'json' }).$type<Record<string, unknown>>(),
  },
  (t) => [uniqueIndex('cron_ticks_due').on(t.cron, t.scheduledTime)],
);

/** Small key/value facts about this deployment (e.g. which world seed and scale were loaded into D1). */
export const meta = sqliteTable('meta', {
  key: text('key').primaryKey(),
  value: text('value', { mode: 'json' }).$type<unknown>().notNull(),
  updatedAt: integer('updated_at').notNull().default(sql`(unixepoch() * 1000)`),
});

/**
 * Generated tasks (core/world/tasks), written by the world seeder. Gold answers and reference plans are only
 * served to admin keys.
 */
export const tasks = sqliteTable(
  'tasks',
  {
    id: text('id').primaryKey(),
    split: text('split', { enum: ['train', 'dev', 'test'] }).notNull(),
    dataset: text('dataset').notNull(),
    difficulty: text('difficulty', { enum: ['easy', 'hard'] }).notNull(),
    templateId: text('template_id').notNull(),
    question: text('question').notNull(),
    slots: text('slots', { mode: 'json' }).$type<Record<string, string | number>>().notNull(),
    gold: text('gold', { mode: 'json' }).$type<unknown>().notNull(),
    plan: text('plan', { mode: 'json' }).$type<unknown[]>().notNull(),
    worldSeed: text('world_seed').notNull(),
    worldScale: real('world_scale').notNull(),
  },
  (t) => [
    index('tasks_group').on(t.dataset, t.difficulty, t.split, t.id),
    index('tasks_template').on(t.templateId),
  ],
);

/**
 * Every call made to a session (ReAct step, REST tool call, MCP tool call), faulted ones included: what was
 * sent, what it became, what the agent saw. Admins read, filter and reset it.
 */
export const journal = sqliteTable(
  'journal',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sessionId: text('session_id').notNull(),
    at: integer('at').notNull(),
    surfaceId: text('surface_id').notNull(),
    via: text('via', { enum: ['react', 'action', 'rest', 'mcp', 'http'] }).notNull(),
    action: text('action'),
    input: text('input', { mode: 'json' }).$type<unknown>().notNull(),
    call: text('call', { mode: 'json' }).$type<unknown>(),
    observation: text('observation'),
    outcome: text('outcome').notNull(),
    httpStatus: integer('http_status').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    fault: text('fault', { mode: 'json' }).$type<unknown>(),
  },
  (t) => [index('journal_session').on(t.sessionId, t.id), index('journal_at').on(t.at)],
);

/**
 * Custom and generated surfaces (the built-in ones live in code). A kernel surface (api_id null) is made by an
 * admin and public; a drifted version of an imported API (api_id set) belongs to the key that made it, as its API
 * does (issue 22).
 */
export const surfaces = sqliteTable(
  'surfaces',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['custom', 'generated'] }).notNull(),
    body: text('body', { mode: 'json' }).$type<unknown>().notNull(),
    createdAt: integer('created_at').notNull(),
    ownerId: ownerId(),
    /** The imported API the surface drifts (null: a kernel surface). */
    apiId: text('api_id'),
  },
  (t) => [index('surfaces_api').on(t.apiId, t.createdAt)],
);

/**
 * Imported APIs (issue 22): an OpenAPI document or a function catalog, its operation catalog and how its mock
 * answers. The catalog and the document are blobs in R2 (`BLOBS`: `apis/<id>/catalog.json`, `…/openapi.json`);
 * the row holds what lists and checks need.
 */
export const apis = sqliteTable(
  'apis',
  {
    id: text('id').primaryKey(),
    ownerId: ownerId(),
    title: text('title').notNull(),
    version: text('version').notNull(),
    format: text('format', { enum: ['openapi', 'catalog'] }).notNull(),
    source: text('source').notNull(),
    mode: text('mode', { enum: ['seeded', 'examples', 'proxy'] }).notNull(),
    /** The seed of the `seeded` world (entities derive from it). */
    seed: text('seed').notNull(),
    worldSize: integer('world_size').notNull(),
    /** `proxy`: the upstream base URL (credentials come from Worker secrets, never stored here). */
    upstream: text('upstream'),
    /** Counts (operations, writes, parameters, …) and the import's warnings. */
    summary: text('summary', { mode: 'json' }).$type<unknown>().notNull(),
    /** Size of the imported document in bytes, and its SHA-256. */
    bytes: integer('bytes').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('apis_owner').on(t.ownerId, t.createdAt)],
);

/** Query sets of an imported API: RestBench-style gold paths or call-level gold (issue 22 §5). */
export const apiQuerySets = sqliteTable(
  'api_querysets',
  {
    id: text('id').primaryKey(),
    apiId: text('api_id').notNull(),
    ownerId: ownerId(),
    name: text('name').notNull(),
    format: text('format').notNull(),
    items: integer('items').notNull(),
    warnings: text('warnings', { mode: 'json' }).$type<unknown>().notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('api_querysets_api').on(t.apiId, t.createdAt)],
);

/** One query of a query set, with its gold (a call path, and an answer when the set has one). */
export const apiQueries = sqliteTable(
  'api_queries',
  {
    querysetId: text('queryset_id').notNull(),
    idx: integer('idx').notNull(),
    query: text('query').notNull(),
    gold: text('gold', { mode: 'json' }).$type<unknown>().notNull(),
    meta: text('meta', { mode: 'json' }).$type<unknown>(),
  },
  (t) => [primaryKey({ columns: [t.querysetId, t.idx] })],
);

/** An exploration: tasks × trees per task searched with one configuration (ToolEvo data collection). */
export const explorations = sqliteTable('explorations', {
  id: text('id').primaryKey(),
  ownerId: ownerId(),
  status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] }).notNull(),
  /** The validated request: tasks, surfaces, search settings, model choice, seed. */
  config: text('config', { mode: 'json' }).$type<unknown>().notNull(),
  treesTotal: integer('trees_total').notNull(),
  /** Why a cancelled exploration stopped when nobody cancelled it (`quota-exhausted`); null otherwise. */
  stoppedFor: text('stopped_for'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/** One search tree (one Durable Object): its task, progress and outcome. */
export const trees = sqliteTable(
  'trees',
  {
    id: text('id').primaryKey(),
    explorationId: text('exploration_id').notNull(),
    taskId: text('task_id').notNull(),
    /** 0-based index of the tree among the task's trees. */
    treeIndex: integer('tree_index').notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] }).notNull(),
    seed: text('seed').notNull(),
    nodes: integer('nodes').notNull().default(0),
    iterations: integer('iterations').notNull().default(0),
    modelCalls: integer('model_calls').notNull().default(0),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    /** Whether a correct Finish exists in the tree. */
    solved: integer('solved', { mode: 'boolean' }),
    summary: text('summary', { mode: 'json' }).$type<unknown>(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('trees_slot').on(t.explorationId, t.taskId, t.treeIndex),
    index('trees_exploration').on(t.explorationId, t.status),
  ],
);

/** Root-to-Finish paths of finished trees: training data (SFT from successes, DPO pairs with failures). */
export const trajectories = sqliteTable(
  'trajectories',
  {
    id: text('id').primaryKey(),
    treeId: text('tree_id').notNull(),
    explorationId: text('exploration_id').notNull(),
    taskId: text('task_id').notNull(),
    dataset: text('dataset').notNull(),
    /** The node the path ends at (unique per tree: redelivered work cannot duplicate a trajectory). */
    leafNode: integer('leaf_node').notNull(),
    reward: integer('reward').notNull(),
    surfaceId: text('surface_id').notNull(),
    promptSurfaceId: text('prompt_surface_id').notNull(),
    /** The full ReAct text of the path. */
    text: text('text').notNull(),
    steps: text('steps', { mode: 'json' }).$type<unknown[]>().notNull(),
    toolUpdates: text('tool_updates', { mode: 'json' }).$type<string[]>().notNull(),
    model: text('model').notNull(),
    seed: text('seed').notNull(),
    /** Chosen (seeded, at most 4 successes per task) for SFT. */
    selected: integer('selected', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('trajectories_leaf').on(t.treeId, t.leafNode),
    index('trajectories_exploration').on(t.explorationId, t.taskId),
  ],
);

/**
 * DPO preference pairs of finished trees, computed from the whole tree when it finishes (core/search/trajectories.ts
 * `dpoPairs`): every terminal with reward −1 (wrong Finish, depth or load limit, no child, budget) counts as a
 * failure, as in ToolEVO's pairs. They cannot be recomputed from `trajectories`, which keeps only root→Finish
 * paths: there a rejected branch must end in a wrong Finish, which is rare, so most pairs would be lost.
 */
export const preferencePairs = sqliteTable(
  'preference_pairs',
  {
    /** `{treeId}:{parentNode}:{chosenNode}:{rejectedNode}`: a redelivered tree inserts nothing twice. */
    id: text('id').primaryKey(),
    treeId: text('tree_id').notNull(),
    explorationId: text('exploration_id').notNull(),
    taskId: text('task_id').notNull(),
    dataset: text('dataset').notNull(),
    surfaceId: text('surface_id').notNull(),
    promptSurfaceId: text('prompt_surface_id').notNull(),
    parentNode: integer('parent_node').notNull(),
    chosenNode: integer('chosen_node').notNull(),
    rejectedNode: integer('rejected_node').notNull(),
    /** The export line as is: `dpoRecord` (prompt/chosen/rejected over P_c docs) plus its meta. */
    record: text('record', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    model: text('model').notNull(),
    seed: text('seed').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('preference_pairs_exploration').on(t.explorationId, t.id)],
);

/**
 * Evaluations (issue 7): a suite run once, by a user or by a schedule at one due time. `planned` holds the task
 * ids of each group (method × surface × dataset × difficulty) as planned at launch, so the runs and their
 * totals do not change when the task table does. `summary` is filled when the last task run lands.
 */
export const evals = sqliteTable(
  'evals',
  {
    id: text('id').primaryKey(),
    ownerId: ownerId(),
    name: text('name'),
    status: text('status', { enum: ['running', 'done', 'cancelled'] }).notNull(),
    suite: text('suite', { mode: 'json' }).$type<unknown>().notNull(),
    planned: text('planned', { mode: 'json' })
      .$type<{ method: string; surface: string; dataset: string; difficulty: string; taskIds: string[] }[]>()
      .notNull(),
    total: integer('total').notNull(),
    /** The model that answers: provider, name, whether it is the simulator. */
    model: text('model', { mode: 'json' }).$type<unknown>().notNull(),
    scheduleId: text('schedule_id'),
    /** The schedule's due time this run is for (ms since the epoch). */
    dueTime: integer('due_time'),
    successRate: real('success_rate'),
    flagged: integer('flagged', { mode: 'boolean' }).notNull().default(false),
    /** The comparison with the schedule's previous run (null for unscheduled runs and first runs). */
    comparison: text('comparison', { mode: 'json' }).$type<unknown>(),
    /** Why a cancelled evaluation stopped when nobody cancelled it (`quota-exhausted`); null otherwise. */
    stoppedFor: text('stopped_for'),
    createdAt: integer('created_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [
    // One run per schedule and due time: a retried or overlapping cron invocation cannot launch a second.
    uniqueIndex('evals_schedule_due').on(t.scheduleId, t.dueTime),
    index('evals_created').on(t.createdAt),
  ],
);

/** One task run of an evaluation: what the method answered and how (see core/evals/run-task.ts). */
export const evalResults = sqliteTable(
  'eval_results',
  {
    id: text('id').primaryKey(),
    evalId: text('eval_id').notNull(),
    method: text('method').notNull(),
    surface: text('surface').notNull(),
    taskId: text('task_id').notNull(),
    dataset: text('dataset').notNull(),
    difficulty: text('difficulty').notNull(),
    question: text('question').notNull(),
    answer: text('answer'),
    correct: integer('correct', { mode: 'boolean' }).notNull(),
    ending: text('ending').notNull(),
    /** The taxonomy category of a failed run (core/evals/taxonomy.ts), null for a correct one. */
    errorClass: text('error_class'),
    steps: integer('steps').notNull(),
    modelCalls: integer('model_calls').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    trajectory: text('trajectory', { mode: 'json' }).$type<unknown>().notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    // A redelivered group job finds its finished runs here and does not run them again.
    uniqueIndex('eval_results_run').on(t.evalId, t.method, t.surface, t.taskId),
    index('eval_results_list').on(t.evalId, t.id),
  ],
);

/**
 * One query of an evaluation over an imported API's query set (issue 23 §4): a method's episode on one surface with
 * one documentation, scored with Correct Path Rate in both definitions (null: the item has no gold path) and the
 * answer (null: no gold answer). `trajectory` keeps the raw record the scores are computed from: the steps, every
 * call that reached an operation (base operation, exposed call, status) and the gold path.
 */
export const apiEvalResults = sqliteTable(
  'api_eval_results',
  {
    /** `${evalId}.${group}.${item}`, sorting in plan order. */
    id: text('id').primaryKey(),
    evalId: text('eval_id').notNull(),
    method: text('method').notNull(),
    surface: text('surface').notNull(),
    /** `imported`, `surface`, `docset:<id>` or `description:<id>`. */
    docs: text('docs').notNull(),
    /** `none`, or the aid row as JSON (core/evals/api-table.ts `apiAidsKey`). */
    aids: text('aids').notNull(),
    item: integer('item').notNull(),
    query: text('query').notNull(),
    answer: text('answer'),
    correct: integer('correct', { mode: 'boolean' }),
    pathSubsequence: integer('path_subsequence', { mode: 'boolean' }),
    pathSet: integer('path_set', { mode: 'boolean' }),
    /** Steps that were not Finish. */
    calls: integer('calls').notNull(),
    ending: text('ending').notNull(),
    errorClass: text('error_class'),
    steps: integer('steps').notNull(),
    modelCalls: integer('model_calls').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    trajectory: text('trajectory', { mode: 'json' }).$type<unknown>().notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    // A redelivered group job finds its finished queries here and does not run them again.
    uniqueIndex('api_eval_results_run').on(t.evalId, t.method, t.surface, t.docs, t.aids, t.item),
    index('api_eval_results_list').on(t.evalId, t.id),
  ],
);

/** A suite with a cron expression: the cron handler launches it once per due time. */
export const schedules = sqliteTable('schedules', {
  id: text('id').primaryKey(),
  ownerId: ownerId(),
  name: text('name').notNull(),
  cron: text('cron').notNull(),
  suite: text('suite', { mode: 'json' }).$type<unknown>().notNull(),
  /** Success-rate drop (absolute, 0–1) beyond which a run is flagged against the previous run. */
  threshold: real('threshold').notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Sessions live in their Durable Objects; this row records who started one, so a step, a read or a list by
 * another user key finds nothing (404), and the session browser lists only the caller's sessions.
 */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    ownerId: ownerId(),
    taskId: text('task_id').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('sessions_owner').on(t.ownerId, t.createdAt)],
);

/**
 * User keys issued through `POST /v1/keys` (env-configured keys are not stored). Only the SHA-256 of the secret
 * is kept; the secret is shown once. Each key has its own rate limit (null: the deployment's) and a model-spend
 * quota in model calls (null: unlimited) that evaluations and explorations check before they start and stop at.
 */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** Hex SHA-256 of the secret. */
    secretHash: text('secret_hash').notNull(),
    /** The first characters of the secret, to tell keys apart in a list (not enough to use it). */
    prefix: text('prefix').notNull(),
    ratePerMinute: integer('rate_per_minute'),
    rateBurst: integer('rate_burst'),
    /** Model calls everything this key starts may make in all (null: no limit; edge/metering.ts). */
    modelCallQuota: integer('model_call_quota'),
    modelCallsUsed: integer('model_calls_used').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    revokedAt: integer('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_secret').on(t.secretHash), index('api_keys_created').on(t.createdAt)],
);

/**
 * STE runs (simulated trial and error, issue 15): one row per run; its tools explore in their own Durable
 * Objects (`ste_tools` rows hold their progress). `trigger` makes launches idempotent (a schedule's stage change
 * launches one run: `schedule:<id>:<stage>`).
 */
export const steRuns = sqliteTable(
  'ste_runs',
  {
    id: text('id').primaryKey(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] }).notNull(),
    surfaceId: text('surface_id').notNull(),
    /** Content hash of the explored surface (a surface id can be redefined; exemplars belong to a version). */
    surfaceVersion: text('surface_version').notNull(),
    docsSurfaceId: text('docs_surface_id').notNull(),
    /** Continual learning: only the tools changed since this surface were explored. */
    sinceSurfaceId: text('since_surface_id'),
    config: text('config', { mode: 'json' }).$type<unknown>().notNull(),
    toolsTotal: integer('tools_total').notNull(),
    trigger: text('trigger'),
    ownerId: ownerId(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('ste_runs_trigger').on(t.trigger), index('ste_runs_created').on(t.createdAt, t.id)],
);

/** One explored tool of a run: its Durable Object's progress and outcome. */
export const steTools = sqliteTable(
  'ste_tools',
  {
    /** `${runId}/${tool}` */
    id: text('id').primaryKey(),
    runId: text('run_id').notNull(),
    tool: text('tool').notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] }).notNull(),
    phase: text('phase').notNull().default('query'),
    trialsDone: integer('trials_done').notNull().default(0),
    trialsTotal: integer('trials_total').notNull(),
    solved: integer('solved').notNull().default(0),
    kept: integer('kept').notNull().default(0),
    dropped: integer('dropped').notNull().default(0),
    exemplars: integer('exemplars').notNull().default(0),
    modelCalls: integer('model_calls').notNull().default(0),
    error: text('error'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('ste_tools_run').on(t.runId, t.status)],
);

/** Kept exemplars (and their paraphrases), by surface and surface version; ids are deterministic per run. */
export const steExemplars = sqliteTable(
  'ste_exemplars',
  {
    /** `${runId}/${exemplar id}`: a redelivered or repeated report cannot duplicate an exemplar. */
    id: text('id').primaryKey(),
    runId: text('run_id').notNull(),
    surfaceId: text('surface_id').notNull(),
    surfaceVersion: text('surface_version').notNull(),
    tool: text('tool').notNull(),
    query: text('query').notNull(),
    action: text('action').notNull(),
    actionInput: text('action_input').notNull(),
    observation: text('observation').notNull(),
    finalAnswer: text('final_answer').notNull(),
    paraphraseOf: text('paraphrase_of'),
    episode: integer('episode').notNull(),
    trial: integer('trial').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('ste_exemplars_surface').on(t.surfaceId, t.tool, t.createdAt, t.id),
    index('ste_exemplars_run').on(t.runId, t.createdAt, t.id),
  ],
);

/** Long-term memory: every explored query of a tool with the reflection's Solved mark, in order. */
export const steMemory = sqliteTable(
  'ste_memory',
  {
    /** `${runId}/${tool}/${position}` */
    id: text('id').primaryKey(),
    runId: text('run_id').notNull(),
    surfaceId: text('surface_id').notNull(),
    surfaceVersion: text('surface_version').notNull(),
    tool: text('tool').notNull(),
    position: integer('position').notNull(),
    query: text('query').notNull(),
    solved: integer('solved', { mode: 'boolean' }).notNull(),
  },
  (t) => [index('ste_memory_run').on(t.runId, t.tool, t.position)],
);

/** Trial transcripts with the reflection and the filter's verdict. */
export const steTrials = sqliteTable(
  'ste_trials',
  {
    /** `${runId}/${tool}/${episode}.${trial}` */
    id: text('id').primaryKey(),
    runId: text('run_id').notNull(),
    surfaceId: text('surface_id').notNull(),
    surfaceVersion: text('surface_version').notNull(),
    tool: text('tool').notNull(),
    episode: integer('episode').notNull(),
    trial: integer('trial').notNull(),
    query: text('query').notNull(),
    steps: text('steps', { mode: 'json' }).$type<unknown>().notNull(),
    finalAnswer: text('final_answer'),
    reflection: text('reflection').notNull(),
    solved: integer('solved', { mode: 'boolean' }).notNull(),
    verdict: text('verdict', { mode: 'json' }).$type<unknown>(),
  },
  (t) => [index('ste_trials_run').on(t.runId, t.tool, t.episode, t.trial)],
);

/** Drift schedules watched by STE: each stage change launches the configured run for the changed tools once. */
export const steSchedules = sqliteTable('ste_schedules', {
  id: text('id').primaryKey(),
  /** A drift schedule (core/surfaces/schedule.ts ScheduleSchema). */
  schedule: text('schedule', { mode: 'json' }).$type<unknown>().notNull(),
  /** The run settings (POST /v1/ste/runs body without surface, since and tools). */
  run: text('run', { mode: 'json' }).$type<unknown>().notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  ownerId: ownerId(),
  createdAt: integer('created_at').notNull(),
});

/**
 * DRAFT runs (issue 16): documentation refined by exploring a server surface, one Durable Object per (run, tool).
 * `trigger` is the idempotency key of an automatic re-documentation (docs that follow drift): unique, so a change
 * seen twice launches one run.
 */
export const draftRuns = sqliteTable(
  'draft_runs',
  {
    id: text('id').primaryKey(),
    status: text('status', {
      enum: ['queued', 'running', 'finalizing', 'succeeded', 'failed', 'cancelled'],
    }).notNull(),
    docsSurface: text('docs_surface').notNull(),
    serverSurface: text('server_surface').notNull(),
    /** The documentation set the run starts from (continued), or null to start from the docs surface. */
    parentDocset: text('parent_docset'),
    /** The documentation set the run produced. */
    docsetId: text('docset_id'),
    config: text('config', { mode: 'json' }).$type<unknown>().notNull(),
    trigger: text('trigger'),
    error: text('error'),
    ownerId: ownerId(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('draft_runs_trigger').on(t.trigger), index('draft_runs_created').on(t.createdAt)],
);

/** One row per (run, tool): live progress written by the tool's Durable Object, and its result when done. */
export const draftRunTools = sqliteTable(
  'draft_run_tools',
  {
    runId: text('run_id').notNull(),
    toolKey: text('tool_key').notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] }).notNull(),
    phase: text('phase').notNull().default('explore'),
    iteration: integer('iteration').notNull().default(0),
    modelCalls: integer('model_calls').notNull().default(0),
    toolCalls: integer('tool_calls').notNull().default(0),
    /** Δ history so far: [{iteration, bleu, cos, delta}]. */
    deltas: text('deltas', { mode: 'json' }).$type<unknown>().notNull(),
    stop: text('stop'),
    /** The finished tool: {doc, versions, stop, modelCalls, toolCalls, model}. */
    result: text('result', { mode: 'json' }).$type<unknown>(),
    error: text('error'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('draft_run_tools_key').on(t.runId, t.toolKey)],
);

/** DRAFT documentation sets (the whole value as JSON) — the documentation aid reads them. */
export const docsets = sqliteTable(
  'docsets',
  {
    id: text('id').primaryKey(),
    runId: text('run_id').notNull(),
    parentId: text('parent_id'),
    docsSurface: text('docs_surface').notNull(),
    serverSurface: text('server_surface').notNull(),
    model: text('model').notNull(),
    simulated: integer('simulated', { mode: 'boolean' }).notNull(),
    body: text('body', { mode: 'json' }).$type<unknown>().notNull(),
    ownerId: ownerId(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('docsets_server').on(t.serverSurface, t.createdAt)],
);

/** Every revision of every tool of a documentation set, with its Δ against the previous one. */
export const docsetRevisions = sqliteTable(
  'docset_revisions',
  {
    docsetId: text('docset_id').notNull(),
    toolKey: text('tool_key').notNull(),
    /** 0-based position in the tool's version history. */
    version: integer('version').notNull(),
    iteration: integer('iteration').notNull(),
    doc: text('doc', { mode: 'json' }).$type<unknown>().notNull(),
    bleu: real('bleu'),
    cos: real('cos'),
    delta: real('delta'),
  },
  (t) => [uniqueIndex('docset_revisions_key').on(t.docsetId, t.toolKey, t.version)],
);

/**
 * DRAFT watches (docs that follow drift): a surface or a drift schedule whose changes are re-documented on cron
 * ticks, starting from the watch's last documentation set. `fingerprint` is the per-kernel API fingerprint last
 * launched for (core/draft/follow.ts).
 */
export const draftWatches = sqliteTable('draft_watches', {
  id: text('id').primaryKey(),
  docsSurface: text('docs_surface').notNull(),
  /** `{surface}` or `{schedule}`. */
  target: text('target', { mode: 'json' }).$type<unknown>().notNull(),
  /** Options, model, tools followed, chunk size. */
  config: text('config', { mode: 'json' }).$type<unknown>().notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  fingerprint: text('fingerprint', { mode: 'json' }).$type<unknown>(),
  lastRun: text('last_run'),
  lastDocset: text('last_docset'),
  ownerId: ownerId(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Chain-of-Tools toolsets (issue 14): a named pool of tools. Uploaded and surface toolsets keep their tools in
 * `toolset_tools`; a synthetic toolset stores only its catalog options (`spec`), from which
 * core/retrieval/catalog.ts regenerates the same tools bit for bit.
 */
export const toolsets = sqliteTable('toolsets', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  source: text('source', { enum: ['upload', 'surface', 'synthetic'] }).notNull(),
  /** Surface id, or the synthetic catalog's options. */
  spec: text('spec', { mode: 'json' }).$type<unknown>(),
  toolCount: integer('tool_count').notNull(),
  ownerId: ownerId(),
  createdAt: integer('created_at').notNull(),
});

export const toolsetTools = sqliteTable(
  'toolset_tools',
  {
    toolsetId: text('toolset_id')
      .notNull()
      .references(() => toolsets.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    parameters: text('parameters', { mode: 'json' }).$type<Record<string, unknown>>(),
  },
  (t) => [uniqueIndex('toolset_tools_position').on(t.toolsetId, t.position)],
);

/**
 * Bytes in a BLOB column. Written as a Uint8Array (miniflare's D1 refuses a Node Buffer); D1 reads a BLOB back as
 * an array of byte values (workers-sdk#8642) or an ArrayBuffer, and both become a Uint8Array here.
 */
/**
 * A blob part: written as base64 text (D1 moves text far faster than BLOB values, which cross its API as arrays of
 * numbers), read back as it was written — text, or the bytes of a part written as a BLOB before
 * (edge/stores/toolset-training.ts decodes both).
 */
const blobPart = customType<{
  data: string | Uint8Array;
  driverData: string | Uint8Array | ArrayBuffer | number[];
}>({
  dataType: () => 'blob',
  toDriver: (value) => value,
  fromDriver: (value) =>
    typeof value === 'string' || value instanceof Uint8Array
      ? value
      : new Uint8Array(value as ArrayBuffer | number[]),
});

/**
 * Chain-of-Tools training runs of a toolset (issue 14 items 3–4): version 1, 2, … per toolset, one queue job
 * chain each (edge/jobs/train-toolset.ts). `data` holds the training and dev queries given with the request (an
 * uploaded or surface toolset; null for a synthetic one, whose catalog has its splits); `progress` the job's
 * last report; `report` the finished training report. The finished weights and, while running, the checkpoint
 * between chunks live in `toolset_training_blobs`.
 */
export const toolsetTrainings = sqliteTable(
  'toolset_trainings',
  {
    id: text('id').primaryKey(),
    toolsetId: text('toolset_id')
      .notNull()
      .references(() => toolsets.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] }).notNull(),
    options: text('options', { mode: 'json' }).$type<unknown>().notNull(),
    data: text('data', { mode: 'json' }).$type<unknown>(),
    progress: text('progress', { mode: 'json' }).$type<unknown>(),
    report: text('report', { mode: 'json' }).$type<unknown>(),
    error: text('error'),
    weightsBytes: integer('weights_bytes'),
    weightsSha256: text('weights_sha256'),
    ownerId: ownerId(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [uniqueIndex('toolset_trainings_version').on(t.toolsetId, t.version)],
);

/** Parts (≤ 1 MiB each, under D1's 2 MB value limit) of a training's weights or checkpoint blob. */
export const toolsetTrainingBlobs = sqliteTable(
  'toolset_training_blobs',
  {
    trainingId: text('training_id')
      .notNull()
      .references(() => toolsetTrainings.id, { onDelete: 'cascade' }),
    /** `<kind>.next`: the parts of a replacement being written (see edge/stores/toolset-training.ts). */
    kind: text('kind', {
      enum: ['weights', 'checkpoint', 'vectors', 'weights.next', 'checkpoint.next', 'vectors.next'],
    }).notNull(),
    part: integer('part').notNull(),
    data: blobPart('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.trainingId, t.kind, t.part] })],
);

/**
 * Drift streams (issue 26, core/streams): a named, seeded sequence of releases of the kernel's tools
 * (`backend` = `kernel`) or an imported API (`api:<id>`, `api_id` set). `current_release` is the latest release
 * made; the cron tick advances a stream whose `next_due_at` has come, once per due time (a conditional update on
 * `current_release`, edge/stores/streams.ts).
 */
export const streams = sqliteTable(
  'streams',
  {
    id: text('id').primaryKey(),
    ownerId: ownerId(),
    name: text('name').notNull(),
    backend: text('backend').notNull(),
    apiId: text('api_id'),
    seed: text('seed').notNull(),
    /** Changes per drift kind per release (core/streams IntensitySchema). */
    intensity: text('intensity', { mode: 'json' }).$type<Record<string, number>>().notNull(),
    /** `{cron}` or `{everySeconds}` (core/streams CadenceSchema). */
    cadence: text('cadence', { mode: 'json' }).$type<unknown>().notNull(),
    /** `{releases}` or `{seconds}` (core/streams WindowSchema). */
    window: text('window', { mode: 'json' }).$type<unknown>().notNull(),
    currentRelease: integer('current_release').notNull().default(0),
    /** The next due time of the cadence (ms); null when the cadence has none. */
    nextDueAt: integer('next_due_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('streams_due').on(t.nextDueAt), index('streams_owner').on(t.ownerId, t.createdAt)],
);

/**
 * One row per release of a stream: its surface (a kernel `Surface` or an `ApiSurface`, stored so a release never
 * changes once made), its diff against release n−1, when it was released and when the names it dropped are
 * sunset. The (stream, n) key makes a release happen once however often it is asked for.
 */
export const streamReleases = sqliteTable(
  'stream_releases',
  {
    streamId: text('stream_id')
      .notNull()
      .references(() => streams.id, { onDelete: 'cascade' }),
    n: integer('n').notNull(),
    surfaceId: text('surface_id').notNull(),
    surface: text('surface', { mode: 'json' }).$type<unknown>().notNull(),
    diff: text('diff', { mode: 'json' }).$type<unknown>(),
    releasedAt: integer('released_at').notNull(),
    sunsetAt: integer('sunset_at'),
    /** The cadence's due time this release was made for (null: made by hand or at creation). */
    dueAt: integer('due_at'),
    trigger: text('trigger', { enum: ['create', 'cron', 'manual'] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.streamId, t.n] })],
);

/**
 * A stream's living-drift plan (issue 26 §2, §4): the maintenance policy run once per release
 * (core/streams/maintain.ts `MaintenancePolicySchema`) and the evaluation run after it — the same seeded tasks
 * (`sampleSize` per dataset × difficulty of the test split, or the first `sampleSize` queries of an API's query set)
 * for the named configurations (core/streams/evaluate.ts).
 */
export const streamPlans = sqliteTable('stream_plans', {
  streamId: text('stream_id')
    .primaryKey()
    .references(() => streams.id, { onDelete: 'cascade' }),
  maintenance: text('maintenance', { mode: 'json' }).$type<unknown>().notNull(),
  evaluation: text('evaluation', { mode: 'json' }).$type<unknown>().notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * One row per maintained release: what each step spent (`ReleaseMaintenance`) and the R2 key of the state it left
 * (documentation set, STE rounds, retired pool tools — too large for a row). The (stream, n) key makes a release's
 * maintenance happen once however often its job is delivered.
 */
export const streamMaintenance = sqliteTable(
  'stream_maintenance',
  {
    streamId: text('stream_id')
      .notNull()
      .references(() => streams.id, { onDelete: 'cascade' }),
    n: integer('n').notNull(),
    spend: text('spend', { mode: 'json' }).$type<unknown>().notNull(),
    stateKey: text('state_key').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.streamId, t.n] })],
);

/**
 * One row per (stream, release, configuration) of the evaluation over time: every task run's record (what its
 * verdict is recomputed from), the tool-update memory the configuration ended the release with, and what
 * maintenance could not give it.
 */
export const streamResults = sqliteTable(
  'stream_results',
  {
    streamId: text('stream_id')
      .notNull()
      .references(() => streams.id, { onDelete: 'cascade' }),
    n: integer('n').notNull(),
    configuration: text('configuration').notNull(),
    records: text('records', { mode: 'json' }).$type<unknown>().notNull(),
    memory: text('memory', { mode: 'json' }).$type<string[]>(),
    notes: text('notes', { mode: 'json' }).$type<unknown>(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.streamId, t.n, t.configuration] })],
);
