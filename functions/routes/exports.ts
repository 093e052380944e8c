/**
 * Training-data exports as JSON Lines (core/search/trajectories.ts documents both record formats):
 * - `GET /v1/exports/sft.jsonl`: one chat record per trajectory selected for training (seeded, at most 4
 *   successes per task and exploration), prompt over the P_c documentation only (ToolEVO §3.4);
 * - `GET /v1/exports/dpo.jsonl`: the preference pairs stored when each tree finished (edge/stores/trajectories.ts),
 *   computed over the whole tree, so a rejected step is one whose subtree holds failures of any kind (wrong
 *   Finish, depth or load limit, budget) and no correct Finish. The stored root→Finish trajectories could not
 *   give these: a wrong Finish beside a correct one under the same node is rare. Pairs are served as stored.
 * Both are filterable by exploration, server surface and dataset, and answered a page at a time (`limit` records,
 * `Link: rel="next"`, `X-Total-Count`: http/ndjson.ts), each page streamed in chunks so it never sits in memory
 * at once. An unknown exploration or surface id is a 404, not an empty file.
 * SFT records are multi-turn by default (`format=single-turn` gives the earlier layout) and their `meta.selection`
 * reports the steps, deprecation errors met and repeated calls of the trajectory.
 */
import { z } from '@hono/zod-openapi';
import {
  SFT_FORMATS,
  type SftFormat,
  sftRecord,
  type TrajectoryStepRecord,
  trajectoryStats,
} from '../../core/search/trajectories.ts';
import { PC_SURFACE } from '../../core/surfaces/builtin.ts';
import { DATASET_NAMES } from '../../core/world/types.ts';
import type { Bindings } from '../../edge/env.ts';
import {
  type ExportFilter as OwnedExportFilter,
  preferencePairsAfter,
  preferencePairWindow,
  trainingTrajectoriesAfter,
  trainingTrajectoryWindow,
} from '../../edge/stores/trajectories.ts';
import { type ExportSource, exportAnswer, exportParams, ndjsonOk } from '../http/ndjson.ts';
import { routeModule } from '../http/openapi.ts';
import { explorationFilter, surfaceFilter } from '../schemas/resource-filters.ts';

const ExportFilter = z.object({
  exploration: explorationFilter('Only this exploration.'),
  surface: surfaceFilter('Only trees run on this server surface.'),
  dataset: z.enum(DATASET_NAMES).optional().openapi({ description: 'Only tasks of this dataset.' }),
  ...exportParams(300),
});

const SftQuery = ExportFilter.extend({
  format: z.enum(SFT_FORMATS).default('multi-turn').openapi({
    description:
      'multi-turn: ToolEvo SFT system prompt (tool list only), an assistant turn per step, observations as user turns (mask them by training on assistant turns); single-turn: the earlier layout, agent prompt head as system and one assistant message with the whole trajectory.',
  }),
});

type TrainingRow = Awaited<ReturnType<typeof trainingTrajectoriesAfter>>[number];

function sftSource(env: Bindings, f: OwnedExportFilter, format: SftFormat): ExportSource<TrainingRow> {
  return {
    window: (after, limit) => trainingTrajectoryWindow(env, f, after, limit),
    rows: (after, upTo, chunk) => trainingTrajectoriesAfter(env, f, after, chunk, upTo),
    idOf: (row) => row.t.id,
    lines: (rows) =>
      rows.map(({ t, question }) =>
        JSON.stringify({
          ...sftRecord(
            { steps: t.steps as TrajectoryStepRecord[] },
            { question },
            {
              docsSurface: PC_SURFACE,
              format,
              // single-turn is the earlier layout in full: the agent prompt head as the system message.
              systemPrompt: format === 'single-turn' ? 'agent-head' : 'tools',
            },
          ),
          meta: {
            trajectoryId: t.id,
            treeId: t.treeId,
            explorationId: t.explorationId,
            taskId: t.taskId,
            dataset: t.dataset,
            surfaceId: t.surfaceId,
            promptSurfaceId: t.promptSurfaceId,
            model: t.model,
            seed: t.seed,
            reward: t.reward,
            toolUpdates: t.toolUpdates,
            selection: trajectoryStats(t.steps as TrajectoryStepRecord[]),
          },
        }),
      ),
  };
}

type PairRow = Awaited<ReturnType<typeof preferencePairsAfter>>[number];

function dpoSource(env: Bindings, f: OwnedExportFilter): ExportSource<PairRow> {
  return {
    window: (after, limit) => preferencePairWindow(env, f, after, limit),
    rows: (after, upTo, chunk) => preferencePairsAfter(env, f, after, chunk, upTo),
    idOf: (row) => row.id,
    lines: (rows) => rows.map((r) => JSON.stringify(r.record)),
  };
}

export const registerExportRoutes = routeModule('Exports', 'user', (routes) => {
  routes.get(
    '/v1/exports/sft.jsonl',
    'SFT records (chat `messages`) from the successful trajectories selected for training, a page at a time',
    {
      description:
        'Each line: {"messages": [system (ToolEvo SFT prompt: header and P_c tool list), user ("Question: ..."), then per step an assistant turn (Thought/Action/Action Input) and a user turn ("Observation: ...") between steps], "meta": {trajectoryId, treeId, explorationId, taskId, dataset, surfaceId, promptSurfaceId, model, seed, reward, toolUpdates, selection: {steps, deprecationErrors, repeats}}}. With format=single-turn (the earlier layout): [system (agent prompt head), user, assistant (the whole trajectory with observations)]. Compatible with TRL SFTTrainer and LLaMA-Factory (sharegpt, messages column, OpenAI tags). At most `limit` records per answer: follow `Link: rel="next"` for the rest; `X-Total-Count` is the whole export in lines.',
      query: SftQuery,
      ok: ndjsonOk('SFT records'),
    },
    async (c, { query: { format, limit, cursor, ...query }, owner }) =>
      exportAnswer(c, { limit, cursor }, sftSource(c.env, { ...query, owner }, format)) as never,
  );

  routes.get(
    '/v1/exports/dpo.jsonl',
    'DPO preference pairs (chosen/rejected sibling steps) of finished search trees, a page at a time',
    {
      description:
        'Each line: {"prompt": [system, user ("Question: ..." + the shared steps)], "chosen": [assistant step toward a correct Finish], "rejected": [assistant sibling step whose subtree holds failures (wrong Finish, depth or load limit, budget) and no correct Finish], "meta": {treeId, explorationId, taskId, dataset, surfaceId, promptSurfaceId, model, seed, parentNode, chosenNode, rejectedNode}} (TRL conversational preference format). At most `limit` pairs per answer: follow `Link: rel="next"` for the rest; `X-Total-Count` is the whole export in lines.',
      query: ExportFilter,
      ok: ndjsonOk('DPO pairs'),
    },
    async (c, { query: { limit, cursor, ...query }, owner }) =>
      exportAnswer(c, { limit, cursor }, dpoSource(c.env, { ...query, owner })) as never,
  );
});
