#!/usr/bin/env node
// The `tooldrift` command (package.json "bin"): loads the TypeScript CLI in cli/ through tsx's loader API, so it
// runs from a checkout without a build step, on Node 20 and 22.
import { register } from 'tsx/esm/api';

register();
// Ctrl-C while waiting: end the progress line and say that the server keeps the run going.
process.once('SIGINT', () => {
  process.stderr.write(
    '\nInterrupted. A run already started keeps going on the server (tooldrift evals list).\n',
  );
  process.exit(130);
});
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: process.stderr.isTTY === true,
  env: process.env,
});
