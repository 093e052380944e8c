/**
 * The benchmark's world: its read-only endpoints — datasets (schemas, sizes, seed) and tasks (paginated; gold
 * answers and reference plans only for admin keys), public: no key needed, but an invalid key is still refused —
 * and the kernel call (`POST /v1/kernel/call`, behind a user key).
 */
import { z } from '@hono/zod-openapi';
import { pythonStr } from '../../core/world/answer-match.ts';
import { DATASETS, type DatasetInfo } from '../../core/world/catalog.ts';
import { callKernel, KERNEL_TOOL_NAMES } from '../../core/world/kernel/kernel.ts';
import { type EnvState, initialState } from '../../core/world/kernel/state.ts';
import { DATABASE_NAMES, DATASET_NAMES, type DatasetName } from '../../core/world/types.ts';
import type { SeededWorld } from '../../db/world-seed.ts';
import type { Bindings } from '../../edge/env.ts';
import { readConfig } from '../../edge/env.ts';
import { getTask as findTask } from '../../edge/stores/tasks.ts';
import { listTaskSummaries, storedWorld, taskCounts } from '../../edge/stores/world.ts';
import { edgeKernelDeps, worldFor } from '../../edge/world-runtime.ts';
import { optionalPrincipal } from '../http/auth.ts';
import { pageAnswer } from '../http/keyset.ts';
import { component, idParams, namesResource, pageOf, routeModule } from '../http/openapi.ts';
import { foundOr404, ProblemError } from '../http/problem.ts';
import { templateFilter } from '../schemas/resource-filters.ts';

const DatasetNameSchema = z.enum(DATASET_NAMES);
const Difficulty = z.enum(['easy', 'hard']);
const Split = z.enum(['train', 'dev', 'test']);

const ColumnSchema = z.object({ name: z.string(), sqlType: z.string(), description: z.string() });
const SplitCounts = z.object({ train: z.number().int(), dev: z.number().int(), test: z.number().int() });

const DatasetSchema = component('Dataset', {
  name: DatasetNameSchema,
  title: z.string(),
  context: z.string(),
  format: z.string(),
  description: z.string(),
  tools: z.array(z.string()),
  columns: z.array(ColumnSchema).optional(),
  sizes: z.record(z.string(), z.number()).nullable(),
  tasks: z.object({ easy: SplitCounts, hard: SplitCounts }),
});

const WorldSchema = component('World', {
  seed: z.string(),
  scale: z.number(),
  seeded: z
    .boolean()
    .openapi({ description: 'Whether D1 holds this world (run `npm start` or `npm run seed`).' }),
  hashes: z.record(z.string(), z.string()).nullable(),
  tasks: z.number().int(),
});

const TaskSummarySchema = component('TaskSummary', {
  id: z.string(),
  split: Split,
  dataset: DatasetNameSchema,
  difficulty: Difficulty,
  templateId: z.string(),
  question: z.string(),
});

const TaskSchema = TaskSummarySchema.extend({
  gold: z.unknown().optional().openapi({ description: 'Gold answer (admin keys only).' }),
  goldText: z
    .string()
    .optional()
    .openapi({ description: 'The gold answer as EM compares it (admin keys only).' }),
  slots: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  plan: z
    .array(z.unknown())
    .optional()
    .openapi({ description: 'Reference plan: P_c calls with observations (admin keys only).' }),
  worldSeed: z.string(),
  worldScale: z.number(),
}).openapi('Task');

/** The world row written by the seeder, if D1 holds the configured world. */
export async function seededWorld(env: Bindings): Promise<SeededWorld | null> {
  const value = await storedWorld(env);
  if (!value) return null;
  const config = readConfig(env);
  return value.seed === config.worldSeed && value.scale === config.worldScale ? value : null;
}

function notSeeded(env: Bindings): ProblemError {
  const config = readConfig(env);
  return new ProblemError('unavailable', {
    detail: `D1 does not hold the configured world (seed ${config.worldSeed}, scale ${config.worldScale}); run \`npm start\` (local) or \`npm run seed -- --remote\`.`,
  });
}

