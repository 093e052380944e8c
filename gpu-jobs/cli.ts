/**
 * What every gpu-jobs command shares at its edges: running `main` when its file is the script Node started (the
 * exit code from `main`, a crash printed as `name: message` with exit code 1), and the one-line message of a
 * command-line or settings error (a zod settings error names each bad key).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ZodError } from 'zod';

/** Runs `main` with the process's arguments when `moduleUrl` (the caller's `import.meta.url`) is the started script. */
export function runIfScript(
  moduleUrl: string,
  name: string,
  main: (argv: string[]) => Promise<number>,
): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(resolve(process.argv[1])).href) return;
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

/** A usage or settings error as one line (`key.path: message; …` for settings). */
export function usageMessage(error: unknown): string {
  if (error instanceof ZodError)
    return error.issues.map((i) => `${i.path.join('.') || '(settings)'}: ${i.message}`).join('; ');
  return error instanceof Error ? error.message : String(error);
}
