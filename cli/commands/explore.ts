/**
 * `tooldrift explore`: starts an exploration (ToolEvo tree searches, POST /v1/explorations), shows how many of
 * its trees have finished while polling GET /v1/explorations/{id}, then prints the counts and success rate.
 * The request is validated by the API; its problems are printed as they come.
 */
import type { Exploration } from '../api-types.ts';
import { CONNECTION_HELP, command, urlFlag } from '../context.ts';
import { followRun } from '../progress.ts';
import {
  type FlagValues,
  flagValue,
  listValue,
  MODEL_HELP,
  MODEL_OPTIONS,
  modelFromFlags,
  setFlags,
  stringFlag,
} from '../suite.ts';
import { percentCell } from '../table.ts';

export const EXPLORE_HELP = `Usage: tooldrift explore [task flags] [search flags] [--no-wait] [--json] [--url URL] [--key KEY]

Runs ToolEvo tree searches (trees per task × tasks) on a tooldrift instance; their trajectories feed
\`tooldrift export sft|dpo\`.

Tasks (ids, or a filter: the first --limit matching tasks by id):
  --tasks LIST           task ids
  --dataset D            flights | coffee | airbnb | yelp | agenda | scirex | dblp
  --difficulty D         easy | hard
  --split S              train | dev | test
  --limit N              tasks (default 10)

Search:
  --surface ID           server surface (default s-in, where ToolEvo explores)
  --prompt-surface ID    surface whose docs the agent sees (default pc)
  --trees N              trees per task (default 20)
  --mode M               mcts | greedy (default mcts)
  --k N                  candidates per expansion (default 5)
  --simulations N        M: simulations per tree (default 12)
  --depth N              T: max depth of a path (default 15)
  --seed S               seed (default '0')

${MODEL_HELP}

Run:
  --no-wait              print the exploration id and return at once

${CONNECTION_HELP}

Exit codes: 0 succeeded, 1 the server refused or the exploration failed or was cancelled, 2 invalid flags.`;

/** The body of POST /v1/explorations the flags describe; unset flags are left to the API's defaults. */
export function explorationBody(values: FlagValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const ids = stringFlag(values, 'tasks');
  if (ids !== undefined) body.tasks = listValue(ids);
  else {
    const filter: Record<string, unknown> = {};
    setFlags(filter, values, { dataset: 'dataset', difficulty: 'difficulty', split: 'split' });
    setFlags(filter, values, { limit: 'limit' }, flagValue);
    body.tasks = filter;
  }
  setFlags(body, values, { surface: 'surface', promptSurface: 'prompt-surface' });
  setFlags(body, values, { treesPerTask: 'trees' }, flagValue);
  const search: Record<string, unknown> = {};
  setFlags(search, values, { mode: 'mode' });
  setFlags(search, values, { k: 'k', simulations: 'simulations', maxDepth: 'depth' }, flagValue);
  if (Object.keys(search).length > 0) body.search = search;
  const model = modelFromFlags(values);
  if (model !== undefined) body.model = model;
  setFlags(body, values, { seed: 'seed' });
  return body;
}

function finished(e: Exploration): number {
  return e.counts.done + e.counts.failed + e.counts.cancelled;
}

export function explorationReport(e: Exploration, url = ''): string {
  const c = e.counts;
  const u = e.usage;
  return (
    `Exploration ${e.id} — ${e.status}: ${e.trees} trees (${c.done} done, ${c.failed} failed, ` +
    `${c.cancelled} cancelled, ${c.running} running, ${c.queued} queued)\n` +
    `Solved ${e.solved} of ${finished(e)} finished trees: success rate ${percentCell(e.successRate)}%\n` +
    `Usage: ${u.nodes} nodes, ${u.iterations} iterations, ${u.modelCalls} model calls, ` +
    `${u.inputTokens} input + ${u.outputTokens} output tokens\n` +
    `Export its trajectories: tooldrift export sft --exploration ${e.id} --out sft.jsonl${url}\n`
  );
}

export const exploreCommand = command({
  name: 'explore',
  help: EXPLORE_HELP,
  options: {
    ...MODEL_OPTIONS,
    tasks: { type: 'string' },
    dataset: { type: 'string' },
    difficulty: { type: 'string' },
    split: { type: 'string' },
    limit: { type: 'string' },
    surface: { type: 'string' },
    'prompt-surface': { type: 'string' },
    trees: { type: 'string' },
    mode: { type: 'string' },
    k: { type: 'string' },
    simulations: { type: 'string' },
    depth: { type: 'string' },
    seed: { type: 'string' },
    'no-wait': { type: 'boolean' },
  },
  async run(values, _positionals, connect, io) {
    const body = explorationBody(values);
    const client = connect();
    const view = await client.post<Exploration>('/v1/explorations', body);
    return followRun(io, values, {
      label: `explore ${view.id}`,
      unit: 'trees',
      first: view,
      running: (v) => v.status === 'queued' || v.status === 'running',
      counts: (v) => ({ done: finished(v), total: v.trees, note: `${v.solved} solved` }),
      status: (v) => v.status,
      refetch: (v) => client.get<Exploration>(`/v1/explorations/${encodeURIComponent(v.id)}`),
      started: (v) => `Started exploration ${v.id} (${v.trees} trees).\n`,
      report: (v) => explorationReport(v, urlFlag(values)),
    });
  },
});
