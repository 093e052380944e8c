/**
 * Downloads the training exports of a tooldrift deployment into a run folder, validates them, and writes a
 * manifest:
 *
 *   npx tsx gpu-jobs/export.ts --url http://localhost:8787 --key dev-user-key --out runs/x
 *     [--exploration ID] [--surface S] [--dataset D] [--max-length 1024]
 *
 * Files: `sft.jsonl`, `dpo.jsonl` (every page of the export, following its `Link: rel="next"` headers, streamed to
 * disk as served through a `.part` file renamed on success, never held in memory) and `manifest.json` (per file:
 * source URL, bytes, sha256, pages, the size the server reported (`X-Total-Count`), validation summary; the filters; the
 * time; the token estimator; for sft.jsonl, per record its steps, deprecation errors met and repeated calls). The key goes only into the Authorization header: it is never printed, never in a
 * URL, never in the manifest.
 *
 * Exit codes: 0 exported and valid (over-length and duplicate warnings allowed), 1 exported but with defective
 * lines (see the report), 2 usage error, 3 the server refused or could not be reached (problem+json `title` and
 * `detail` are shown).
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  formatSummary,
  type Io,
  JsonlValidator,
  PROCESS_IO,
  parseMaxLength,
  type RecordKind,
  type ReportSummary,
  summarizeReport,
  TOKEN_ESTIMATOR,
  UsageError,
} from './validate.ts';

export interface ExportFilters {
  exploration?: string;
  surface?: string;
  dataset?: string;
}

export interface ExportOptions {
  baseUrl: string;
  key: string;
  outDir: string;
  filters?: ExportFilters;
  maxLength?: number;
  /** Clock for the manifest (tests pin it). */
  now?: () => Date;
  fetch?: typeof fetch;
}

/** What the SFT export reports per record (`meta.selection`, core/search/trajectories.ts `trajectoryStats`). */
export interface RecordSelection {
  /** 1-based line of the record in the file. */
  line: number;
  trajectoryId: string | null;
  steps: number;
  deprecationErrors: number;
  repeats: number;
}

/** The selection stats of one export line, or null when the line does not carry them. */
export function recordSelection(line: string, lineNo: number): RecordSelection | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  const meta = (value as { meta?: { trajectoryId?: unknown; selection?: Record<string, unknown> } } | null)
    ?.meta;
  const sel = meta?.selection;
  if (!sel || typeof sel.steps !== 'number') return null;
  return {
    line: lineNo,
    trajectoryId: typeof meta.trajectoryId === 'string' ? meta.trajectoryId : null,
    steps: sel.steps,
    deprecationErrors: Number(sel.deprecationErrors ?? 0),
    repeats: Number(sel.repeats ?? 0),
  };
}

export interface ExportedFile {
  path: string;
  /** The URL fetched (the base URL without credentials, plus the filters). */
  url: string;
  bytes: number;
  sha256: string;
  records: number;
  /** Pages the export was served in (each answer holds at most the server's page size). */
  pages: number;
  /** The export's size in lines as the server reported it (`X-Total-Count` of its first page). */
  reportedRecords: number | null;
  validation: ReportSummary;
  /** SFT only: per record, its steps, the deprecation errors it met and the calls it repeated after an error. */
  selection?: RecordSelection[];
}

export interface Manifest {
  tool: 'tooldrift gpu-jobs/export.ts';
  createdAt: string;
  source: { baseUrl: string; filters: ExportFilters };
  tokenEstimator: string;
  files: Record<RecordKind, ExportedFile>;
}

/** A refused or failed request, with what the server said (problem+json title/detail when given). */
export class ExportHttpError extends Error {}

const FILES: readonly RecordKind[] = ['sft', 'dpo'];

