/**
 * What a command needs from the outside world, injected so tests can run the CLI in-process: output streams,
 * environment, fetch, clock and sleep. `bin/tooldrift.mjs` passes the real process's.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ApiClient, EXIT_USAGE, type Fetch } from './http.ts';
import { CliError } from './problem.ts';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stderr is a terminal (progress redrawn in place) or not (plain lines). */
  stderrIsTTY: boolean;
  env: Record<string, string | undefined>;
  fetch?: Fetch;
  /** Milliseconds between two status polls (default 1000). */
  pollMs?: number;
  /** Non-TTY progress: milliseconds between two lines (default 5000). */
  progressIntervalMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_URL = 'http://localhost:8787';

/** Options every command that talks to the API accepts. */
export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export const CONNECTION_HELP = `Connection:
  --url URL      tooldrift instance (default $TOOLDRIFT_URL or ${DEFAULT_URL})
  --key KEY      API key (default $TOOLDRIFT_KEY); prefer the variable: flags show up in shell history
  --json         print the raw JSON response instead of tables
  -h, --help     this help`;

/** parseArgs with usage errors turned into a CliError that points at the command's help. */
export function parse<O extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  args: string[],
  options: O,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new CliError([message, `Run \`tooldrift ${command} --help\` for the options.`], EXIT_USAGE);
  }
}

export function clientFor(
  io: CliIO,
  values: { url?: string | undefined; key?: string | undefined },
): ApiClient {
  const baseUrl = values.url ?? io.env.TOOLDRIFT_URL ?? DEFAULT_URL;
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new CliError([`--url must be an http(s) URL, got ${JSON.stringify(baseUrl)}.`], EXIT_USAGE);
  }
  const key = values.key ?? io.env.TOOLDRIFT_KEY;
  if (!key) {
    throw new CliError(
      ['No API key: set TOOLDRIFT_KEY (or pass --key). A local `npm start` instance accepts dev-user-key.'],
      EXIT_USAGE,
    );
  }
  return new ApiClient({ baseUrl, key, ...(io.fetch ? { fetch: io.fetch } : {}) });
}

/** ` --url URL` when the command was given one, for the follow-up commands a report suggests. */
export function urlFlag(values: { url?: string | undefined }): string {
  return values.url ? ` --url ${values.url}` : '';
}

export function sleeper(io: CliIO): (ms: number) => Promise<void> {
  return io.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
}

export function printJson(io: CliIO, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** A command's result on stdout: the raw JSON with --json, else the text the command makes of it. */
export function printResult<T>(
  io: CliIO,
  values: { json?: boolean | string | undefined },
  result: T,
  text: (result: T) => string,
): void {
  if (values.json) printJson(io, result);
  else io.stdout(text(result));
}

/** A command's help on stdout; exit code 0 when --help asked for it, else the command line was incomplete. */
export function printHelp(io: CliIO, help: string, asked: boolean | undefined): number {
  io.stdout(`${help}\n`);
  return asked ? 0 : EXIT_USAGE;
}
