/**
 * Training-data exports as JSON Lines (core/search/trajectories.ts documents both record formats):
 * - `GET /v1/exports/sft.jsonl`: one chat record per trajectory selected for training (seeded, at most 4
 *   successes per task and exploration), prompt over the P_c documentation only (ToolEVO §3.4);
 * - `GET /v1/exports/dpo.jsonl`: the preference pairs stored when each tree finished (edge/stores/trajectories.ts),
 *   computed over the whole tree, so a rejected step is one whose subtree holds failures of any kind (wrong
 *   Finish, depth or load limit, budget) and no correct Finish. The stored root→Finish trajectories could not
 *   give these: a wrong Finish beside a correct one under the same node is rare. Pairs are served as stored.
 * Both are filterable by exploration, server surface and dataset, and streamed page by page (keyset paging) so
 * that an export of any size never sits in memory at once.
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { sftRecord, type TrajectoryStepRecord } from '../../core/search/trajectories.ts';
import { PC_SURFACE } from '../../core/surfaces/builtin.ts';
import { DATASET_NAMES } from '../../core/world/types.ts';
import type { Bindings } from '../../edge/env.ts';
import { preferencePairsAfter, trainingTrajectoriesAfter } from '../../edge/stores/trajectories.ts';
import type { AppEnv } from '../app-env.ts';
import { linesStream, NDJSON, ndjson } from '../http/ndjson.ts';
import { AUTH_PROBLEMS, keyed, problemResponses } from '../http/openapi.ts';

const PAGE = 50;

const ExportFilter = z.object({
  exploration: z.string().min(1).max(200).optional().openapi({ description: 'Only this exploration.' }),
  surface: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .openapi({ description: 'Only trees run on this server surface.' }),
  dataset: z.enum(DATASET_NAMES).optional().openapi({ description: 'Only tasks of this dataset.' }),
});
type ExportFilter = z.infer<typeof ExportFilter>;

const ndjsonResponse = (description: string) => ({
  description,
  content: { [NDJSON]: { schema: z.string().openapi({ description: 'One JSON object per line.' }) } },
});

const sftRoute = createRoute({
  method: 'get',
  path: '/v1/exports/sft.jsonl',
  tags: ['Exports'],
  summary: 'SFT records (chat `messages`) from the successful trajectories selected for training',
  description:
    'Each line: {"messages": [system (ToolEvo agent prompt head over P_c docs), user ("Question: ..."), assistant (the ReAct trajectory with observations)], "meta": {trajectoryId, treeId, explorationId, taskId, dataset, surfaceId, promptSurfaceId, model, seed, reward, toolUpdates}}. Compatible with TRL SFTTrainer and LLaMA-Factory (sharegpt, messages column, OpenAI tags).',
  ...keyed('user'),
  request: { query: ExportFilter },
  responses: { 200: ndjsonResponse('SFT records'), ...problemResponses(400, ...AUTH_PROBLEMS) },
});

const dpoRoute = createRoute({
  method: 'get',
  path: '/v1/exports/dpo.jsonl',
  tags: ['Exports'],
  summary: 'DPO preference pairs (chosen/rejected sibling steps) of finished search trees',
  description:
    'Each line: {"prompt": [system, user ("Question: ..." + the shared steps)], "chosen": [assistant step toward a correct Finish], "rejected": [assistant sibling step whose subtree holds failures (wrong Finish, depth or load limit, budget) and no correct Finish], "meta": {treeId, explorationId, taskId, dataset, surfaceId, promptSurfaceId, model, seed, parentNode, chosenNode, rejectedNode}} (TRL conversational preference format).',
  ...keyed('user'),
  request: { query: ExportFilter },
  responses: { 200: ndjsonResponse('DPO pairs'), ...problemResponses(400, ...AUTH_PROBLEMS) },
});

async function sftPage(env: Bindings, f: ExportFilter, after: string) {
  const rows = await trainingTrajectoriesAfter(env, f, after, PAGE);
  const lines = rows.map(({ t, question }) =>
    JSON.stringify({
      ...sftRecord({ steps: t.steps as TrajectoryStepRecord[] }, { question }, { docsSurface: PC_SURFACE }),
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
      },
    }),
  );
  return { lines, next: rows.length === PAGE ? (rows.at(-1)?.t.id ?? null) : null };
}

async function dpoPage(env: Bindings, f: ExportFilter, after: string) {
  const rows = await preferencePairsAfter(env, f, after, PAGE);
  const lines = rows.map((r) => JSON.stringify(r.record));
  return { lines, next: rows.length === PAGE ? (rows.at(-1)?.id ?? null) : null };
}

export function registerExportRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(sftRoute, (c) => {
    const f = c.req.valid('query');
    return ndjson(linesStream('', (after) => sftPage(c.env, f, after))) as never;
  });

  app.openapi(dpoRoute, (c) => {
    const f = c.req.valid('query');
    return ndjson(linesStream('', (after) => dpoPage(c.env, f, after))) as never;
  });
}
