/**
 * `tooldrift api …`: imported APIs (issue 22) — import an OpenAPI document or function catalog from a file,
 * list and show them, drift one into a new surface, and add a query set from a file.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { CONNECTION_HELP, command, printResult, urlFlag } from '../context.ts';
import { EXIT_USAGE } from '../http.ts';
import { CliError } from '../problem.ts';
import { isoTime, renderTable } from '../table.ts';

export const API_HELP = `Usage:
  tooldrift api import FILE [--mode seeded|examples|proxy] [--upstream URL] [--seed S] [--title T] [--world-size N]
                                         import an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) or a
                                         function catalog (OpenAI-style tools, STE's API_descriptions.json,
                                         ToolBench tool files)
  tooldrift api list                     your imported APIs
  tooldrift api show ID                  one API: its operations, counts and warnings
  tooldrift api drift ID --kinds K1,K2 --seed S [--id SURFACE] [--title T]
                                         a drifted surface of the API (seeded; the same seed gives the same one)
  tooldrift api queries ID FILE [--name N] [--format restbench|draft|ste|toolalpaca|calls]
                                         add a query set (RestBench, DRAFT, STE or ToolAlpaca file)
  tooldrift api delete ID                delete an API with its query sets and surfaces

Drift kinds: rename-operation, rename-path, rename-params, merge-params, split-params, move-params,
retype-params, reshape-response, version-prefix, pagination, deprecate-operation.

${CONNECTION_HELP}`;

interface ApiSummary {
  id: string;
  title: string;
  version: string;
  format: string;
  source: string;
  mode: string;
  seed: string;
  counts: {
    operations: number;
    writes: number;
    parameters: number;
    withResponseSchema: number;
    paginated: number;
  };
  warningCount: number;
  createdAt: string;
}

interface ApiDetail extends ApiSummary {
  upstream: string | null;
  operations: {
    name: string;
    method?: string;
    path?: string;
    summary?: string;
    params: { name: string; required: boolean }[];
    paginated: boolean;
  }[];
  warnings: { pointer: string; operation?: string; message: string }[];
}

interface SurfaceSummary {
  id: string;
  api: string;
  title: string;
  description: string;
  tools: string[];
  retired: string[];
}

interface QuerySetView {
  id: string;
  api: string;
  name: string;
  format: string;
  items: number;
  warnings: { pointer: string; message: string }[];
}

export function apiListTable(items: ApiSummary[]): string {
  if (items.length === 0) return 'No imported APIs yet: tooldrift api import FILE\n';
  return renderTable({
    header: [
      ['id', 'title', 'source', 'mode', 'operations', 'writes', 'warnings', 'created'].map((text) => ({
        text,
      })),
    ],
    align: ['left', 'left', 'left', 'left', 'right', 'right', 'right', 'left'],
    rows: items.map((a) => [
      a.id,
      a.title,
      a.source,
      a.mode,
      String(a.counts.operations),
      String(a.counts.writes),
      String(a.warningCount),
      isoTime(a.createdAt),
    ]),
  });
}

/** The parameters of an operation in one cell: required ones starred, at most 60 characters. */
function paramsCell(params: { name: string; required: boolean }[]): string {
  const names = params.map((p) => (p.required ? `${p.name}*` : p.name));
  let text = '';
  for (const [i, n] of names.entries()) {
    const next = text === '' ? n : `${text}, ${n}`;
    if (next.length > 60) return `${text}, … (${names.length - i} more)`;
    text = next;
  }
  return text;
}

export function apiDetailText(api: ApiDetail, url = ''): string {
  const head = [
    `${api.title} (${api.id}) — ${api.source}, version ${api.version}`,
    `mode ${api.mode}${api.upstream ? ` → ${api.upstream}` : ''}, seed ${api.seed}`,
    `${api.counts.operations} operations (${api.counts.writes} writes, ${api.counts.paginated} paged), ${api.counts.parameters} parameters, ${api.counts.withResponseSchema} with a response schema`,
    '',
  ].join('\n');
  const ops = renderTable({
    header: [['operation', 'method', 'path', 'parameters', 'summary'].map((text) => ({ text }))],
    align: ['left', 'left', 'left', 'left', 'left'],
    rows: api.operations.map((o) => [
      o.name,
      o.method ?? '',
      o.path ?? '',
      paramsCell(o.params),
      (o.summary ?? '').slice(0, 60),
    ]),
  });
  const warnings =
    api.warningCount === 0
      ? ''
      : `\n${api.warningCount} warning(s)${api.warningCount > api.warnings.length ? ` (first ${api.warnings.length})` : ''}:\n${api.warnings
          .slice(0, 20)
          .map((w) => `  ${w.operation ?? w.pointer}: ${w.message}`)
          .join('\n')}\n`;
  const next = `\nNext: tooldrift api drift ${api.id} --kinds rename-path,rename-params --seed 7${url}\n`;
  return `${head}${ops}${warnings}${next}`;
}

