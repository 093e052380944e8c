/**
 * The STE fine-tuning recipe (gpu-jobs/recipes/ste.ts, gpu-jobs/ste.ts): the paper's settings reach the rendered
 * configs (parsed back), each continual-learning round's training set is its own records plus Python's
 * round(10 %) of every earlier round's exemplars with both of their records (recounted from the written file),
 * round k starts from round k − 1's checkpoint, rounds download from the STE export with the key in the header
 * only, and bad command lines exit 2 naming the flag.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { steSftRecords } from '../../../core/ste/sft.ts';
import { globalBatchSize } from '../../../gpu-jobs/recipes/settings.ts';
import {
  STE_SETTINGS_INPUT,
  steLine,
  steRoundTrainingSet,
  steSettings,
} from '../../../gpu-jobs/recipes/ste.ts';
import { main, type SteRecipeManifest } from '../../../gpu-jobs/ste.ts';
import { checkSftRecord, type Io } from '../../../gpu-jobs/validate.ts';

const dir = mkdtempSync(join(tmpdir(), 'gpu-ste-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture(): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), err: (t) => stderr.push(t) };
}

/** A round's export as the STE route writes it: two records per exemplar with `meta.exemplarId`. */
function roundExport(round: string, exemplars: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < exemplars; i++) {
    const id = `run-${round}/Tool${round}/${i}.0`;
    const records = steSftRecords({
      id,
      tool: `Tool${round}`,
      query: `Round ${round} question number ${i}?`,
      action: `Tool${round}`,
      actionInput: `{"n": ${i}}`,
      observation: `result ${i}`,
      finalAnswer: `${i}`,
      episode: i,
      trial: 0,
    });
    for (const [s, r] of records.entries()) {
      lines.push(JSON.stringify({ ...r, meta: { exemplarId: id, sample: s === 0 ? 'call' : 'answer' } }));
    }
  }
  return lines;
}

const write = (name: string, lines: string[]) => {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => `${l}\n`).join(''));
  return path;
};

describe('STE fine-tuning settings', () => {
  it('are the paper’s: 1 epoch, global batch 64, lr 2e-5, warm-up 0.03, 2,048 tokens, full fine-tuning', () => {
    const s = steSettings();
    expect(s).toMatchObject({
      epochs: 1,
      learningRate: 2e-5,
      warmupRatio: 0.03,
      scheduler: 'cosine',
      maxLength: 2048,
      finetuning: 'full',
      baseModel: 'meta-llama/Llama-2-7b-chat-hf',
    });
    // The authors' run_ft_CL.sh: 4 GPUs × micro-batch 1 × 16 accumulation.
    expect(globalBatchSize(s)).toBe(64);
    expect(steSettings({ epochs: 2 }).epochs).toBe(2);
    expect(() => steSettings({ epoch: 2 } as never)).toThrow();
    expect(STE_SETTINGS_INPUT.maxLength).toBe(2048);
  });
});

