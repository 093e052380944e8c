/**
 * Importing an API (issue 22 §2): a document (OpenAPI 3.0/3.1 as JSON or YAML, Swagger 2.0, or a function
 * catalog) becomes an operation catalog (`core/apis/import/`), stored with how its mock answers. Nothing is
 * stored for a bad document: the error names the JSON pointer of its first problem and the reason.
 *
 * Ids are a slug of the title and 8 random hex digits (`tmdb-3fa2c1d0`); an API's id is also the id of its base
 * surface, so it is kept apart from every surface id.
 */
import { importApi } from '../core/apis/import/index.ts';
import type { MockMode } from '../core/apis/types.ts';
import { allowedOrigins, upstreamRule } from './apis.ts';
import type { Bindings } from './env.ts';
import { InvalidInputError } from './errors.ts';
import { type ApiRecord, insertApi } from './stores/apis.ts';
import type { Owner } from './stores/owners.ts';
import { surfaceIdTaken } from './stores/surfaces.ts';

export interface ImportOptions {
  title?: string;
  mode: MockMode;
  seed: string;
  worldSize: number;
  upstream?: string;
}

export interface ImportRequest {
  /** The document's text, and where in the request it sits (`/document` in a JSON envelope, `` for a raw body). */
  text: string;
  at: string;
  contentType?: string;
  filename?: string;
  options: ImportOptions;
}

function slug(title: string): string {
  const s = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return s === '' ? 'api' : s;
}

function hex8(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Imports and stores an API; an InvalidInputError (400) naming where the document or an option is wrong. */
export async function importAndStore(env: Bindings, req: ImportRequest, owner: Owner): Promise<ApiRecord> {
  const { options } = req;
  if (options.mode === 'proxy') {
    if (!options.upstream) {
      throw new InvalidInputError('Proxy mode needs `upstream`, the base URL to forward to.', [
        { in: 'body', field: 'upstream', pointer: '/upstream', message: 'required in proxy mode' },
      ]);
    }
    if (!upstreamRule(env, options.upstream)) {
      const allowed = allowedOrigins(env);
      throw new InvalidInputError(
        `${new URL(options.upstream).origin} is not an upstream this deployment allows (API_PROXY_ORIGINS: ${allowed.join(', ') || 'none set'}).`,
        [{ in: 'body', field: 'upstream', pointer: '/upstream', message: 'not an allowed origin' }],
      );
    }
  } else if (options.upstream !== undefined) {
    throw new InvalidInputError('`upstream` is only used in proxy mode.', [
      { in: 'body', field: 'upstream', pointer: '/upstream', message: 'only with mode proxy' },
    ]);
  }
  const result = await importApi({
    text: req.text,
    ...(req.filename ? { filename: req.filename } : {}),
    ...(req.contentType ? { contentType: req.contentType } : {}),
    ...(options.title ? { title: options.title } : {}),
  });
  if (!result.ok) {
    const first = result.problems[0] as { pointer: string; reason: string };
    throw new InvalidInputError(
      `The document cannot be imported: ${first.reason}${first.pointer ? ` (at ${first.pointer})` : ''}.`,
      result.problems.slice(0, 20).map((p) => ({
        in: 'body',
        field: req.at === '' ? 'body' : req.at.slice(1),
        pointer: `${req.at}${p.pointer}`,
        message: p.reason,
      })),
    );
  }
  const { catalog, document } = result;
  if (options.mode === 'proxy' && catalog.format !== 'openapi') {
    throw new InvalidInputError(
      'Proxy mode needs an OpenAPI document: a function catalog has no HTTP shape to forward.',
      [{ in: 'body', field: 'mode', pointer: '/mode', message: 'proxy needs an OpenAPI document' }],
    );
  }
  const title = options.title ?? catalog.title;
  let id = `${slug(title)}-${hex8()}`;
  while (await surfaceIdTaken(env, id)) id = `${slug(title)}-${hex8()}`;
  return insertApi(
    env,
    {
      id,
      title,
      version: catalog.version,
      format: catalog.format,
      source: catalog.source,
      mode: options.mode,
      seed: options.seed,
      worldSize: options.worldSize,
      upstream: options.upstream ?? null,
      bytes: new TextEncoder().encode(req.text).byteLength,
      sha256: await sha256(req.text),
      createdAt: Date.now(),
    },
    { ...catalog, title },
    document,
    owner,
  );
}
