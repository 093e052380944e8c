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

type Options = NonNullable<ParseArgsConfig['options']>;

/** The flags a command's `run` gets: its own options and the connection options, as parseArgs reads them. */
export type CommandValues<O extends Options> = ReturnType<
  typeof parse<typeof CONNECTION_OPTIONS & O>
>['values'];

/** A command that talks to the API, as `command` runs it. */
export interface CommandDefinition<O extends Options> {
  /** Its name on the command line, for the usage error that points at its help. */
  name: string;
  help: string;
  /** Its own options; the connection options are added to them. */
  options: O;
  /**
   * The positional arguments it takes. None by default: parseArgs refuses them. `subcommand`: the first says
   * what to do, and a command line without one gets the help, exit code 2. `any`: the command checks them.
   */
  positionals?: 'subcommand' | 'any';
  /** Positional arguments it answers with its help and exit code 2 rather than with an error of its own. */
  helpWhen?: (positionals: string[]) => boolean;
  /**
   * The command itself. `connect` makes the API client; a command calls it once it has checked its command
   * line, so that a usage error is reported as such even without a key or with a bad --url.
   */
  run(values: CommandValues<O>, positionals: string[], connect: () => ApiClient, io: CliIO): Promise<number>;
}

/** A command's entry point (main's table): parses its argv, answers --help or an incomplete line, else runs it. */
export function command<O extends Options>(
  definition: CommandDefinition<O>,
): (args: string[], io: CliIO) => Promise<number> {
  return async (args, io) => {
    const options = { ...CONNECTION_OPTIONS, ...definition.options };
    const { values, positionals } = parse(
      definition.name,
      args,
      options,
      definition.positionals !== undefined,
    );
    // parseArgs' types do not see the connection options through the generic spread; they are there.
    const { help } = values as { help?: boolean };
    const nothingToDo = definition.positionals === 'subcommand' && positionals.length === 0;
    if (help || nothingToDo || definition.helpWhen?.(positionals))
      return printHelp(io, definition.help, help);
    return definition.run(values, positionals, () => clientFor(io, values), io);
  };
}
