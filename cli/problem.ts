/**
 * Problems as the CLI prints them. Server problems (RFC 9457, functions/http/problem.ts) and the client-side
 * validation of a suite produce the same document, printed the same way:
 *
 *     Request validation failed: Invalid --sample: Too small: expected number to be >=1
 *       - --sample: Too small: expected number to be >=1
 *
 * Body fields are named by the flag that sets them (`FIELD_FLAGS`), whether the API reported them as `json.`
 * (its validator) or `body.` (its handlers).
 */

/** The members of a problem document the CLI reads (a subset of functions/http/problem.ts `Problem`). */
export interface ProblemLike {
  type?: string;
  title: string;
  status?: number;
  detail?: string;
  requestId?: string;
  errors?: { in: string; field: string; pointer?: string; message: string }[];
}

/** An error the CLI reports as lines on stderr and an exit code; `problem` when the server sent one. */
export class CliError extends Error {
  constructor(
    readonly lines: string[],
    readonly exitCode: number,
    readonly problem?: ProblemLike,
  ) {
    super(lines.join('\n'));
    this.name = 'CliError';
  }
}

/**
 * The command-line flag behind each request-body field the CLI sends (eval suites, schedules, explorations), so
 * a problem names what the user typed: `--sample` rather than `json.sampleSize`. Schedule bodies nest the suite
 * under `suite.`, which is looked up without it.
 */
export const FIELD_FLAGS: Readonly<Record<string, string>> = {
  name: '--name',
  methods: '--methods',
  surfaces: '--surfaces',
  promptSurface: '--prompt-surface',
  datasets: '--datasets',
  difficulties: '--difficulties',
  split: '--split',
  sampleSize: '--sample',
  maxSteps: '--max-steps',
  aids: '--aids',
  seed: '--seed',
  'mcts.simulations': '--mcts-simulations',
  'mcts.k': '--mcts-k',
  'mcts.maxDepth': '--mcts-depth',
  'model.provider': '--model-provider',
  'model.model': '--model',
  'model.temperature': '--temperature',
  'model.k': '--model-k',
  'model.seed': '--model-seed',
  cron: '--cron',
  threshold: '--threshold',
  enabled: '--disabled',
  tasks: '--tasks',
  'tasks.dataset': '--dataset',
  'tasks.difficulty': '--difficulty',
  'tasks.split': '--split',
  'tasks.limit': '--limit',
  surface: '--surface',
  treesPerTask: '--trees',
  'search.mode': '--mode',
  'search.k': '--k',
  'search.simulations': '--simulations',
  'search.maxDepth': '--depth',
};

/** The flag for a body field (`sampleSize`, `suite.sampleSize`, `datasets.2`), or undefined. */
export function flagForField(field: string): string | undefined {
  const parts = field.split('.').filter((p) => !/^\d+$/.test(p));
  if (parts[0] === 'suite' && parts.length > 1) parts.shift();
  for (let n = parts.length; n > 0; n--) {
    const flag = FIELD_FLAGS[parts.slice(0, n).join('.')];
    if (flag) return flag;
  }
  return undefined;
}

/** A body field as the user knows it: its flag, else `body field <path>` (the API says `json.` or `body.`). */
function fieldName(field: string): string {
  return flagForField(field) ?? `body field ${field}`;
}

export function problemLines(problem: ProblemLike): string[] {
  const detail = problem.detail?.replace(/\b(?:json|body)\.([\w.]+)/g, (_, field: string) =>
    fieldName(field),
  );
  const lines = [detail ? `${problem.title}: ${detail}` : problem.title];
  for (const e of problem.errors ?? []) {
    const isBody = e.in === 'json' || e.in === 'body';
    const where = isBody && e.field ? fieldName(e.field) : e.field ? `${e.in}.${e.field}` : e.in;
    lines.push(`  - ${where}: ${e.message}`);
  }
  if (problem.requestId) lines.push(`  (request id ${problem.requestId})`);
  return lines;
}
