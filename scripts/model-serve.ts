/**
 * `npm run model:serve -- <file.gguf> [--port 8080] [--host 127.0.0.1] [--name NAME] [--ctx-size N] [--max-tokens N]
 *   [--threads 1]`
 *
 * Serves a GGUF model over an OpenAI-compatible API (scripts/model-server/) with node-llama-cpp on the CPU, so
 * tooldrift's `openai` provider — or any OpenAI client — can use a local model without Ollama or vLLM:
 *
 *   MODEL_PROVIDER=openai OPENAI_BASE_URL=http://127.0.0.1:8080/v1 MODEL_NAME=<name printed at start>
 *
 * The model name defaults to the file name without `.gguf`; `--max-tokens` is the completion length of requests
 * that set no `max_tokens` (default: until the context is full). Prints one line per request; Ctrl-C stops it.
 */
import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from './model-server/engine.ts';
import { createModelServer } from './model-server/server.ts';

const USAGE =
  'usage: npm run model:serve -- <file.gguf> [--port 8080] [--host 127.0.0.1] [--name NAME] [--ctx-size N] [--max-tokens N] [--threads 1] [--quiet]';

function fail(message: string): never {
  process.stderr.write(`model:serve: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function intOption(raw: string | undefined, name: string, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    fail(`--${name} must be an integer from ${min} to ${max}, got ${raw}`);
  return n;
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      name: { type: 'string' },
      'ctx-size': { type: 'string' },
      'max-tokens': { type: 'string' },
      threads: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
}
try {
  parsed = parse();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const { values, positionals } = parsed;
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (positionals.length !== 1) fail('give exactly one GGUF file');
const file = resolve(positionals[0] as string);
if (!existsSync(file)) fail(`no such file: ${file}`);
const port = intOption(values.port, 'port', 0, 65535) ?? 8080;
const host = values.host ?? '127.0.0.1';
const name = values.name ?? basename(file).replace(/\.gguf$/i, '');

const started = performance.now();
const engine = await Engine.load({
  modelPath: file,
  contextSize: intOption(values['ctx-size'], 'ctx-size', 64, 1 << 20),
  threads: intOption(values.threads, 'threads', 1, 256) ?? 1,
}).catch((error: unknown) =>
  fail(`cannot load ${file}: ${error instanceof Error ? error.message : String(error)}`),
);
const server = createModelServer({
  engine,
  modelName: name,
  defaultMaxTokens: intOption(values['max-tokens'], 'max-tokens', 1, 1 << 20),
  log: values.quiet ? undefined : (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
});
server.listen(port, host, () => {
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  const label = engine.metadata('general.description');
  process.stdout.write(
    `serving ${name} (${basename(file)}, context ${engine.contextSize} tokens, chat template: ${engine.chatWrapper.wrapperName}) ` +
      `on http://${host}:${actual}/v1 — loaded in ${Math.round(performance.now() - started)} ms\n` +
      (label ? `model: ${String(label)}\n` : ''),
  );
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    void engine.dispose().finally(() => process.exit(0));
  });
}