function surfaceText(s: SurfaceSummary, url: string): string {
  return [
    `Surface ${s.id} of API ${s.api}: ${s.title}`,
    s.description,
    `${s.tools.length} tools; ${s.retired.length} retired names or routes`,
    `OpenAPI: GET /v1/surfaces/${s.id}/openapi.json · changes: GET /v1/surfaces/${s.id}/diff?against=${s.api}`,
    `Play it: POST /v1/sessions {"api": "${s.api}", "surface": "${s.id}"}${url ? ` (${url.trim()})` : ''}`,
    '',
  ].join('\n');
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError([`Cannot read ${path}: ${(err as Error).message}`], EXIT_USAGE);
  }
}

export const apiCommand = command({
  name: 'api',
  help: API_HELP,
  options: {
    mode: { type: 'string' },
    upstream: { type: 'string' },
    seed: { type: 'string' },
    title: { type: 'string' },
    'world-size': { type: 'string' },
    kinds: { type: 'string' },
    id: { type: 'string' },
    name: { type: 'string' },
    format: { type: 'string' },
  },
  positionals: 'subcommand',
  async run(values, positionals, connect, io) {
    const [action, first, second, ...rest] = positionals;
    const url = urlFlag(values);
    if (action === 'import' && first !== undefined && second === undefined) {
      const text = await readText(first);
      const body: Record<string, unknown> = { document: text, filename: basename(first) };
      if (values.mode !== undefined) body.mode = values.mode;
      if (values.upstream !== undefined) body.upstream = values.upstream;
      if (values.seed !== undefined) body.seed = values.seed;
      if (values.title !== undefined) body.title = values.title;
      if (values['world-size'] !== undefined) body.worldSize = Number(values['world-size']);
      const api = await connect().post<ApiDetail>('/v1/apis', body);
      printResult(io, values, api, (a) => apiDetailText(a, url));
      return 0;
    }
    if (action === 'list' && first === undefined) {
      const page = await connect().get<{ items: ApiSummary[]; nextCursor: string | null }>('/v1/apis', {
        limit: 100,
      });
      printResult(io, values, page, (p) => apiListTable(p.items));
      return 0;
    }
    if (action === 'show' && first !== undefined && second === undefined) {
      const api = await connect().get<ApiDetail>(`/v1/apis/${encodeURIComponent(first)}`);
      printResult(io, values, api, (a) => apiDetailText(a, url));
      return 0;
    }
    if (action === 'drift' && first !== undefined && second === undefined) {
      if (values.kinds === undefined || values.seed === undefined) {
        throw new CliError(
          ['api drift needs --kinds K1,K2 and --seed S.', 'Run `tooldrift api --help` for the kinds.'],
          EXIT_USAGE,
        );
      }
      const body: Record<string, unknown> = {
        seed: values.seed,
        kinds: values.kinds
          .split(',')
          .map((k) => k.trim())
          .filter((k) => k !== ''),
      };
      if (values.id !== undefined) body.id = values.id;
      if (values.title !== undefined) body.title = values.title;
      const surface = await connect().post<SurfaceSummary>(
        `/v1/apis/${encodeURIComponent(first)}/surfaces`,
        body,
      );
      printResult(io, values, surface, (s) => surfaceText(s, url));
      return 0;
    }
    if (action === 'queries' && first !== undefined && second !== undefined && rest.length === 0) {
      let items: unknown;
      try {
        items = JSON.parse(await readText(second));
      } catch (err) {
        if (err instanceof CliError) throw err;
        throw new CliError([`${second} is not JSON: ${(err as Error).message}`], EXIT_USAGE);
      }
      const body: Record<string, unknown> = { items, name: values.name ?? basename(second) };
      if (values.format !== undefined) body.format = values.format;
      const set = await connect().post<QuerySetView>(`/v1/apis/${encodeURIComponent(first)}/querysets`, body);
      printResult(
        io,
        values,
        set,
        (s) =>
          `Query set ${s.id} (${s.name}): ${s.items} queries, format ${s.format}${s.warnings.length > 0 ? `, ${s.warnings.length} warning(s):\n${s.warnings.map((w) => `  ${w.pointer}: ${w.message}`).join('\n')}` : ''}\nPlay one: POST /v1/sessions {"api": "${s.api}", "queryset": "${s.id}", "item": 0}\n`,
      );
      return 0;
    }
    if (action === 'delete' && first !== undefined && second === undefined) {
      await connect().delete(`/v1/apis/${encodeURIComponent(first)}`);
      printResult(io, values, { deleted: first }, () => `Deleted API ${first}.\n`);
      return 0;
    }
    throw new CliError(
      [
        'Usage: tooldrift api import FILE | list | show ID | drift ID --kinds … --seed … | queries ID FILE | delete ID',
        'Run `tooldrift api --help` for the options.',
      ],
      EXIT_USAGE,
    );
  },
});
