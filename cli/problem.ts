/**
 * Problems as the CLI prints them. Server problems (RFC 9457, functions/http/problem.ts) and the client-side
 * validation of a suite produce the same document, printed the same way:
 *
 *     Request validation failed: Invalid json.sampleSize: Too small: expected number to be >=1
 *       - json.sampleSize: Too small: expected number to be >=1
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

export function problemLines(problem: ProblemLike): string[] {
  const lines = [problem.detail ? `${problem.title}: ${problem.detail}` : problem.title];
  for (const e of problem.errors ?? []) {
    const where = e.field ? `${e.in}.${e.field}` : e.in;
    lines.push(`  - ${where}: ${e.message}`);
  }
  if (problem.requestId) lines.push(`  (request id ${problem.requestId})`);
  return lines;
}
