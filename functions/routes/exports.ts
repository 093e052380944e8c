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
 * Both are filterable by exploration, server surface and dataset, and answered a page at a time (`limit` records,
 * `Link: rel="next"`, `X-Total-Count`: http/ndjson.ts), each page streamed in chunks so it never sits in memory
 * at once. SFT pages are cut out of task groups (records in (exploration, task) and id order; the cursor names the
 * group and the records of it already sent), since a rule chooses among a task's successes together. An unknown
 * exploration or surface id is a 404, not an empty file.
 * SFT records are multi-turn by default (`format=single-turn` gives the earlier layout) and their `meta.selection`
 * reports the steps, deprecation errors met and repeated calls of the trajectory.
 */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  SELECTION_RULES,
  type SelectionRule,
  SFT_FORMATS,
  type SftFormat,
  sftExportLines,
} from '../../core/search/trajectories.ts';
import { PC_SURFACE } from '../../core/surfaces/builtin.ts';
import { DATASET_NAMES } from '../../core/world/types.ts';
import type { Bindings } from '../../edge/env.ts';
import {
  type ExportFilter as OwnedExportFilter,
  preferencePairsAfter,
  preferencePairWindow,
  type SizedTaskGroup,
  sftExportWindow,
  successesOf,
  TRAINING_PER_TASK,
} from '../../edge/stores/trajectories.ts';
import type { AppEnv } from '../app-env.ts';
import { type ExportSource, exportAnswer, exportParams, ndjsonOk, ndjsonPage } from '../http/ndjson.ts';
import { routeModule } from '../http/openapi.ts';
import { explorationFilter, surfaceFilter } from '../schemas/resource-filters.ts';

/** Task groups whose successes are read from D1 at once (each binds two parameters of the statement). */
const GROUPS_PER_CHUNK = 20;

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
  selection: z.enum(SELECTION_RULES).default('repeat-free').openapi({
    description:
      "Which successes of a task (at most 4, seeded) become records: 'repeat-free' only those that repeat no failed call (fewer when fewer exist); 'clean' all, those without repeats and with fewer steps first (tooldrift's earlier default); 'uniform' the paper's uniform draw.",
  }),
  cursor: z
    .string()
    .max(600)
    .refine((cursor) => sftPosition(cursor) !== null, 'expected the cursor of a previous page’s `Link`')
    .optional()
    .openapi({
      description: 'Where the page starts: the `cursor` of the previous page’s `Link: rel="next"`.',
    }),
});

/** One exploration's task, where a selection rule chooses. */
type TaskGroup = Pick<SizedTaskGroup, 'explorationId' | 'taskId'>;

/** Where an SFT page starts: records sent before it, and the task group it starts in with the records of it sent. */
interface SftPosition {
  sent: number;
  from: (TaskGroup & { skip: number }) | null;
}

/** The SFT cursor `{records sent}_{JSON [explorationId, taskId, skip]}`; null when it is not one. */
function sftPosition(cursor: string | undefined): SftPosition | null {
  if (cursor === undefined) return { sent: 0, from: null };
  const m = /^(\d{1,15})_(.+)$/s.exec(cursor);
  if (!m) return null;
  let tail: unknown;
  try {
    tail = JSON.parse(m[2] as string);
  } catch {
    return null;
  }
  if (!Array.isArray(tail) || tail.length !== 3) return null;
  const [explorationId, taskId, skip] = tail as unknown[];
  if (typeof explorationId !== 'string' || typeof taskId !== 'string') return null;
  if (typeof skip !== 'number' || !Number.isInteger(skip) || skip < 0) return null;
  return { sent: Number(m[1]), from: { explorationId, taskId, skip } };
}

const sftCursor = (g: TaskGroup, skip: number) => JSON.stringify([g.explorationId, g.taskId, skip]);

/**
 * One page of the SFT export: at most `limit` records cut out of whole task groups (a group's records under the
 * rule are the same on every request: the choice is seeded), the next page's cursor pointing into the group where
 * this one stopped.
 */