type Counts = Record<'easy' | 'hard', Record<'train' | 'dev' | 'test', number>>;

async function countsByDataset(env: Bindings): Promise<Map<string, Counts>> {
  const rows = await taskCounts(env);
  const out = new Map<string, Counts>();
  for (const r of rows) {
    const c = out.get(r.dataset) ?? {
      easy: { train: 0, dev: 0, test: 0 },
      hard: { train: 0, dev: 0, test: 0 },
    };
    c[r.difficulty][r.split] = r.n;
    out.set(r.dataset, c);
  }
  return out;
}

function describe(info: DatasetInfo, world: SeededWorld | null, counts: Map<string, Counts>) {
  return {
    name: info.name,
    title: info.title,
    context: info.context,
    format: info.format,
    description: info.description,
    tools: info.tools,
    ...(info.columns ? { columns: info.columns.map((c) => ({ ...c })) } : {}),
    sizes: world?.sizes[info.name] ?? null,
    tasks: counts.get(info.name) ?? {
      easy: { train: 0, dev: 0, test: 0 },
      hard: { train: 0, dev: 0, test: 0 },
    },
  };
}

function worldSummary(env: Bindings, world: SeededWorld | null) {
  const config = readConfig(env);
  return {
    seed: config.worldSeed,
    scale: config.worldScale,
    seeded: world !== null,
    hashes: world?.hashes ?? null,
    tasks: world?.tasks ?? 0,
  };
}

