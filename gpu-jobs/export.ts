/**
 * Downloads the training exports of a tooldrift deployment into a run folder, validates them, and writes a
 * manifest:
 *
 *   npx tsx gpu-jobs/export.ts --url http://localhost:8787 --key dev-user-key --out runs/x
 *     [--exploration ID] [--surface S] [--dataset D] [--selection RULE] [--max-length N]
 *
 * The lengths are estimated against `--max-length`, by default the training recipe's max length
 * (recipes/settings.ts, 4096; validate.ts DEFAULT_MAX_LENGTH).
 *
 * Files: `sft.jsonl`, `dpo.jsonl` (every page of the export, following its `Link: rel="next"` headers, streamed to
 * disk as served through a `.part` file renamed on success, never held in memory) and `manifest.json` (per file:
 * source URL, bytes, sha256, pages, the size the server reported (`X-Total-Count`), validation summary; the
 * filters; the time; the token estimator; for sft.jsonl, per record its steps, deprecation errors met and repeated
 * calls, and `dropped`: what the selection rule (`--selection`, the export's `selection=`; default `repeat-free`)
 * left out of the successful trajectories the filters match — those that repeat a failed call, those over the 4
 * per task, and the tasks left without a record — counted against `GET /v1/trajectories?success=true`). The key
 * goes only into the Authorization header: it is never printed, never in a URL, never in the manifest.
 *
 * Exit codes: 0 exported and valid (over-length and duplicate warnings allowed), 1 exported but with defective
 * lines (see the report), 2 usage error, 3 the server refused or could not be reached (problem+json `title` and
 * `detail` are shown).
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type SelectionReport, selectionReport } from '../core/search/trajectories.ts';
import { runIfScript } from './cli.ts';
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
  /** The SFT selection rule (`selection=`); the server's default (`repeat-free`) when absent. */
  selection?: string;
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
  /** The selection rule the export applied (`meta.selection.rule`), null in older exports. */
  rule: string | null;
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
    rule: typeof sel.rule === 'string' ? sel.rule : null,
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
  /** SFT only: what the selection left out of the matching successes (core/search/trajectories.ts). */
  dropped?: SelectionReport & { rule: string };
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

export function exportUrl(
  baseUrl: string,
  kind: RecordKind,
  filters: ExportFilters,
  selection?: string,
): string {
  const url = new URL(`${baseUrl}/v1/exports/${kind}.jsonl`);
  for (const name of ['exploration', 'surface', 'dataset'] as const) {
    const v = filters[name];
    if (v !== undefined && v !== '') url.searchParams.set(name, v);
  }
  if (kind === 'sft' && selection !== undefined) url.searchParams.set('selection', selection);
  return url.toString();
}

/** GET with the key; a refused or unreachable request is an ExportHttpError naming the URL. */
async function authorizedGet(
  url: string,
  options: { key: string; fetch?: typeof fetch },
  accept = 'application/json',
): Promise<Response> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(url, { headers: { authorization: `Bearer ${options.key}`, accept } });
  } catch (error) {
    const cause =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : '';
    throw new ExportHttpError(`GET ${url} failed: cannot reach the server${cause ? ` (${cause})` : ''}`);
  }
  if (!response.ok) throw new ExportHttpError(await describeFailure(response, url));
  return response;
}

interface ListedTrajectory {
  id: string;
  explorationId: string;
  taskId: string;
  reward: number;
  repeats: number;
}

/**
 * What the SFT selection left out: every successful trajectory the filters match (GET /v1/trajectories, paged),
 * against the trajectories the export served.
 */
