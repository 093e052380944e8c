/**
 * Training-data exports as JSON Lines (core/search/trajectories.ts documents both record formats):
 * - `GET /v1/exports/sft.jsonl`: one chat record per trajectory selected for training (seeded, at most 4
 *   successes per task and exploration; `selection=` the rule, core/search/trajectories.ts: `repeat-free` by
 *   default — no success that repeats a failed call —, `clean` or `uniform`), prompt over the P_c documentation
 *   only (ToolEVO §3.4). It pages by (exploration, task): a rule chooses among a task's successes together;
 * - `GET /v1/exports/dpo.jsonl`: the preference pairs stored when each tree finished (edge/stores/trajectories.ts),
 *   computed over the whole tree, so a rejected step is one whose subtree holds failures of any kind (wrong
 *   Finish, depth or load limit, budget) and no correct Finish. The stored root→Finish trajectories could not
 *   give these: a wrong Finish beside a correct one under the same node is rare. Pairs are served as stored.
 * Both are filterable by exploration, server surface and dataset, and streamed page by page (keyset paging) so
 * that an export of any size never sits in memory at once (SFT pages are groups of tasks, records in task and id
 * order). An unknown exploration id is a 404, not an empty file.
 * SFT records are multi-turn by default (`format=single-turn` gives the earlier layout) and their `meta.selection`
 * reports the steps, deprecation errors met and repeated calls of the trajectory.
 */
import { z } from '@hono/zod-openapi';
import {
  SELECTION_RULES,
  type SelectionRule,
  SFT_FORMATS,
  type SftFormat,
  selectForTraining,
  sftRecord,
  type TrajectoryStepRecord,
  trajectoryStats,
} from '../../core/search/trajectories.ts';
import { PC_SURFACE } from '../../core/surfaces/builtin.ts';
import { DATASET_NAMES } from '../../core/world/types.ts';
import type { Bindings } from '../../edge/env.ts';
import {
  explorationKnown,
  type ExportFilter as OwnedExportFilter,
  preferencePairsAfter,
  successesOf,
  successGroupsAfter,
  type TaskGroup,
  TRAINING_PER_TASK,
} from '../../edge/stores/trajectories.ts';
import { textFilter } from '../http/filters.ts';
import { linesStream, ndjson, ndjsonOk } from '../http/ndjson.ts';
import { routeModule } from '../http/openapi.ts';
import { ProblemError } from '../http/problem.ts';

const PAGE = 50;
/** Tasks per SFT page (each binds two parameters of the D1 statement that loads their successes). */
const GROUPS_PER_PAGE = 20;

const ExportFilter = z.object({
  exploration: textFilter(200, 'Only this exploration.'),
  surface: textFilter(100, 'Only trees run on this server surface.'),
  dataset: z.enum(DATASET_NAMES).optional().openapi({ description: 'Only tasks of this dataset.' }),
});

const SftQuery = ExportFilter.extend({
  format: z.enum(SFT_FORMATS).default('multi-turn').openapi({
    description:
      'multi-turn: ToolEvo SFT system prompt (tool list only), an assistant turn per step, observations as user turns (mask them by training on assistant turns); single-turn: the earlier layout, agent prompt head as system and one assistant message with the whole trajectory.',
  }),
  selection: z.enum(SELECTION_RULES).default('repeat-free').openapi({
    description:
      "Which successes of a task (at most 4, seeded) become records: 'repeat-free' only those that repeat no failed call (fewer when fewer exist); 'clean' all, those without repeats and with fewer steps first (tooldrift's earlier default); 'uniform' the paper's uniform draw.",
  }),
});

/** A 404 problem when the filter names an exploration that is unknown or another key's (see `explorationKnown`). */
async function requireExploration(env: Bindings, f: OwnedExportFilter): Promise<void> {
  const id = f.exploration;
  if (id && !(await explorationKnown(env, id, f.owner)))
    throw new ProblemError('not-found', { detail: `No exploration with id ${id}.` });
}

/** A task group as the page cursor: JSON of [explorationId, taskId]. */
function groupCursor(g: TaskGroup): string {
  return JSON.stringify([g.explorationId, g.taskId]);
}

function parseGroupCursor(cursor: string): TaskGroup | null {
  if (cursor === '') return null;
  const [explorationId, taskId] = JSON.parse(cursor) as [string, string];
  return { explorationId, taskId };
}

