/**
 * `POST /v1/solve`: tooldrift runs an agent on one question — a task by id (its Finish is judged against the
 * gold answer) or a free question (no gold: Finish cannot be judged, `correct` is null) — against a server
 * surface, with the ToolEvo agent prompt over a documentation surface, by one registered agent method
 * (core/methods; `mode` is its id — every method that carries no memory across tasks), e.g.:
 * - `greedy`: the ReAct loop (core/agents/react-loop.ts), temperature 0 unless the model choice says otherwise;
 * - `mcts`: a small ToolEvo search (core/search), simulations ≤ 20, k ≤ 5, depth ≤ 20.
 * UpdateTool lines are carried along the run's path (greedy: the episode; MCTS: each path's own state), so a
 * replacement tool the agent described is listed in its prompt from the next step on. `aids` (core/aids) adds
 * what the agent is given (documentation, UpdateTool memory); the method must use each aid asked for.
 *
 * The MCTS answer is the path core/search/answer.ts picks for the method: the most visited Finish for `mcts`, the
 * first correct Finish for `mcts-oracle` (an upper bound).
 */
import { z } from '@hono/zod-openapi';
import { AidsSchema, aidIssues } from '../../core/aids/index.ts';
import { REACT_PROMPTS } from '../../core/methods/react.ts';
import {
  getMethod,
  isMethodId,
  METHODS,
  type MethodId,
  optionsJsonSchema,
} from '../../core/methods/registry.ts';
import { meteredModel, UsageMeter } from '../../core/models/usage.ts';
import { hash128 } from '../../core/util/random.ts';
import type { Gold } from '../../core/world/tasks/types.ts';
import { DATASET_NAMES } from '../../core/world/types.ts';
import { requireAids } from '../../edge/aids.ts';
import { chargeSpend, checkQuota, type Estimate } from '../../edge/metering.ts';
import { ModelChoiceSchema, textModelFor } from '../../edge/models.ts';
import { requireSurface } from '../../edge/stores/surfaces.ts';
import { getTask } from '../../edge/stores/tasks.ts';
import { edgeKernelDeps, worldFor } from '../../edge/world-runtime.ts';
import { component, namesResource, routeModule } from '../http/openapi.ts';
import { foundOr404, ProblemError } from '../http/problem.ts';
import { MODEL_USAGE, TrajectoryStep } from '../schemas/agent-run.ts';
import { DryRunField, dryRunAnswer, EstimateSchema } from '../schemas/spend.ts';

/** The methods a single solve can run: those that carry no memory across tasks (there is one task). */
const SOLVE_MODES = METHODS.filter((m) => m.memory === null).map((m) => m.id) as [MethodId, ...MethodId[]];

const SolveBody = z
  .object({
    taskId: namesResource(
      z.string().min(1).max(200).optional().openapi({ description: 'Solve this task (judged by its gold).' }),
      'task',
    ),
    question: z
      .string()
      .min(1)
      .max(4000)
      .optional()
      .openapi({ description: 'Or a free question (no gold: `correct` is null).' }),
    dataset: z
      .enum(DATASET_NAMES)
      .optional()
      .openapi({ description: 'Hint for a free question: the dataset it is about (echoed back).' }),
    surface: namesResource(
      z.string().min(1).max(100).default('pc').openapi({ description: 'Server surface id.' }),
      'surface',
    ),
    promptSurface: namesResource(
      z
        .string()
        .min(1)
        .max(100)
        .default('pc')
        .openapi({ description: 'Surface whose documentation the agent reads.' }),
      'surface',
    ),
    model: ModelChoiceSchema.optional(),
    mode: z.enum(SOLVE_MODES).default('greedy'),
    search: z
      .strictObject({
        simulations: z.number().int().min(1).max(20).default(8),
        k: z.number().int().min(1).max(5).default(3),
        maxDepth: z.number().int().min(1).max(20).optional(),
      })
      .optional()
      .openapi({ description: 'MCTS budget (small caps); maxDepth is the step limit in greedy mode too.' }),
    aids: AidsSchema.optional(),
    prompt: z.enum(REACT_PROMPTS).optional().openapi({
      description:
        "ReAct modes only: 'agent' (default) ToolEvo's few-shot agent prompt; 'sft' ToolEvo's SFT prompt (tool list only, steps as turns) — the layout of GET /v1/exports/sft.jsonl, for a model fine-tuned on it.",
    }),
    seed: z.string().min(1).max(200).default('0'),
    dryRun: DryRunField,
  })
  .strict()
  .refine((b) => (b.taskId === undefined) !== (b.question === undefined), {
    message: 'give exactly one of taskId and question',
    path: ['taskId'],
  })
  .superRefine((b, ctx) => {
    if (!isMethodId(b.mode)) return; // the enum reported it
    for (const issue of aidIssues(b.aids, [getMethod(b.mode)]))
      ctx.addIssue({ code: 'custom', path: ['aids', ...issue.path], message: issue.message });
  })
  .openapi('SolveRequest');

const SolveResult = component('SolveResult', {
  answer: z.string().nullable(),
  correct: z.boolean().nullable(),
  ending: z.string(),
  task: z.object({ id: z.string().nullable(), question: z.string(), dataset: z.string().nullable() }),
  mode: z.enum(SOLVE_MODES),
  trajectory: z.object({
    steps: z.array(TrajectoryStep),
    toolUpdates: z.array(z.string()),
  }),
  search: z
    .object({ nodes: z.number().int(), iterations: z.number().int(), solutions: z.number().int() })
    .nullable(),
  usage: z.object(MODEL_USAGE),
  estimate: EstimateSchema,
  model: z.object({ provider: z.string(), name: z.string(), simulated: z.boolean() }),
});