async function droppedBySelection(
  baseUrl: string,
  filters: ExportFilters,
  exported: ReadonlySet<string>,
  options: ExportOptions,
): Promise<SelectionReport> {
  const listed: ListedTrajectory[] = [];
  let cursor: string | null = null;
  do {
    const url = new URL(`${baseUrl}/v1/trajectories`);
    for (const name of ['exploration', 'surface', 'dataset'] as const) {
      const v = filters[name];
      if (v !== undefined && v !== '') url.searchParams.set(name, v);
    }
    url.searchParams.set('success', 'true');
    url.searchParams.set('limit', '100');
    if (cursor) url.searchParams.set('cursor', cursor);
    const page = (await (await authorizedGet(url.toString(), options)).json()) as {
      items: ListedTrajectory[];
      nextCursor: string | null;
    };
    listed.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return selectionReport(
    listed.map((t) => ({
      id: t.id,
      taskId: `${t.explorationId}\u0000${t.taskId}`,
      reward: t.reward,
      repeats: t.repeats,
    })),
    exported,
  );
}

/** A one-line explanation of a non-2xx answer (problem+json aware; the body is cut to 300 characters). */
async function describeFailure(response: Response, url: string): Promise<string> {
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

interface ExportRequest {
  key: string;
  fetch?: typeof fetch;
  /** Sees each page's answer (its headers: `X-Total-Count`, `Link`) as it is requested. */
  onPage?: (response: Response) => void;
}

async function fetchPage(url: string, options: ExportRequest): Promise<ReadableStream<Uint8Array>> {
  const response = await authorizedGet(url, options, 'application/x-ndjson');
  if (!response.body) throw new ExportHttpError(`GET ${url}: empty response body`);
  options.onPage?.(response);
  return response.body;
}

/**
 * The body of a JSON-lines export, every page of it as one stream: each page is requested with the key after the
 * one before ends, following its `Link: rel="next"` (the server answers at most `limit` records at a time). An
 * unreachable server, a refusal or an empty body throws ExportHttpError with a message naming the URL — for the
 * first page here, for a later one from the stream.
 */
export async function openExport(url: string, options: ExportRequest): Promise<ReadableStream<Uint8Array>> {
  let next: string | null = null;
  const first = await fetchPage(url, {
    ...options,
    onPage: (response) => {
      next = nextPageUrl(response.headers.get('link'), url);
      options.onPage?.(response);
    },
  });
  let reader = first.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        if (!done) {
          controller.enqueue(value);
          return;
        }
        const pageUrl: string | null = next;
        if (pageUrl === null) {
          controller.close();
          return;
        }
        const body = await fetchPage(pageUrl, {
          ...options,
          onPage: (response) => {
            next = nextPageUrl(response.headers.get('link'), pageUrl);
            options.onPage?.(response);
          },
        });
        reader = body.getReader();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
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
  let pages = 0;
  let reported: number | null = null;
  const body = await openExport(url, {
    ...options,
    onPage: (response) => {
      pages++;
      const header = response.headers.get('x-total-count');
      if (pages === 1 && header !== null) reported = Number(header);
    },
  });

  const target = join(options.outDir, `${kind}.jsonl`);
  const part = `${target}.part`;
  const file = createWriteStream(part);
  // A write that fails (disk full), or one still pending when a broken download destroys the stream, reports here
  // instead of as an uncaught stream error.
  let writeError: Error | null = null;
  file.on('error', (error) => {
    writeError ??= error;
  });
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
  try {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      hash.update(value);
      if (writeError) throw writeError;
      if (!file.write(value))
        await new Promise<void>((r) => {
          const done = () => {
            file.off('drain', done);
            file.off('error', done);
            r();
          };
          file.once('drain', done);
          file.once('error', done);
        });
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
    throw new ExportHttpError(
      `GET ${url}: the download broke off: ${why}${pages > 1 ? ` (in page ${pages})` : ''}`,
    );
  }
  renameSync(part, target);
  return { bytes, sha256: hash.digest('hex'), pages, reported, validator, selection };
}

/** The selection line of the export's summary. */
export function formatDropped(name: string, d: SelectionReport & { rule: string }): string {
  return (
    `${name}: selection ${d.rule} kept ${d.selected} of ${d.successes} successful trajectories of ${d.tasks} task(s); ` +
    `left out ${d.droppedRepeating} that repeat a failed call and ${d.droppedOverLimit} over 4 per task; ` +
    `${d.tasksWithoutRecord} task(s) without a record`
  );
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
    const url = exportUrl(baseUrl, kind, filters, options.selection);
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
    };
    if (kind === 'sft') {
      const exported = new Set(
        selection.map((s) => s.trajectoryId).filter((id): id is string => id !== null),
      );
      const dropped = await droppedBySelection(baseUrl, filters, exported, options);
      files.sft = {
        ...files.sft,
        selection,
        dropped: { rule: options.selection ?? 'repeat-free', ...dropped },
      };
    }
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
      selection: { type: 'string' },
      'max-length': { type: 'string' },
    },
    strict: true,
  });
}

const USAGE =
  'usage: npx tsx gpu-jobs/export.ts --url URL [--key KEY | env TOOLDRIFT_KEY] --out DIR [--exploration ID] [--surface S] [--dataset D] [--selection repeat-free|clean|uniform] [--max-length N]';

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
      ...(values.selection !== undefined ? { selection: values.selection } : {}),
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
    if (f.dropped) io.out(formatDropped(f.path, f.dropped));
  }
  io.out(`wrote ${join(options.outDir, 'manifest.json')}`);
  if (defects > 0)
    io.err(`export: ${defects} defective line(s); details: npx tsx gpu-jobs/validate.ts --sft … --dpo …`);
  return defects > 0 ? 1 : 0;
}

runIfScript(import.meta.url, 'export', (argv) => main(argv));
