/**
 * Checks exported training data against the search that produced it (issue 25 items 9 and 10):
 *
 *   npm run check:exports -- --url http://localhost:8787 [--key KEY | env TOOLDRIFT_KEY] --sft sft.jsonl --dpo dpo.jsonl
 *
 * - every SFT record: its trajectory's stored steps (`GET /v1/trajectories/{meta.trajectoryId}`) are walked again,
 *   and the record fails when a step re-sends a call (Action and Action Input) that had failed earlier on the path;
 * - every DPO record: its tree (`GET /v1/trees/{meta.treeId}`) gives the path to the pair's parent node, and the
 *   record fails when the chosen step re-sends a call that failed on that path while the rejected one does not;
 *   the record's Q and N of both sides must be the tree's.
 *
 * The checks recount from the stored steps and tree nodes (outcomes as the server recorded them); they do not
 * read the counts the export wrote into `meta`. Prints one line per file and every failing record; exit 0 when
 * nothing fails, 1 when something does, 2 on a usage error, 3 when the server refuses or cannot be reached.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

/** A step as the trajectory or tree views give it: its text and the server's outcome (`rejected:…`, `error`, …). */
export interface CheckedStep {
  text: string;
  outcome: string | null;
}

/** The call a step makes: everything from its `Action:` on, whitespace removed (the Thought set aside). */
function callOf(text: string): string {
  const at = text.search(/Action\s*:/);
  return (at < 0 ? text : text.slice(at)).replace(/\s+/g, '');
}

function failed(step: CheckedStep): boolean {
  return step.outcome !== null && (step.outcome.startsWith('rejected') || step.outcome.startsWith('error'));
}

/** How many steps of a path re-send a call that had failed earlier on it. */
export function repeatedFailedCalls(steps: readonly CheckedStep[]): number {
  const failedCalls = new Set<string>();
  let repeats = 0;
  for (const s of steps) {
    if (failedCalls.has(callOf(s.text))) repeats++;
    if (failed(s)) failedCalls.add(callOf(s.text));
  }
  return repeats;
}

/** A tree node as `GET /v1/trees/{id}` lists it (the fields the check reads). */
export interface CheckedNode extends CheckedStep {
  id: number;
  parent: number | null;
  visits: number;
  value: number;
}

/** Why a DPO record fails against its tree, or null when it passes. */
export function dpoProblem(
  meta: {
    parentNode: number;
    chosenNode: number;
    rejectedNode: number;
    chosen?: { q: number | null; n: number };
    rejected?: { q: number | null; n: number };
  },
  nodes: readonly CheckedNode[],
): string | null {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const chosen = byId.get(meta.chosenNode);
  const rejected = byId.get(meta.rejectedNode);
  if (!chosen || !rejected) return 'the pair names a node the tree does not have';
  const path: CheckedNode[] = [];
  for (let n = byId.get(meta.parentNode); n && n.parent !== null; n = byId.get(n.parent)) path.unshift(n);
  const failedCalls = new Set(path.filter(failed).map((n) => callOf(n.text)));
  if (failedCalls.has(callOf(chosen.text)) && !failedCalls.has(callOf(rejected.text)))
    return 'the chosen step repeats a call that failed on its path and the rejected one does not';
  for (const [side, n] of [
    ['chosen', chosen],
    ['rejected', rejected],
  ] as const) {
    const want = { q: n.visits > 0 ? n.value / n.visits : null, n: n.visits };
    const got = meta[side];
    if (!got || got.n !== want.n || got.q !== want.q)
      return `meta.${side} is ${JSON.stringify(got)}, the tree says ${JSON.stringify(want)}`;
  }
  return null;
}

class HttpError extends Error {}

/** GET as the key; a 429 waits as long as `Retry-After` says (the key's rate limit) and tries again. */
async function getJson(base: string, key: string, path: string): Promise<unknown> {
  const url = `${base}${path}`;
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' } });
    } catch (error) {
      throw new HttpError(`GET ${url}: cannot reach the server (${(error as Error).message})`);
    }
    if (res.status === 429 && attempt < 20) {
      await res.body?.cancel();
      const wait = Number(res.headers.get('retry-after') ?? '1');
      await new Promise((r) => setTimeout(r, 1000 * (Number.isFinite(wait) && wait > 0 ? wait : 1)));
      continue;
    }
    if (!res.ok) throw new HttpError(`GET ${url}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
    return res.json();
  }
}

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export async function main(argv: string[], out = console.log, err = console.error): Promise<number> {
  let values: { url?: string; key?: string; sft?: string; dpo?: string };
  try {
    values = parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        key: { type: 'string' },
        sft: { type: 'string' },
        dpo: { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (error) {
    err(`check-exports: ${(error as Error).message}`);
    return 2;
  }
  const key = values.key ?? process.env.TOOLDRIFT_KEY;
  if (!values.url || !key || (!values.sft && !values.dpo)) {
    err('usage: npm run check:exports -- --url URL [--key KEY] --sft FILE --dpo FILE');
    return 2;
  }
  const base = values.url.replace(/\/+$/, '');
  let problems = 0;
  try {
    if (values.sft) {
      const records = lines(values.sft);
      let repeating = 0;
      for (const [i, r] of records.entries()) {
        const id = (r.meta as { trajectoryId: string }).trajectoryId;
        const t = (await getJson(base, key, `/v1/trajectories/${encodeURIComponent(id)}`)) as {
          stepList: CheckedStep[];
        };
        const n = repeatedFailedCalls(t.stepList);
        if (n > 0) {
          repeating++;
          err(`${values.sft}:${i + 1}: trajectory ${id} repeats a failed call ${n} time(s)`);
        }
      }
      problems += repeating;
      out(
        `${values.sft}: ${records.length} SFT record(s), ${repeating} repeat a call that had failed on their path`,
      );
    }
    if (values.dpo) {
      const records = lines(values.dpo);
      const trees = new Map<string, CheckedNode[]>();
      let bad = 0;
      for (const [i, r] of records.entries()) {
        const meta = r.meta as Parameters<typeof dpoProblem>[0] & { treeId: string };
        let nodes = trees.get(meta.treeId);
        if (!nodes) {
          nodes = (
            (await getJson(base, key, `/v1/trees/${encodeURIComponent(meta.treeId)}`)) as {
              nodes: CheckedNode[];
            }
          ).nodes;
          trees.set(meta.treeId, nodes);
        }
        const problem = dpoProblem(meta, nodes);
        if (problem) {
          bad++;
          err(`${values.dpo}:${i + 1}: ${problem}`);
        }
      }
      problems += bad;
      out(
        `${values.dpo}: ${records.length} DPO pair(s) from ${trees.size} tree(s), ${bad} prefer repeating a failed call or misstate Q/N`,
      );
    }
  } catch (error) {
    if (error instanceof HttpError) {
      err(`check-exports: ${error.message}`);
      return 3;
    }
    throw error;
  }
  return problems > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
