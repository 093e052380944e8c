/**
 * `tooldrift retrieve bench` on a small fixture of the user-file contract (test/core/cli/fixtures/retrieval):
 * the table and --json outputs, training the cotools ranker, and the bad-file paths (line-numbered message,
 * exit code 2).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './harness.ts';

const dir = join(import.meta.dirname, 'fixtures', 'retrieval');
const f = (name: string) => join(dir, name);
const base = ['retrieve', 'bench', '--tools', f('tools.jsonl'), '--queries', f('test.jsonl')];

describe('tooldrift retrieve bench', () => {
  it('prints n, top-1, top-5 and NDCG per ranker as JSON', async () => {
    const { code, stdout, stderr } = await runCli([...base, '--rankers', 'bm25,char', '--json']);
    expect(code).toBe(0);
    // Progress goes to stderr, results alone to stdout.
    expect(stderr).toMatch(/bm25 test: 5\/5 queries 100%/);
    const out = JSON.parse(stdout);
    expect(Object.keys(out.rankers)).toEqual(['bm25', 'char']);
    // Four of the five queries share words with their tool; "tell me when the pasta is done" (set_timer) shares
    // none, so BM25 never ranks it, and char n-grams put it sixth (NDCG@10 = (4 + 1/log2 7) / 5).
    expect(out.rankers.bm25).toMatchObject({ n: 5, top1: 80, top5: 80, ndcg1: 80, ndcg5: 80, ndcg10: 80 });
    expect(out.rankers.char).toMatchObject({ n: 5, top1: 80, top5: 80 });
    expect(out.rankers.char.ndcg10).toBeCloseTo(((4 + 1 / Math.log2(7)) / 5) * 100, 1);
  });

  it('prints a table with a progress line per step, and trains cotools from --train', async () => {
    const { code, stdout, stderr } = await runCli([
      ...base,
      '--train',
      f('train.jsonl'),
      '--dev',
      f('train.jsonl'),
      '--encoder',
      'lexical',
      '--epochs',
      '2',
      '--intermediate',
      '16',
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ranker\s+n\s+top-1\s+top-5\s+NDCG@1\s+NDCG@5\s+NDCG@10/m);
    for (const id of ['bm25', 'char', 'dense', 'hybrid', 'cotools'])
      expect(stdout).toMatch(new RegExp(`^${id}\\s+5\\s`, 'm'));
    expect(stdout).toMatch(/cotools trained on 9 queries .* loss per epoch: [\d.]+, [\d.]+\./);
    expect(stdout).toMatch(/cotools dev \(9 queries\): top-1/);
    expect(stderr).toMatch(/train cotools: 2\/2 steps 100%/);
    expect(stderr).toMatch(/encode tools: 8\/8 tools/);
  });

  it('trains cotools with the paper preset when asked, and reports the resolved options', async () => {
    const { code, stdout } = await runCli([
      ...base,
      '--train',
      f('train.jsonl'),
      '--encoder',
      'lexical',
      '--rankers',
      'cotools',
      '--preset',
      'paper',
      '--epochs',
      '1',
      '--intermediate',
      '16',
      '--json',
    ]);
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    // The spec's values (lr 1e-4, 16 × 12 accumulation, no temperature, its tool text), one whole epoch: 9
    // queries are one batch, one optimiser step; no early stopping.
    expect(out.toolText).toBe('paper');
    expect(out.training.options).toMatchObject({
      preset: 'paper',
      epochs: 1,
      steps: 1,
      lr: 1e-4,
      batchSize: 16,
      accumulation: 12,
      scale: 1,
      patience: 0,
      intermediate: 16,
    });
    expect(out.training.steps).toEqual({ done: 1, budget: 1 });
    expect(out.training.stopping).toBeNull();
  });

  it('uses the lexical encoder by default, and the Universal Sentence Encoder with --encoder use', async () => {
    const lexical = await runCli([...base, '--rankers', 'dense', '--json']);
    expect(lexical.code).toBe(0);
    expect(JSON.parse(lexical.stdout).encoder).toBe('lexical/tooldrift-lexical-v1');
    const { code, stdout } = await runCli([...base, '--rankers', 'dense', '--encoder', 'use', '--json']);
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out.encoder).toBe('use/universal-sentence-encoder-lite');
    expect(out.rankers.dense.n).toBe(5);
    expect(out.rankers.dense.top5).toBeGreaterThanOrEqual(80);
  });

  it.each([
    ['bad-json.jsonl', '--tools', /bad-json\.jsonl:3: not valid JSON/],
    ['bad-schema.jsonl', '--tools', /bad-schema\.jsonl:2: name: /],
    ['duplicate.jsonl', '--tools', /duplicate\.jsonl:2: duplicate tool name "a" \(first on line 1\)/],
    ['unknown-tool.jsonl', '--queries', /unknown-tool\.jsonl:2: tool "playMusic" is not in the tool pool/],
    ['missing.jsonl', '--queries', /--queries .*missing\.jsonl: cannot read the file \(ENOENT\)/],
  ])('rejects %s (%s) with its line number and exit code 2', async (file, flag, message) => {
    const args =
      flag === '--tools'
        ? ['retrieve', 'bench', '--tools', f(file), '--queries', f('test.jsonl')]
        : ['retrieve', 'bench', '--tools', f('tools.jsonl'), '--queries', f(file)];
    const { code, stdout, stderr } = await runCli([...args, '--rankers', 'bm25']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
  });

  it('--skip-unknown skips and counts query lines naming a tool not in the pool (strict without it)', async () => {
    const args = ['retrieve', 'bench', '--tools', f('tools.jsonl'), '--queries', f('unknown-tool.jsonl')];
    const json = await runCli([...args, '--rankers', 'bm25', '--skip-unknown', '--json']);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout);
    expect(out.skipped).toEqual({ queries: [{ line: 2, tool: 'playMusic' }] });
    expect(out.rankers.bm25.n).toBe(1);
    const text = await runCli([...args, '--rankers', 'bm25', '--skip-unknown']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /--queries: skipped 1 line naming a tool not in the pool \(line 2: "playMusic"\)\./,
    );
    expect(text.stdout).toMatch(/^bm25\s+1\s/m);
    // Without the flag the file is still rejected (the rejection test above).
    expect((await runCli([...args, '--rankers', 'bm25'])).code).toBe(2);
  });

  it.each([
    [['--rankers', 'bm25,magic'], /unknown ranker "magic"/],
    [['--rankers', 'cotools'], /cotools ranker is trained: pass --train/],
    [['--encoder', 'bert'], /--encoder must be one of use, lexical/],
    [['--epochs', '0', '--rankers', 'bm25'], /--epochs must be a positive integer/],
    [['--preset', 'fast'], /--preset must be one of default, paper, got "fast"/],
    [['--tool-text', 'prose'], /--tool-text must be one of sentence, paper/],
    [['--fusion', 'rrf'], /--fusion must be one of none, char, got "rrf"/],
    [['--wdim-lr', '1.5'], /--wdim-lr must be a number from 0 up to \(not including\) 1/],
    [['--warmup', '1'], /--warmup must be a number from 0 up to \(not including\) 1/],
    [['--patience', '1.5'], /--patience must be a whole number ≥ 0/],
  ])('rejects bad options %j with exit code 2', async (extra, message) => {
    const { code, stderr } = await runCli([...base, ...extra]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('asks for the subcommand and the files', async () => {
    expect((await runCli(['retrieve'])).code).toBe(2);
    const missing = await runCli(['retrieve', 'bench', '--tools', f('tools.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--queries FILE are required/);
    const help = await runCli(['retrieve', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--encoder E/);
  });
});
