/**
 * Copies Swagger UI (the `swagger-ui-dist` package) into the Worker's static assets (public/docs/vendor), so
 * `/docs` renders the API reference without any CDN. Run by `npm start`, `npm run build`, `npm run deploy` and
 * the e2e instance; the copied files are build output (git-ignored). Copies only when a file changed.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Files /docs loads, plus the licences that must travel with them. */
const FILES = [
  'swagger-ui-bundle.js',
  'swagger-ui-bundle.js.LICENSE.txt',
  'swagger-ui.css',
  'LICENSE',
  'NOTICE',
];

export function copyDocsAssets(target = join(root, 'public', 'docs', 'vendor')): string[] {
  const pkg = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
  const source = dirname(pkg);
  mkdirSync(target, { recursive: true });
  const copied: string[] = [];
  for (const name of FILES) {
    const from = join(source, name);
    const to = join(target, name);
    if (!existsSync(from)) continue;
    if (existsSync(to) && readFileSync(to).equals(readFileSync(from))) continue;
    copyFileSync(from, to);
    copied.push(name);
  }
  return copied;
}