const TaskQuery = z.object({
  dataset: DatasetNameSchema.optional(),
  difficulty: Difficulty.optional(),
  split: Split.optional(),
  template: templateFilter('A template id, e.g. `coffee-hard-H13`.'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional().openapi({ description: 'The `nextCursor` of the previous page.' }),
});

// POST /v1/kernel/call: one P_c tool call on the world as a pure function of (state, call) → (state,
// observation). The client carries the state between calls, so any number of branches can explore from the same
// state. Sessions, surfaces and drift build on this (they translate other tool names into these calls).

const StateSchema = z
  .object({
    db: z.enum(DATABASE_NAMES).nullable(),
    filters: z.array(z.string().max(2000)).max(200),
    numericColumns: z.array(z.string().max(200)).max(100),
    python: z.unknown(),
    steps: z.number().int().min(0).max(1_000_000),
    loads: z.number().int().min(0).max(1_000_000),
    newTools: z.array(z.string().max(4000)).max(100),
    finished: z.boolean(),
    answer: z.string().nullable(),
    correct: z.boolean().nullable(),
  })
  .openapi('EnvState', { description: 'The functional environment state returned by the previous call.' });

const CallSchema = component('KernelCall', {
  tool: z.enum(KERNEL_TOOL_NAMES).openapi({ description: 'A P_c tool name.' }),
  args: z.record(z.string(), z.unknown()).openapi({
    description: 'Kernel parameters, e.g. `{"condition": "Date>=2019-10-10, Date<=2020-08-03"}`.',
  }),
  state: StateSchema.optional().openapi({ description: 'Omit for a fresh episode.' }),
  taskId: namesResource(
    z.string().max(200).optional().openapi({
      description: 'The task whose gold answer `Finish` is judged against (required for Finish).',
    }),
    'task',
  ),
});

const ResultSchema = component('KernelResult', {
  observation: z.string(),
  state: StateSchema,
  outcome: z.object({
    kind: z.enum(['ok', 'error', 'refused', 'finished']).openapi({
      description:
        '`refused`: the sandbox would not run the call (SQL guard, time or engine failure; Python evaluation budget or program length); the observation is the tool’s own error text.',
    }),
    reason: z.string().optional(),
    correct: z.boolean().optional(),
  }),
});

export const registerWorldRoutes = routeModule('World', 'public', (routes) => {
  routes.get(
    '/v1/datasets',
    'The datasets of the world: schemas, sizes, task counts, and the world seed',
    {
      ok: [
        200,
        'The world and its datasets',
        z.object({ world: WorldSchema, datasets: z.array(DatasetSchema) }),
      ],
    },
    async (c) => {
      const [world, counts] = await Promise.all([seededWorld(c.env), countsByDataset(c.env)]);
      return c.json(
        {
          world: worldSummary(c.env, world),
          datasets: DATASET_NAMES.map((n) => describe(DATASETS[n], world, counts)),
        },
        200,
      );
    },
  );

  routes.get(
    '/v1/datasets/{name}',
    'One dataset',
    {
      params: z.object({ name: DatasetNameSchema }),
      ok: [200, 'The dataset', z.object({ world: WorldSchema, dataset: DatasetSchema })],
    },
    async (c, { params: { name } }) => {
      const [world, counts] = await Promise.all([seededWorld(c.env), countsByDataset(c.env)]);
      return {
        world: worldSummary(c.env, world),
        dataset: describe(DATASETS[name as DatasetName], world, counts),
      };
    },
  );

  routes.get(
    '/v1/tasks',
    'Tasks, filtered by dataset, difficulty, split or template; paginated by cursor',
    {
      query: TaskQuery,
      ok: [200, 'A page of tasks (questions only; fetch one task for more)', pageOf(TaskSummarySchema)],
      problems: [401, 503],
    },
    async (c, { query: q }) => {
      await optionalPrincipal(c);
      if (!(await seededWorld(c.env))) throw notSeeded(c.env);
      const { limit, cursor, ...filter } = q;
      const page = await listTaskSummaries(c.env, filter, { limit, cursor });
      return c.json(
        pageAnswer(c, page, (r) => ({ ...r, dataset: r.dataset as DatasetName })),
        200,
      );
    },
  );

  routes.get(
    '/v1/tasks/{id}',
    'One task; its gold answer and reference plan are included for admin keys',
    {
      params: idParams(z.string().min(1).max(200)),
      ok: [200, 'The task', TaskSchema],
      problems: [401, 404, 503],
    },
    async (c, { params: { id } }) => {
      const principal = await optionalPrincipal(c);
      if (!(await seededWorld(c.env))) throw notSeeded(c.env);
      const task = await foundOr404(findTask(c.env, id), 'task', id);
      const admin = principal?.role === 'admin';
      return {
        id: task.id,
        split: task.split,
        dataset: task.dataset as DatasetName,
        difficulty: task.difficulty,
        templateId: task.templateId,
        question: task.question,
        worldSeed: task.worldSeed,
        worldScale: task.worldScale,
        ...(admin
          ? { gold: task.gold, goldText: pythonStr(task.gold), slots: task.slots, plan: task.plan }
          : {}),
      };
    },
  );

  routes.post(
    '/v1/kernel/call',
    'Call one P_c tool on the world, carrying the environment state yourself',
    {
      role: 'user',
      body: CallSchema,
      example: { tool: 'LoadDB', args: { DBName: 'coffee' } },
      ok: [200, 'The observation and the next state', ResultSchema],
    },
    async (c, { body, owner }) => {
      let gold: unknown;
      if (body.tool === 'Finish') {
        if (!body.taskId) {
          throw new ProblemError('validation-error', {
            detail: 'Finish is judged against a task: send `taskId`.',
            errors: [{ in: 'body', field: 'taskId', pointer: '/taskId', message: 'Required for Finish' }],
          });
        }
        const task = await foundOr404(findTask(c.env, body.taskId), 'task', body.taskId);
        gold = task.gold;
      }
      const state: EnvState = (body.state as EnvState | undefined) ?? initialState();
      const result = await callKernel(
        worldFor(c.env),
        state,
        { tool: body.tool, args: body.args },
        // Python and SQL calls count against the key's concurrency bound (a 429 beyond it).
        edgeKernelDeps(c.env, gold, owner.id),
      );
      return {
        observation: result.observation,
        state: result.state,
        outcome: result.outcome,
      } as z.infer<typeof ResultSchema>;
    },
  );
});