/** The base URL as it may be stored: no credentials, no query, no trailing slash. */
export function publicBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--url is not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--url must be http(s): ${raw}`);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

export function exportUrl(baseUrl: string, kind: RecordKind, filters: ExportFilters): string {
  const url = new URL(`${baseUrl}/v1/exports/${kind}.jsonl`);
  for (const name of ['exploration', 'surface', 'dataset'] as const) {
    const v = filters[name];
    if (v !== undefined && v !== '') url.searchParams.set(name, v);
  }
  return url.toString();
}

/** A one-line explanation of a non-2xx answer (problem+json aware; the body is cut to 300 characters). */
export async function describeFailure(response: Response, url: string): Promise<string> {
  const text = await response.text().catch(() => '');
  const type = response.headers.get('content-type') ?? '';
  let said = text.slice(0, 300).trim();
  if (type.includes('json')) {
    try {
      const problem = JSON.parse(text) as { title?: unknown; detail?: unknown };
      const parts = [problem.title, problem.detail].filter(
        (p): p is string => typeof p === 'string' && p !== '',
      );
      if (parts.length > 0) said = parts.join(': ');
    } catch {
      // not JSON after all: keep the raw text
    }
  }
  const hint =
    response.status === 401 || response.status === 403 ? ' (check --key: a user key of this deployment)' : '';
  return `GET ${url} failed: HTTP ${response.status}${said ? ` — ${said}` : ''}${hint}`;
}

/** The next page's URL from an RFC 8288 `Link` header, resolved against `base`; null on the last page. */
export function nextPageUrl(link: string | null, base: string): string | null {
  for (const part of (link ?? '').split(',')) {
    const m = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (m && /(^|;)\s*rel="?next"?\s*(;|$)/.test(m[2] as string))
      return new URL(m[1] as string, base).toString();
  }
  return null;
}

async function fetchPage(url: string, options: ExportOptions): Promise<Response> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, {
      headers: { authorization: `Bearer ${options.key}`, accept: 'application/x-ndjson' },
    });
  } catch (error) {
    const cause =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : '';
    throw new ExportHttpError(`GET ${url} failed: cannot reach the server${cause ? ` (${cause})` : ''}`);
  }
  if (!response.ok) throw new ExportHttpError(await describeFailure(response, url));
  if (!response.body) throw new ExportHttpError(`GET ${url}: empty response body`);
  return response;
}

async function download(
  kind: RecordKind,
  url: string,
  options: ExportOptions,
): Promise<{
  bytes: number;
  sha256: string;
  pages: number;
  reported: number | null;
  validator: JsonlValidator;
  selection: RecordSelection[];
}> {
  let response = await fetchPage(url, options);
  const header = response.headers.get('x-total-count');
  const reported = header === null ? null : Number(header);
  let pages = 0;

  const target = join(options.outDir, `${kind}.jsonl`);
  const part = `${target}.part`;
  const file = createWriteStream(part);
  const hash = createHash('sha256');
  const validator = new JsonlValidator(kind, { maxLength: options.maxLength });
  const decoder = new TextDecoder();
  let rest = '';
  let bytes = 0;
  let lineNo = 0;
  const selection: RecordSelection[] = [];
  const observe = (line: string) => {
    lineNo++;
    if (kind !== 'sft') return;
    const sel = recordSelection(line, lineNo);
    if (sel) selection.push(sel);
  };
  let pageUrl = url;
  try {
    for (;;) {
      pages++;
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        hash.update(value);
        if (!file.write(value)) await new Promise<void>((r) => file.once('drain', () => r()));
        rest += decoder.decode(value, { stream: true });
        let nl = rest.indexOf('\n');
        while (nl >= 0) {
          const line = rest.slice(0, nl);
          const text = line.endsWith('\r') ? line.slice(0, -1) : line;
          validator.line(text);
          observe(text);
          rest = rest.slice(nl + 1);
          nl = rest.indexOf('\n');
        }
      }
      const next = nextPageUrl(response.headers.get('link'), pageUrl);
      if (next === null) break;
      pageUrl = next;
      response = await fetchPage(next, options);
    }
    rest += decoder.decode();
    if (rest !== '') {
      validator.line(rest, false);
      observe(rest);
    }
    await new Promise<void>((res, rej) => file.end((e?: Error | null) => (e ? rej(e) : res())));
  } catch (error) {
    file.destroy();
    rmSync(part, { force: true });
    if (error instanceof ExportHttpError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw new ExportHttpError(`GET ${pageUrl}: the download broke off: ${why}`);
  }
  renameSync(part, target);
  return { bytes, sha256: hash.digest('hex'), pages, reported, validator, selection };
}

/** Downloads both exports into `outDir` and writes manifest.json; throws ExportHttpError on a refused request. */
export async function exportRun(options: ExportOptions): Promise<Manifest> {
  const baseUrl = publicBaseUrl(options.baseUrl);
  const filters: ExportFilters = {};
  for (const name of ['exploration', 'surface', 'dataset'] as const) {
    const v = options.filters?.[name];
    if (v !== undefined && v !== '') filters[name] = v;
  }
  mkdirSync(options.outDir, { recursive: true });
  const files = {} as Record<RecordKind, ExportedFile>;
  for (const kind of FILES) {
    const url = exportUrl(baseUrl, kind, filters);
    const { bytes, sha256, pages, reported, validator, selection } = await download(kind, url, options);
    const report = validator.report();
    files[kind] = {
      path: `${kind}.jsonl`,
      url,
      bytes,
      sha256,
      records: report.valid,
      pages,
      reportedRecords: reported,
      validation: summarizeReport(report),
      ...(kind === 'sft' ? { selection } : {}),
    };
  }
  const manifest: Manifest = {
    tool: 'tooldrift gpu-jobs/export.ts',
    createdAt: (options.now ?? (() => new Date()))().toISOString(),
    source: { baseUrl, filters },
    tokenEstimator: TOKEN_ESTIMATOR,
    files,
  };
  writeFileSync(join(options.outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

function parseExportArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      out: { type: 'string' },
      exploration: { type: 'string' },
      surface: { type: 'string' },
      dataset: { type: 'string' },
      'max-length': { type: 'string' },
    },
    strict: true,
  });
}

const USAGE =
  'usage: npx tsx gpu-jobs/export.ts --url URL [--key KEY | env TOOLDRIFT_KEY] --out DIR [--exploration ID] [--surface S] [--dataset D] [--max-length N]';

export async function main(argv: string[], io: Io = PROCESS_IO, fetchImpl?: typeof fetch): Promise<number> {
  let options: ExportOptions;
  try {
    const { values } = parseExportArgs(argv);
    // The key may come from the environment (as for the CLI), which keeps it out of shell history.
    const key = values.key ?? process.env.TOOLDRIFT_KEY;
    if (!values.url || !key || !values.out)
      throw new UsageError('--url, --key (or TOOLDRIFT_KEY) and --out are required');
    options = {
      baseUrl: values.url,
      key,
      outDir: values.out,
      maxLength: parseMaxLength(values['max-length']),
      filters: {
        ...(values.exploration !== undefined ? { exploration: values.exploration } : {}),
        ...(values.surface !== undefined ? { surface: values.surface } : {}),
        ...(values.dataset !== undefined ? { dataset: values.dataset } : {}),
      },
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
    };
    publicBaseUrl(options.baseUrl);
  } catch (error) {
    io.err(`export: ${error instanceof Error ? error.message : String(error)}`);
    io.err(USAGE);
    return 2;
  }
  let manifest: Manifest;
  try {
    manifest = await exportRun(options);
  } catch (error) {
    if (error instanceof ExportHttpError) {
      io.err(`export: ${error.message}`);
      return 3;
    }
    throw error;
  }
  let defects = 0;
  for (const kind of FILES) {
    const f = manifest.files[kind];
    defects += f.validation.defects;
    io.out(`${join(options.outDir, f.path)}: ${f.bytes} bytes, sha256 ${f.sha256}`);
    io.out(formatSummary(f.path, f.validation));
  }
  io.out(`wrote ${join(options.outDir, 'manifest.json')}`);
  if (defects > 0)
    io.err(`export: ${defects} defective line(s); details: npx tsx gpu-jobs/validate.ts --sft … --dpo …`);
  return defects > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`export: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