type Step = z.infer<typeof TrajectoryStep>;

export const registerSolveRoutes = routeModule('Agents', 'user', (routes) => {
  routes.post(
    '/v1/solve',
    'Answer a task or a free question with the ToolEvo agent (greedy ReAct or a small MCTS)',
    {
      description:
        "The run is bounded by its estimate (`estimate.modelCalls`: the method's bound for the step limit and search budget), checked against the key's model-call quota before it starts and charged with what the run used.",
      body: SolveBody,
      example: {
        question: 'What was the coffee price range on 2000-01-14?',
        dataset: 'coffee',
        surface: 's-ood',
        mode: 'greedy',
        seed: 'example',
      },
      ok: [200, 'The answer and its trajectory (or, with dryRun, the estimate alone)', SolveResult],
    },
    async (c, { body, owner }) => {
      let task: {
        id: string | null;
        question: string;
        dataset: string | null;
        difficulty?: 'easy' | 'hard';
        gold: Gold | undefined;
      };
      if (body.taskId !== undefined) {
        const row = await foundOr404(getTask(c.env, body.taskId), 'task', body.taskId);
        task = {
          id: row.id,
          question: row.question,
          dataset: row.dataset,
          difficulty: row.difficulty as 'easy' | 'hard',
          gold: row.gold as Gold,
        };
      } else {
        task = {
          id: null,
          question: body.question as string,
          dataset: body.dataset ?? null,
          gold: undefined,
        };
      }
      const surface = await requireSurface(c.env, body.surface, 'surface');
      const aids = await requireAids(c.env, body.aids, body.promptSurface, '', owner);
      const model = textModelFor(c.env, body.model);
      const judged = task.gold !== undefined;
      const budget = body.search ?? { simulations: 8, k: 3 };
      const label = { provider: model.provider, simulated: model.capabilities.simulated === true };
      const method = getMethod(body.mode);
      // `search` is the budget of a method that searches (its options have `simulations`); `prompt` the prompt
      // of a ReAct method (its options have `prompt`); each is refused by name for a method without it.
      const takes = Object.keys((optionsJsonSchema(method).properties as object | undefined) ?? {});
      if (body.prompt !== undefined && !takes.includes('prompt'))
        throw new ProblemError('validation-error', {
          detail: `Method ${method.id} has no prompt option (the ReAct modes have).`,
          errors: [
            { in: 'body', field: 'prompt', pointer: '/prompt', message: `not an option of ${method.id}` },
          ],
        });
      const options = method.options.safeParse({
        ...(takes.includes('simulations')
          ? { simulations: budget.simulations, k: budget.k, maxDepth: budget.maxDepth ?? 15 }
          : {}),
        ...(body.prompt !== undefined ? { prompt: body.prompt } : {}),
      });
      if (!options.success) {
        throw new ProblemError('validation-error', {
          detail: `The search budget does not fit method ${method.id}.`,
          errors: [{ in: 'body', field: 'search', pointer: '/search', message: options.error.message }],
        });
      }
      const limits = { maxSteps: budget.maxDepth ?? 20, maxModelCalls: 400 };
      const estimate: Estimate = {
        modelCalls: Math.min(limits.maxModelCalls, method.modelCalls(options.data, limits)),
      };
      if (body.dryRun) return await dryRunAnswer(c, owner.id, estimate);
      await checkQuota(c.env, owner.id, estimate);
      // Every call is charged, a run that fails part-way included; the run cannot make more than its estimate.
      const meter = new UsageMeter();
      const spend = {
        kind: 'solve' as const,
        id: c.get('requestId') ?? crypto.randomUUID(),
        ownerId: owner.id,
      };
      const o = await method
        .run({
          // Without gold the kernel judges every Finish incorrect; `correct` is reported as null then.
          // The dataset (and a stored task's difficulty) pick a search's few-shot pool and `toolevo-code` depth.
          task: {
            ...(task.id ? { id: task.id } : {}),
            question: task.question,
            gold: (task.gold ?? '') as Gold,
            ...(task.dataset ? { dataset: task.dataset } : {}),
            ...(task.difficulty ? { difficulty: task.difficulty } : {}),
          },
          options: options.data,
          model: meteredModel(model, meter, { runId: spend.id }),
          world: worldFor(c.env),
          surface,
          deps: edgeKernelDeps(c.env, task.gold),
          aids,
          limits: { ...limits, maxModelCalls: estimate.modelCalls },
          ...(body.model?.temperature !== undefined ? { temperature: body.model.temperature } : {}),
          seeds: {
            model: body.model?.seed ?? (hash128(`solve/${body.seed}`)[0] as number),
            search: body.seed,
          },
          signal: c.req.raw.signal,
        })
        .finally(() => chargeSpend(c.env, spend, meter.total().calls));
      return {
        answer: o.answer,
        correct: judged ? o.correct : null,
        ending: o.search ? (o.search.ending ?? 'open') : o.ending,
        task: { id: task.id, question: task.question, dataset: task.dataset },
        mode: body.mode,
        trajectory: {
          // The solve reports the outcome kind (`finished`), the evaluation its label (`finished:correct`).
          steps: o.steps.map(
            (s): Step => ({
              text: s.text,
              observation: s.observation,
              ...(s.action !== undefined ? { action: s.action } : {}),
              outcome: s.outcome.split(':')[0] as string,
            }),
          ),
          toolUpdates: o.newTools,
        },
        search: o.search
          ? { nodes: o.search.nodes, iterations: o.search.iterations, solutions: o.search.solutions }
          : null,
        usage: { modelCalls: o.modelCalls, inputTokens: o.inputTokens, outputTokens: o.outputTokens },
        estimate,
        model: { ...label, name: o.model },
      };
    },
  );
});