describe('continual-learning rounds', () => {
  const r1 = roundExport('1', 25).map(steLine);
  const r2 = roundExport('2', 35).map(steLine);
  const r3 = roundExport('3', 4).map(steLine);

  it('add Python’s round(0.1 × n) exemplars of every earlier round, both records of each', () => {
    const set = steRoundTrainingSet([r1, r2, r3], 3, { replay: true, general: ['{"general": 1}'] });
    // round(2.5) = 2 of round 1 (25 exemplars), round(3.5) = 4 of round 2 (35 exemplars).
    expect(set.replayed).toEqual([
      { round: 1, exemplars: 2, records: 4 },
      { round: 2, exemplars: 4, records: 8 },
    ]);
    expect(set.own).toEqual({ exemplars: 4, records: 8 });
    expect(set.lines).toHaveLength(8 + 4 + 8 + 1);
    expect(set.lines.slice(0, 8)).toEqual(r3.map((l) => l.text));
    // Recount from the lines: every replayed exemplar brings its call and its answer.
    const replayed = set.lines
      .slice(8, 20)
      .map((l) => JSON.parse(l) as { meta: { exemplarId: string; sample: string } });
    const byExemplar = new Map<string, string[]>();
    for (const r of replayed)
      byExemplar.set(r.meta.exemplarId, [...(byExemplar.get(r.meta.exemplarId) ?? []), r.meta.sample]);
    expect([...byExemplar.values()].every((s) => s.join() === 'call,answer')).toBe(true);
    expect([...byExemplar.keys()].filter((k) => k.startsWith('run-1/'))).toHaveLength(2);
    // Seeded by the round: the same sample every time.
    expect(steRoundTrainingSet([r1, r2, r3], 3, { replay: true }).lines).toEqual(set.lines.slice(0, -1));
    // Without rehearsal (the paper's "without replay" rows): the round's own records only.
    expect(steRoundTrainingSet([r1, r2, r3], 3, { replay: false }).lines).toEqual(r3.map((l) => l.text));
    expect(steRoundTrainingSet([r1], 1, { replay: true }).replayed).toEqual([]);
  });

  it('writes one folder per round whose model starts from the previous round’s checkpoint', async () => {
    const out = join(dir, 'cl');
    const io = capture();
    const code = await main(
      [
        '--out',
        out,
        '--round',
        write('r1.jsonl', roundExport('1', 25)),
        '--round',
        write('r2.jsonl', roundExport('2', 35)),
        '--round',
        write('r3.jsonl', roundExport('3', 4)),
      ],
      io,
    );
    expect(io.stderr).toEqual([]);
    expect(code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as SteRecipeManifest;
    expect(
      manifest.rounds.map((r) => [r.own.exemplars, r.replayed.map((x) => x.exemplars), r.validation.valid]),
    ).toEqual([
      [25, [], 50],
      [35, [2], 74],
      [4, [2, 4], 20],
    ]);
    const sft = readFileSync(join(out, 'round-3', 'sft.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(sft).toHaveLength(20);
    for (const l of sft) expect(checkSftRecord(JSON.parse(l)).problems).toEqual([]);
    const yaml1 = parse(readFileSync(join(out, 'round-1', 'llamafactory', 'sft.yaml'), 'utf8')) as Record<
      string,
      unknown
    >;
    const yaml2 = parse(readFileSync(join(out, 'round-2', 'llamafactory', 'sft.yaml'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(yaml1).toMatchObject({
      model_name_or_path: 'meta-llama/Llama-2-7b-chat-hf',
      template: 'llama2',
      num_train_epochs: 1,
      learning_rate: 2e-5,
      warmup_ratio: 0.03,
      cutoff_len: 2048,
      per_device_train_batch_size: 1,
      gradient_accumulation_steps: 16,
      dataset: 'tooldrift_sft',
    });
    expect(yaml2.model_name_or_path).toBe('../round-1/checkpoints/llamafactory-sft-full');
    const trl3 = JSON.parse(readFileSync(join(out, 'round-3', 'trl', 'sft.json'), 'utf8')) as {
      model_name_or_path: string;
      args: Record<string, unknown>;
    };
    expect(trl3.model_name_or_path).toBe('../round-2/checkpoints/llamafactory-sft-full');
    expect(trl3.args).toMatchObject({ num_train_epochs: 1, max_length: 2048, learning_rate: 2e-5 });
    expect(readFileSync(join(out, 'train.sh'), 'utf8')).toContain(
      '(cd round-1 && FORCE_TORCHRUN=1 llamafactory-cli train llamafactory/sft.yaml)\n(cd round-2',
    );
    expect(io.stdout[0]).toBe(
      'round-1: 25 exemplars (50 records); starts from meta-llama/Llama-2-7b-chat-hf',
    );
  });

  it('downloads rounds from the STE export with the key in the Authorization header only', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    const fake: typeof fetch = async (input, init) => {
      const url = String(input);
      const auth = new Headers(init?.headers).get('authorization');
      seen.push({ url, auth });
      if (auth !== 'Bearer k-123')
        return new Response('{"title": "Unauthorized"}', {
          status: 401,
          headers: { 'content-type': 'application/problem+json' },
        });
      const run = new URL(url).searchParams.get('run') as string;
      return new Response(`${roundExport(run, 3).join('\n')}\n`);
    };
    const out = join(dir, 'download');
    const io = capture();
    const code = await main(
      ['--out', out, '--url', 'http://user:pw@localhost:8787/', '--key', 'k-123', '--run', '7', '--run', '8'],
      io,
      fake,
    );
    expect(code).toBe(0);
    expect(seen.map((s) => s.url)).toEqual([
      'http://localhost:8787/v1/exports/ste-sft.jsonl?run=7&documentation=none',
      'http://localhost:8787/v1/exports/ste-sft.jsonl?run=8&documentation=none',
    ]);
    const manifestText = readFileSync(join(out, 'manifest.json'), 'utf8');
    expect(manifestText).not.toContain('k-123');
    expect(manifestText).not.toContain('pw@');
    expect(io.stdout.join('\n')).not.toContain('k-123');
    expect((JSON.parse(manifestText) as SteRecipeManifest).rounds[1]?.replayed).toEqual([
      { round: 1, exemplars: 0, records: 0 },
    ]);

    const refused = capture();
    expect(
      await main(
        ['--out', out, '--url', 'http://localhost:8787', '--key', 'wrong', '--run', '7'],
        refused,
        fake,
      ),
    ).toBe(3);
    expect(refused.stderr[0]).toMatch(/HTTP 401 — Unauthorized/);
  });

  it('answers a bad command line with exit 2 and the reason', async () => {
    const cases: [string[], RegExp][] = [
      [['--round', 'x.jsonl'], /--out DIR is required/],
      [['--out', dir, '--run', '1', '--round', 'x'], /not both/],
      [['--out', dir, '--run', '1'], /--run needs --url/],
      [['--out', dir, '--round', 'x', '--trainer', 'deepspeed'], /--trainer must be/],
      [['--out', dir, '--round', 'x', '--documentation', 'all'], /--documentation must be/],
      [['--out', dir, '--round', 'x', '--replay-fraction', '2'], /at most 1/],
      [['--out', dir, '--round', 'x', '--epochs', '0'], /--epochs must be a positive/],
      [['--out', dir, '--round', 'x', '--bogus'], /Unknown option/],
    ];
    for (const [argv, message] of cases) {
      const io = capture();
      expect(await main(argv, io)).toBe(2);
      expect(io.stderr[0]).toMatch(message);
    }
    const lora = join(dir, 'lora.json');
    writeFileSync(lora, JSON.stringify({ finetuning: 'lora' }));
    const r = write('r.jsonl', roundExport('1', 2));
    const io = capture();
    expect(await main(['--out', join(dir, 'lora'), '--settings', lora, '--round', r, '--round', r], io)).toBe(
      2,
    );
    expect(io.stderr[0]).toMatch(/use finetuning full/);
  });
});
