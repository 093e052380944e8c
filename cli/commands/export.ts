/**
 * `tooldrift export sft|dpo|ste-sft --out FILE`: writes GET /v1/exports/{kind}.jsonl to a file page by page — an
 * export answers at most `limit` records per request and links the next page (`Link: rel="next"`), so the CLI
 * follows the links until there is none, streaming each page to the file (no page sits in memory) and drawing
 * progress against the export's size (`X-Total-Count`); reports the records written.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { CONNECTION_HELP, command } from '../context.ts';
import { EXIT_FAILURE, EXIT_USAGE } from '../http.ts';
import { CliError } from '../problem.ts';
import { Progress } from '../progress.ts';
import { flagValue } from '../suite.ts';

export const EXPORT_HELP = `Usage: tooldrift export sft|dpo|ste-sft --out FILE [filters] [--page-size N]

Writes training data as JSON Lines, following the export's pages to the end:
  sft       one chat record per successful trajectory selected for training (TRL SFTTrainer, LLaMA-Factory)
  dpo       preference pairs of sibling steps (TRL conversational preference format)
  ste-sft   two chat records per STE exemplar (the call, then the final answer)

  --out FILE          file to write (overwritten)
  --exploration ID    sft, dpo: only this exploration
  --dataset D         sft, dpo: only tasks of this dataset
  --selection RULE    sft: which successes of a task (at most 4) become records — repeat-free (default: none
                      that repeats a failed call), clean (those first, then repeating ones), uniform (the paper)
  --run ID            ste-sft: only this STE run
  --tool NAME         ste-sft: only this tool
  --surface S         only this server surface
  --page-size N       records asked for per request (default: the server's, 1000; at most 10000)

${CONNECTION_HELP}`;

const KINDS = ['sft', 'dpo', 'ste-sft'] as const;

/** The next page's URL from an RFC 8288 `Link` header (`<…>; rel="next"`), or null on the last page. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const m = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (m && /(^|;)\s*rel="?next"?\s*(;|$)/.test(m[2] as string)) return m[1] as string;
  }
  return null;
}

export const exportCommand = command({
  name: 'export',
  help: EXPORT_HELP,
  options: {
    out: { type: 'string', short: 'o' },
    exploration: { type: 'string' },
    surface: { type: 'string' },
    dataset: { type: 'string' },
    run: { type: 'string' },
    tool: { type: 'string' },
    selection: { type: 'string' },
    'page-size': { type: 'string' },
  },
  positionals: 'any',
  async run(values, positionals, connect, io) {
    const kind = positionals[0] as (typeof KINDS)[number];
    if (positionals.length !== 1 || !KINDS.includes(kind))
      throw new CliError(
        ['Say what to export: `tooldrift export sft --out FILE` (or dpo, ste-sft).'],
        EXIT_USAGE,
      );
    if (!values.out) throw new CliError(['--out FILE is required.'], EXIT_USAGE);
    if (values.selection !== undefined && kind !== 'sft')
      throw new CliError(['--selection applies to `tooldrift export sft` only.'], EXIT_USAGE);
    const filters =
      kind === 'ste-sft'
        ? { run: values.run, tool: values.tool, surface: values.surface }
        : {
            exploration: values.exploration,
            surface: values.surface,
            dataset: values.dataset,
            ...(kind === 'sft' ? { selection: values.selection } : {}),
          };
    const client = connect();
    const out = createWriteStream(values.out);
    const progress = new Progress({
      label: `export ${kind}`,
      unit: 'records',
      tty: io.stderrIsTTY,
      write: io.stderr,
      ...(io.now ? { now: io.now } : {}),
      ...(io.progressIntervalMs !== undefined ? { intervalMs: io.progressIntervalMs } : {}),
    });
    let records = 0;
    let bytes = 0;
    let total = 0;
    let pages = 0;
    try {
      let res: Response | null = await client.stream(`/v1/exports/${kind}.jsonl`, {
        ...filters,
        limit: values['page-size'] === undefined ? undefined : flagValue(values['page-size']),
      });
      while (res) {
        pages++;
        total = Number(res.headers.get('x-total-count') ?? total);
        const counted = await writePage(res, out, values.out, (lines, size) => {
          records += lines;
          bytes += size;
          progress.update(records, total);
        });
        if (!counted.endsWithNewline) {
          records++;
          bytes++;
          out.write('\n');
        }
        const next = nextLink(res.headers.get('link'));
        res = next ? await client.stream(next) : null;
      }
    } finally {
      progress.abort();
      await new Promise<void>((resolve) => out.end(resolve));
    }
    progress.finish(records, total);
    io.stderr(
      `Wrote ${records} ${kind} record${records === 1 ? '' : 's'} (${bytes} bytes, ${pages} page${pages === 1 ? '' : 's'}) to ${values.out}.\n`,
    );
    return 0;
  },
});

/** Streams one page's body into `out` (kept open for the next page), counting lines and bytes as they pass. */
async function writePage(
  res: Response,
  out: WriteStream,
  path: string,
  onChunk: (lines: number, bytes: number) => void,
): Promise<{ endsWithNewline: boolean }> {
  if (!res.body) throw new CliError(['An export page came back without a body.'], EXIT_FAILURE);
  let lastByte = 0x0a;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      let lines = 0;
      for (const b of chunk) if (b === 0x0a) lines++;
      if (chunk.length > 0) lastByte = chunk[chunk.length - 1] ?? lastByte;
      onChunk(lines, chunk.length);
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(res.body as unknown as NodeReadableStream<Uint8Array>), count, out, {
      end: false,
    });
  } catch (err) {
    throw new CliError([`Writing ${path} failed: ${(err as Error).message}`], EXIT_FAILURE);
  }
  return { endsWithNewline: lastByte === 0x0a };
}
