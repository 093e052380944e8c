/**
 * `tooldrift export sft|dpo --out FILE`: streams GET /v1/exports/{sft,dpo}.jsonl to a file, chunk by chunk, so an
 * export of any size never sits in memory; reports the number of records written.
 */
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { CONNECTION_HELP, command } from '../context.ts';
import { EXIT_FAILURE, EXIT_USAGE } from '../http.ts';
import { CliError } from '../problem.ts';

export const EXPORT_HELP = `Usage: tooldrift export sft|dpo --out FILE [--exploration ID] [--surface S] [--dataset D]
       [--selection RULE]

Writes training data from finished explorations as JSON Lines:
  sft   one chat record per successful trajectory selected for training (TRL SFTTrainer, LLaMA-Factory)
  dpo   preference pairs of sibling steps (TRL conversational preference format)

  --out FILE          file to write (overwritten)
  --exploration ID    only this exploration
  --surface S         only trees run on this server surface
  --dataset D         only tasks of this dataset
  --selection RULE    sft: which successes of a task (at most 4) become records — repeat-free (default: none
                      that repeats a failed call), clean (those first, then repeating ones), uniform (the paper)

${CONNECTION_HELP}`;

const KINDS = ['sft', 'dpo'] as const;

export const exportCommand = command({
  name: 'export',
  help: EXPORT_HELP,
  options: {
    out: { type: 'string', short: 'o' },
    exploration: { type: 'string' },
    surface: { type: 'string' },
    dataset: { type: 'string' },
    selection: { type: 'string' },
  },
  positionals: 'any',
  async run(values, positionals, connect, io) {
    const kind = positionals[0];
    if (positionals.length !== 1 || !KINDS.includes(kind as (typeof KINDS)[number]))
      throw new CliError(
        ['Say what to export: `tooldrift export sft --out FILE` or `... dpo ...`.'],
        EXIT_USAGE,
      );
    if (!values.out) throw new CliError(['--out FILE is required.'], EXIT_USAGE);
    if (values.selection !== undefined && kind !== 'sft')
      throw new CliError(['--selection applies to `tooldrift export sft` only.'], EXIT_USAGE);
    const res = await connect().stream(`/v1/exports/${kind}.jsonl`, {
      exploration: values.exploration,
      surface: values.surface,
      dataset: values.dataset,
      selection: values.selection,
    });
    if (!res.body) throw new CliError([`The ${kind} export came back without a body.`], EXIT_FAILURE);
    let records = 0;
    let bytes = 0;
    let lastByte = 0x0a;
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        for (const b of chunk) if (b === 0x0a) records++;
        if (chunk.length > 0) lastByte = chunk[chunk.length - 1] ?? lastByte;
        done(null, chunk);
      },
    });
    try {
      await pipeline(
        Readable.fromWeb(res.body as unknown as NodeReadableStream<Uint8Array>),
        count,
        createWriteStream(values.out),
      );
    } catch (err) {
      throw new CliError([`Writing ${values.out} failed: ${(err as Error).message}`], EXIT_FAILURE);
    }
    if (lastByte !== 0x0a) records++;
    io.stderr(
      `Wrote ${records} ${kind} record${records === 1 ? '' : 's'} (${bytes} bytes) to ${values.out}.\n`,
    );
    return 0;
  },
});