async function sftPage(
  env: Bindings,
  f: OwnedExportFilter,
  options: { format: SftFormat; selection: SelectionRule },
  after: string,
) {
  const groups = await successGroupsAfter(env, f, parseGroupCursor(after), GROUPS_PER_PAGE);
  const rows = await successesOf(env, f, groups);
  const lines: string[] = [];
  for (const g of groups) {
    const own = rows.filter((r) => r.t.explorationId === g.explorationId && r.t.taskId === g.taskId);
    // The exploration's id seeds the choice, as for the stored `selected` flags (edge/stores/trajectories.ts).
    const chosen = selectForTraining(
      own.map((r) => r.t),
      g.explorationId,
      TRAINING_PER_TASK,
      options.selection,
    );
    for (const { t, question } of own) {
      if (!chosen.has(t.id)) continue;
      lines.push(
        JSON.stringify({
          ...sftRecord(
            { steps: t.steps as TrajectoryStepRecord[] },
            { question },
            {
              docsSurface: PC_SURFACE,
              format: options.format,
              // single-turn is the earlier layout in full: the agent prompt head as the system message.
              systemPrompt: options.format === 'single-turn' ? 'agent-head' : 'tools',
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
            selection: { rule: options.selection, ...trajectoryStats(t.steps as TrajectoryStepRecord[]) },
          },
        }),
      );
    }
  }
  const last = groups.at(-1);
  return { lines, next: groups.length === GROUPS_PER_PAGE && last ? groupCursor(last) : null };
}

async function dpoPage(env: Bindings, f: OwnedExportFilter, after: string) {
  const rows = await preferencePairsAfter(env, f, after, PAGE);
  const lines = rows.map((r) => JSON.stringify(r.record));
  return { lines, next: rows.length === PAGE ? (rows.at(-1)?.id ?? null) : null };
}

export const registerExportRoutes = routeModule('Exports', 'user', (routes) => {
  routes.get(
    '/v1/exports/sft.jsonl',
    'SFT records (chat `messages`) from the successful trajectories selected for training',
    {
      description:
        'Each line: {"messages": [system (ToolEvo SFT prompt: header and P_c tool list), user ("Question: ..."), then per step an assistant turn (Thought/Action/Action Input) and a user turn ("Observation: ...") between steps], "meta": {trajectoryId, treeId, explorationId, taskId, dataset, surfaceId, promptSurfaceId, model, seed, reward, toolUpdates, selection: {rule, steps, deprecationErrors, repeats}}}. selection=repeat-free (default) leaves out successes that repeat a failed call. With format=single-turn (the earlier layout): [system (agent prompt head), user, assistant (the whole trajectory with observations)]. Compatible with TRL SFTTrainer and LLaMA-Factory (sharegpt, messages column, OpenAI tags).',
      query: SftQuery,
      ok: ndjsonOk('SFT records'),
      problems: [404],
    },
    async (c, { query: { format, selection, ...query }, owner }) => {
      const f = { ...query, owner };
      await requireExploration(c.env, f);
      return ndjson(linesStream('', (after) => sftPage(c.env, f, { format, selection }, after))) as never;
    },
  );

  routes.get(
    '/v1/exports/dpo.jsonl',
    'DPO preference pairs (chosen/rejected sibling steps) of finished search trees',
    {
      description:
        'Each line: {"prompt": [system, user ("Question: ..." + the shared steps)], "chosen": [assistant step toward a correct Finish], "rejected": [assistant sibling step whose subtree holds failures (wrong Finish, depth or load limit, budget) and no correct Finish], "meta": {treeId, explorationId, taskId, dataset, surfaceId, promptSurfaceId, model, seed, parentNode, chosenNode, rejectedNode, chosen: {q, n}, rejected: {q, n}}} (TRL conversational preference format; q and n: the mean value and visit count of each node in the search). No pair prefers a step that repeats a call which failed on its path over one that does not.',
      query: ExportFilter,
      ok: ndjsonOk('DPO pairs'),
      problems: [404],
    },
    async (c, { query, owner }) => {
      const f = { ...query, owner };
      await requireExploration(c.env, f);
      return ndjson(linesStream('', (after) => dpoPage(c.env, f, after))) as never;
    },
  );
});