async function sftAnswer(
  c: Context<AppEnv>,
  page: { limit: number; cursor?: string | undefined },
  f: OwnedExportFilter,
  options: { format: SftFormat; selection: SelectionRule },
): Promise<Response> {
  const at = sftPosition(page.cursor) ?? { sent: 0, from: null };
  const { total, groups } = await sftExportWindow(c.env, f, options.selection, at.from, page.limit + 1);
  const plan: { group: SizedTaskGroup; skip: number; take: number }[] = [];
  let left = page.limit;
  let next: string | null = null;
  for (const group of groups) {
    const same = at.from && group.explorationId === at.from.explorationId && group.taskId === at.from.taskId;
    const skip = same ? Math.min(at.from?.skip ?? 0, group.records) : 0;
    const available = group.records - skip;
    if (available === 0) continue;
    if (left === 0) {
      next = sftCursor(group, 0);
      break;
    }
    const take = Math.min(available, left);
    plan.push({ group, skip, take });
    left -= take;
    if (take < available) {
      next = sftCursor(group, skip + take);
      break;
    }
  }
  const lineOptions = {
    selection: options.selection,
    perTask: TRAINING_PER_TASK,
    docsSurface: PC_SURFACE,
    format: options.format,
    // single-turn is the earlier layout in full: the agent prompt head as the system message.
    systemPrompt: options.format === 'single-turn' ? ('agent-head' as const) : ('tools' as const),
  };
  async function* chunks() {
    for (let i = 0; i < plan.length; i += GROUPS_PER_CHUNK) {
      const part = plan.slice(i, i + GROUPS_PER_CHUNK);
      const rows = await successesOf(
        c.env,
        f,
        part.map((p) => p.group),
      );
      const lines: string[] = [];
      for (const { group, skip, take } of part) {
        const own = rows.filter(
          (r) => r.t.explorationId === group.explorationId && r.t.taskId === group.taskId,
        );
        lines.push(...sftExportLines(own, lineOptions).slice(skip, skip + take));
      }
      yield lines;
    }
  }
  return ndjsonPage(c, { total, next: next === null ? null : `${at.sent + page.limit}_${next}` }, chunks());
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
        'Each line: {"messages": [system (ToolEvo SFT prompt: header and P_c tool list), user ("Question: ..."), then per step an assistant turn (Thought/Action/Action Input) and a user turn ("Observation: ...") between steps], "meta": {trajectoryId, treeId, explorationId, taskId, dataset, surfaceId, promptSurfaceId, model, seed, reward, toolUpdates, selection: {rule, steps, deprecationErrors, repeats}}}. selection=repeat-free (default) leaves out successes that repeat a failed call. With format=single-turn (the earlier layout): [system (agent prompt head), user, assistant (the whole trajectory with observations)]. Compatible with TRL SFTTrainer and LLaMA-Factory (sharegpt, messages column, OpenAI tags). At most `limit` records per answer: follow `Link: rel="next"` for the rest; `X-Total-Count` is the whole export in lines.',
      query: SftQuery,
      ok: ndjsonOk('SFT records'),
    },
    async (c, { query: { format, selection, limit, cursor, ...query }, owner }) =>
      sftAnswer(c, { limit, cursor }, { ...query, owner }, { format, selection }) as never,
  );

  routes.get(
    '/v1/exports/dpo.jsonl',
    'DPO preference pairs (chosen/rejected sibling steps) of finished search trees, a page at a time',
    {
      description:
        'Each line: {"prompt": [system, user ("Question: ..." + the shared steps)], "chosen": [assistant step toward a correct Finish], "rejected": [assistant sibling step whose subtree holds failures (wrong Finish, depth or load limit, budget) and no correct Finish], "meta": {treeId, explorationId, taskId, dataset, surfaceId, promptSurfaceId, model, seed, parentNode, chosenNode, rejectedNode, chosen: {q, n}, rejected: {q, n}}} (TRL conversational preference format; q and n: the mean value and visit count of each node in the search). No pair prefers a step that repeats a call which failed on its path over one that does not. At most `limit` pairs per answer: follow `Link: rel="next"` for the rest; `X-Total-Count` is the whole export in lines.',
      query: ExportFilter,
      ok: ndjsonOk('DPO pairs'),
    },
    async (c, { query: { limit, cursor, ...query }, owner }) =>
      exportAnswer(c, { limit, cursor }, dpoSource(c.env, { ...query, owner })) as never,
  );
});
