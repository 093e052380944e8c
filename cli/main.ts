/**
 * tooldrift's command line: `npx tooldrift <command>` (bin/tooldrift.mjs). Every command talks to a tooldrift
 * instance over its HTTP API (local `npm start` by default, or --url), authenticating with TOOLDRIFT_KEY or
 * --key. Progress goes to stderr, results to stdout; failures print the server's problem (or a clear
 * connection message) on stderr and exit non-zero.
 */
import { apiCommand } from './commands/api.ts';
import { draftCommand } from './commands/draft.ts';
import { evalCommand } from './commands/eval.ts';
import { evalsCommand } from './commands/evals.ts';
import { exploreCommand } from './commands/explore.ts';
import { exportCommand } from './commands/export.ts';
import { methodsCommand } from './commands/methods.ts';
import { retrieveCommand } from './commands/retrieve.ts';
import { schedulesCommand } from './commands/schedules.ts';
import { steCommand } from './commands/ste.ts';
import { streamCommand } from './commands/stream.ts';
import { type CliIO, printHelp } from './context.ts';
import { EXIT_FAILURE, EXIT_USAGE } from './http.ts';
import { CliError } from './problem.ts';

export const HELP = `tooldrift — evaluate and explore agents on a drifting-API world

Usage: tooldrift <command> [options]

Commands:
  eval                      run an evaluation suite, show progress, print the results and error taxonomy
  explore                   run ToolEvo tree searches (exploration) and report counts and success
  export sft|dpo|ste-sft    write training data (JSON Lines, every page) to a file: --out F
  evals list | show ID      past evaluations; one evaluation's tables
  methods                   the agent methods and aid slots this instance offers
  schedules create | list   evaluation suites run on a cron schedule
  ste run | status ID | exemplars   STE runs (simulated trial and error) and their exemplars
  draft run | status | docs DRAFT: documentation rewritten from exploring a drifted surface
  retrieve bench            rank tools for queries from your own JSON Lines files (local, no server)
  api import | list | show | drift | queries   your own APIs: import an OpenAPI document, drift it, add queries
  stream create | list | status ID | advance ID   drift streams: an API released again and again on a schedule

Every command takes --url (default $TOOLDRIFT_URL or http://localhost:8787), --key (default $TOOLDRIFT_KEY),
--json and --help. Run \`tooldrift <command> --help\` for its options.`;

const COMMANDS: Record<string, (args: string[], io: CliIO) => Promise<number>> = {
  eval: evalCommand,
  explore: exploreCommand,
  export: exportCommand,
  evals: evalsCommand,
  methods: methodsCommand,
  schedules: schedulesCommand,
  ste: steCommand,
  draft: draftCommand,
  retrieve: retrieveCommand,
  api: apiCommand,
  stream: streamCommand,
};

/** Runs one command line; returns the exit code. Never throws. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    return printHelp(io, HELP, command !== undefined);
  }
  const run = COMMANDS[command];
  if (!run) {
    io.stderr(`Unknown command ${JSON.stringify(command)}.\n\n${HELP}\n`);
    return EXIT_USAGE;
  }
  try {
    return await run(rest, io);
  } catch (err) {
    if (err instanceof CliError) {
      io.stderr(`${err.lines.join('\n')}\n`);
      return err.exitCode;
    }
    io.stderr(`Unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT_FAILURE;
  }
}
