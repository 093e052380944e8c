/**
 * Config rendering from one settings object: the seed's values reach every rendered file (parsed back, not
 * grepped), the datasets LLaMA-Factory and TRL read are the exported files (DPO converted for LLaMA-Factory),
 * the vLLM command carries the flags the model layer needs, and the tooldrift variables are the ones
 * edge/env.ts reads. The Python scripts are syntax-checked and read the rendered configs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  datasetInfo,
  llamaFactoryDpo,
  llamaFactorySft,
  toLlamaFactoryDpo,
  toYaml,
  yamlFloatText,
} from '../../../gpu-jobs/recipes/llamafactory.ts';
import { globalBatchSize, resolveSettings, SEED_SETTINGS } from '../../../gpu-jobs/recipes/settings.ts';
import { trlDpo, trlSft } from '../../../gpu-jobs/recipes/trl.ts';
import { tooldriftEnv, vllmServeArgs, vllmServeCommand } from '../../../gpu-jobs/recipes/vllm.ts';
import { main, renderRun } from '../../../gpu-jobs/render.ts';
import { type Io, validateJsonl } from '../../../gpu-jobs/validate.ts';
import { exportFixture, jsonl } from './fixtures.ts';

const ROOT = resolve(__dirname, '../../..');
const PYTHON_DIR = join(ROOT, 'gpu-jobs', 'python');
const dir = mkdtempSync(join(tmpdir(), 'gpu-render-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const hasPython = python.status === 0;
const hasPyYaml = hasPython && spawnSync('python3', ['-c', 'import yaml'], { encoding: 'utf8' }).status === 0;

function capture(): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), err: (t) => stderr.push(t) };
}

async function runDirWithExports(name: string): Promise<string> {
  const { sftLines, dpoLines } = await exportFixture();
  const run = join(dir, name);
  mkdirSync(run, { recursive: true });
  writeFileSync(join(run, 'sft.jsonl'), jsonl(sftLines));
  writeFileSync(join(run, 'dpo.jsonl'), jsonl(dpoLines));
  return run;
}

const read = (run: string, rel: string) => readFileSync(join(run, rel), 'utf8');

describe('settings', () => {
  it("defaults are the paper's fine-tuning settings (base Llama-3-8B, global batch 512), max length 4096", () => {
    expect(SEED_SETTINGS).toMatchObject({
      baseModel: 'meta-llama/Meta-Llama-3-8B',
      finetuning: 'full',
      learningRate: 2e-5,
      scheduler: 'cosine',
      warmupRatio: 0.03,
      epochs: 8,
      maxLength: 4096,
      bf16: true,
    });
    expect(globalBatchSize(SEED_SETTINGS)).toBe(512);
  });

  it('rejects unknown keys and out-of-range values instead of ignoring them', () => {
    expect(() => resolveSettings({ learningrate: 1 } as never)).toThrow();
    expect(() => resolveSettings({ warmupRatio: 2 })).toThrow();
    expect(() => resolveSettings({ maxLength: 1024.5 })).toThrow();
    expect(() => resolveSettings({ serve: { servedModelName: 'has space' } })).toThrow();
    expect(resolveSettings({ maxLength: 4096, serve: { port: 9000 } })).toMatchObject({
      maxLength: 4096,
      learningRate: 2e-5,
      serve: { port: 9000, servedModelName: 'tooldrift-sft' },
    });
  });
});

describe('a rendered run folder', () => {
  it('holds LLaMA-Factory YAMLs with the seed values, reading the exported files', async () => {
    const run = await runDirWithExports('full');
    const result = await renderRun(run, SEED_SETTINGS);
    expect(result.files).toEqual([
      'settings.json',
      'dataset_info.json',
      'dpo.llamafactory.jsonl',
      'llamafactory/sft.yaml',
      'trl/sft.json',
      'llamafactory/dpo.yaml',
      'trl/dpo.json',
      'deepspeed/ds_zero3.json',
      'serve.sh',
      'tooldrift.env',
    ]);
    const sft = parse(read(run, 'llamafactory/sft.yaml'));
    expect(sft).toMatchObject({
      model_name_or_path: 'meta-llama/Meta-Llama-3-8B',
      stage: 'sft',
      finetuning_type: 'full',
      dataset: 'tooldrift_sft',
      dataset_dir: '.',
      template: 'llama3',
      cutoff_len: 4096,
      learning_rate: 2e-5,
      lr_scheduler_type: 'cosine',
      warmup_ratio: 0.03,
      num_train_epochs: 8,
      bf16: true,
      per_device_train_batch_size: 8,
      gradient_accumulation_steps: 8,
      deepspeed: 'deepspeed/ds_zero3.json',
      output_dir: 'checkpoints/llamafactory-sft-full',
    });
    expect(sft).not.toHaveProperty('lora_rank');
    expect(existsSync(join(run, sft.deepspeed))).toBe(true);
    expect(JSON.parse(read(run, sft.deepspeed)).zero_optimization).toMatchObject({
      stage: 3,
      stage3_gather_16bit_weights_on_model_save: true,
    });

    const info = JSON.parse(read(run, 'dataset_info.json'));
    expect(info.tooldrift_sft).toEqual({
      file_name: 'sft.jsonl',
      formatting: 'sharegpt',
      columns: { messages: 'messages' },
      tags: {
        role_tag: 'role',
        content_tag: 'content',
        user_tag: 'user',
        assistant_tag: 'assistant',
        system_tag: 'system',
      },
    });
    expect(info.tooldrift_dpo).toMatchObject({ file_name: 'dpo.llamafactory.jsonl', ranking: true });
    expect(existsSync(join(run, info.tooldrift_sft.file_name))).toBe(true);

    const dpo = parse(read(run, 'llamafactory/dpo.yaml'));
    expect(dpo).toMatchObject({
      model_name_or_path: 'checkpoints/llamafactory-sft-full',
      stage: 'dpo',
      dataset: 'tooldrift_dpo',
      pref_beta: 0.1,
      pref_loss: 'sigmoid',
      cutoff_len: 4096,
      lr_scheduler_type: 'cosine',
      warmup_ratio: 0.03,
    });
    // The default max length fits every SFT record (estimate); the paper's 1024 does not, and the render says so.
    expect(result.warnings.join('\n')).not.toContain('sft.jsonl');
    const short = await renderRun(run, resolveSettings({ maxLength: 1024 }));
    const { sftLines } = await exportFixture();
    expect(short.warnings.join('\n')).toContain(
      `sft.jsonl: ${sftLines.length} record(s) (100% of valid) estimated over max length 1024`,
    );
  });

  it('converts DPO pairs to the LLaMA-Factory layout without changing a message', async () => {
    const run = await runDirWithExports('dpo-convert');
    await renderRun(run, SEED_SETTINGS);
    const { dpoLines } = await exportFixture();
    const converted = read(run, 'dpo.llamafactory.jsonl')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(converted).toHaveLength(dpoLines.length);
    dpoLines.forEach((line, i) => {
      const original = JSON.parse(line);
      expect(converted[i]).toEqual({
        messages: original.prompt,
        chosen: original.chosen[0],
        rejected: original.rejected[0],
      });
      // sharegpt ranking: the prompt ends with the user turn (odd count after the system message is removed).
      expect(converted[i].messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    });
    expect(() => toLlamaFactoryDpo('{"prompt": [], "chosen": [], "rejected": []}\n')).toThrow(
      'one-message list',
    );
  });

  it('holds TRL configs with the seed values and the data files', async () => {
    const run = await runDirWithExports('trl');
    await renderRun(run, SEED_SETTINGS, { dropOverLength: true });
    const sft = JSON.parse(read(run, 'trl/sft.json'));
    expect(sft).toEqual({
      kind: 'sft',
      model_name_or_path: 'meta-llama/Meta-Llama-3-8B',
      adapter_name_or_path: null,
      train_file: 'sft.jsonl',
      lora: null,
      drop_over_length: true,
      args: {
        output_dir: 'checkpoints/trl-sft-full',
        lr_scheduler_type: 'cosine',
        warmup_ratio: 0.03,
        max_length: 4096,
        bf16: true,
        per_device_train_batch_size: 8,
        gradient_accumulation_steps: 8,
        gradient_checkpointing: true,
        logging_steps: 5,
        save_strategy: 'epoch',
        seed: 42,
        report_to: 'none',
        deepspeed: 'deepspeed/ds_zero3.json',
        learning_rate: 2e-5,
        num_train_epochs: 8,
        completion_only_loss: true,
        packing: false,
      },
    });
    const dpo = JSON.parse(read(run, 'trl/dpo.json'));
    expect(dpo).toMatchObject({
      kind: 'dpo',
      model_name_or_path: 'checkpoints/trl-sft-full',
      train_file: 'dpo.jsonl',
      args: {
        beta: 0.1,
        loss_type: 'sigmoid',
        max_length: 4096,
        max_prompt_length: 3840,
        max_completion_length: 256,
      },
    });
    expect(dpo.args.max_prompt_length + dpo.args.max_completion_length).toBe(dpo.args.max_length);
  });

  it('renders LoRA variants for both trainers and a vLLM command that serves the adapter', () => {
    const s = resolveSettings({ finetuning: 'lora', gpus: 1, deepspeed: 'none', maxLength: 4096 });
    const lf = llamaFactorySft(s);
    expect(lf).toMatchObject({ finetuning_type: 'lora', lora_rank: 64, lora_alpha: 128, lora_target: 'all' });
    expect(lf).not.toHaveProperty('deepspeed');
    expect(llamaFactoryDpo(s)).toMatchObject({
      model_name_or_path: s.baseModel,
      adapter_name_or_path: 'checkpoints/llamafactory-sft-lora',
    });
    expect(trlSft(s).lora).toEqual({
      r: 64,
      lora_alpha: 128,
      lora_dropout: 0.05,
      target_modules: 'all-linear',
      task_type: 'CAUSAL_LM',
    });
    expect(trlDpo(s)).toMatchObject({
      model_name_or_path: s.baseModel,
      adapter_name_or_path: 'checkpoints/trl-sft-lora',
      args: { max_prompt_length: 3840, max_completion_length: 256 },
    });
    const args = vllmServeArgs(s, 'trl', 'sft');
    expect(args.slice(0, 3)).toEqual(['vllm', 'serve', s.baseModel]);
    expect(args.join(' ')).toContain(
      '--enable-lora --lora-modules tooldrift-sft=checkpoints/trl-sft-lora --max-lora-rank 64',
    );
    expect(args).not.toContain('--served-model-name');
  });

  it('serves with the flags the model layer needs and points provider openai at it (edge/env.ts names)', async () => {
    const run = await runDirWithExports('serve');
    const s = resolveSettings({ serve: { servedModelName: 'td-8b', publicHost: 'gpu-box', port: 8001 } });
    await renderRun(run, s, { serve: { trainer: 'trl', stage: 'dpo' } });
    const serve = read(run, 'serve.sh');
    expect(serve).toContain(
      'exec vllm serve checkpoints/trl-dpo-full --served-model-name td-8b --host 0.0.0.0 --port 8001 --dtype bfloat16 ' +
        '--max-model-len 8192 --max-logprobs 5 --seed 0 --enable-prefix-caching --generation-config vllm --tensor-parallel-size 1',
    );
    const env = Object.fromEntries(
      read(run, 'tooldrift.env')
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('#'))
        .map((l) => l.split('=', 2) as [string, string]),
    );
    expect(env).toEqual({
      MODEL_PROVIDER: 'openai',
      OPENAI_BASE_URL: 'http://gpu-box:8001/v1',
      MODEL_NAME: 'td-8b',
    });
    expect(tooldriftEnv(s)).toEqual(env);
    // The variable names are the ones the Worker reads, and `openai` is a provider it accepts.
    const envSource = readFileSync(join(ROOT, 'edge', 'env.ts'), 'utf8');
    for (const name of Object.keys(env)) expect(envSource).toContain(`env.${name}`);
    expect(envSource).toMatch(/modelProvider: z\.enum\(\[[^\]]*'openai'/);
    expect(read(run, 'tooldrift.env')).toContain(
      '# Local: npm start -- --var MODEL_PROVIDER:openai --var OPENAI_BASE_URL:http://gpu-box:8001/v1 --var MODEL_NAME:td-8b',
    );
    expect(
      vllmServeCommand(resolveSettings({ baseModel: "it's mine", finetuning: 'lora' }), 'trl', 'sft'),
    ).toContain(`vllm serve 'it'\\''s mine' --enable-lora`);
  });

  it('YAML text round-trips through the yaml parser with its comment header', () => {
    const text = toYaml({ learning_rate: 2e-5, name: 'a: b', list: ['x'] }, ['line one', '', 'line two']);
    expect(text.startsWith('# line one\n#\n# line two\n')).toBe(true);
    expect(parse(text)).toEqual({ learning_rate: 2e-5, name: 'a: b', list: ['x'] });
    expect(datasetInfo({ dpo: false })).not.toHaveProperty('tooldrift_dpo');
  });

  it('writes floats so that YAML 1.1 readers (PyYAML) see floats too: 5e-7 → 5.0e-7', () => {
    expect(yamlFloatText(2e-5)).toBe('0.00002');
    expect(yamlFloatText(5e-7)).toBe('5.0e-7');
    expect(yamlFloatText(-3e-8)).toBe('-3.0e-8');
    expect(yamlFloatText(1.5e21)).toBe('1.5e+21');
    expect(yamlFloatText(0.03)).toBe('0.03');
    const text = toYaml({ lr: 5e-7, epochs: 8 }, []);
    expect(text).toContain('lr: 5.0e-7\n');
    expect(text).toContain('epochs: 8\n');
    expect(parse(text)).toEqual({ lr: 5e-7, epochs: 8 });
  });

  it('renders without DPO data (SFT only) and says so', async () => {
    const { sftLines } = await exportFixture();
    const run = join(dir, 'sft-only');
    mkdirSync(run, { recursive: true });
    writeFileSync(join(run, 'sft.jsonl'), jsonl(sftLines));
    const result = await renderRun(run, resolveSettings({ maxLength: 8192 }));
    expect(result.files).not.toContain('llamafactory/dpo.yaml');
    expect(result.files).not.toContain('dpo.llamafactory.jsonl');
    expect(result.warnings).toEqual([`dpo.jsonl is not in ${run}: DPO configs skipped`]);
    expect(validateJsonl('sft', read(run, 'sft.jsonl')).defects).toEqual([]);
  });
});

describe('render CLI', () => {
  it('writes the run folder with command-line overrides, and exits 2 on bad input', async () => {
    const run = await runDirWithExports('cli');
    const settingsFile = join(dir, 'settings.json');
    writeFileSync(settingsFile, JSON.stringify({ epochs: 3, serve: { port: 8100 } }));
    const io = capture();
    const code = await main(
      [
        '--run',
        run,
        '--settings',
        settingsFile,
        '--max-length',
        '4096',
        '--base-model',
        'Qwen/Qwen2-7B-Instruct',
        '--template',
        'qwen',
      ],
      io,
    );
    expect(code).toBe(0);
    expect(io.stdout).toContain(`wrote ${join(run, 'llamafactory/sft.yaml')}`);
    const settings = JSON.parse(read(run, 'settings.json'));
    expect(settings).toMatchObject({
      epochs: 3,
      maxLength: 4096,
      baseModel: 'Qwen/Qwen2-7B-Instruct',
      template: 'qwen',
    });
    expect(settings.serve.port).toBe(8100);
    expect(parse(read(run, 'llamafactory/sft.yaml'))).toMatchObject({
      num_train_epochs: 3,
      cutoff_len: 4096,
      template: 'qwen',
    });

    for (const argv of [
      [],
      ['--run', run, '--finetuning', 'qlora'],
      ['--run', run, '--max-length', 'long'],
      ['--run', run, '--serve', 'vllm:sft'],
    ]) {
      const bad = capture();
      expect(await main(argv, bad)).toBe(2);
      expect(bad.stderr[0]).toMatch(/^render: /);
    }
  });
});

describe.skipIf(!hasPython)('Python training scripts (python3 present; skipped when it is not)', () => {
  it('compile (py_compile), without writing bytecode into the repo', () => {
    const cache = join(dir, 'pycache');
    // The micro recipe's trainer (gpu-jobs/micro/train.py) shares common.py: it is checked with them.
    for (const file of ['common.py', 'train_sft.py', 'train_dpo.py', '../micro/train.py']) {
      const r = spawnSync('python3', ['-m', 'py_compile', join(PYTHON_DIR, file)], {
        encoding: 'utf8',
        env: { ...process.env, PYTHONPYCACHEPREFIX: cache },
      });
      expect(r.stderr, file).toBe('');
      expect(r.status, file).toBe(0);
    }
    expect(existsSync(join(PYTHON_DIR, '__pycache__'))).toBe(false);
  });

  it('mask observations out of the loss: only assistant turns count (common.assistant_token_mask, fake tokenizer)', () => {
    // A character-level fake chat template: "<role>content|" per message; ids are char codes.
    const script = [
      'import json, sys',
      `sys.path.insert(0, ${JSON.stringify(PYTHON_DIR)})`,
      'from common import assistant_token_mask',
      "tpl = lambda ms: [ord(c) for m in ms for c in f\"<{m['role'][0]}>{m['content']}|\"]",
      'msgs = [{"role": "system", "content": "T"}, {"role": "user", "content": "Q"},',
      '        {"role": "assistant", "content": "A1"}, {"role": "user", "content": "Observation: o"},',
      '        {"role": "assistant", "content": "A2"}]',
      'ids, mask = assistant_token_mask(tpl, msgs)',
      'print(json.dumps(["".join(chr(i) for i, m in zip(ids, mask) if m), len(ids) == len(mask)]))',
    ].join('\n');
    const r = spawnSync('python3', ['-c', script], {
      encoding: 'utf8',
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(['<a>A1|<a>A2|', true]);
  });

  it('read the rendered configs (common.load_config, stdlib only) and reject the wrong kind', async () => {
    const run = await runDirWithExports('python');
    await renderRun(run, SEED_SETTINGS);
    const script = [
      'import json, sys',
      `sys.path.insert(0, ${JSON.stringify(PYTHON_DIR)})`,
      'from common import load_config, length_report',
      "s = load_config('trl/sft.json', 'sft')",
      "d = load_config('trl/dpo.json', 'dpo')",
      "print(json.dumps([s['args']['learning_rate'], s['args']['num_train_epochs'], d['args']['beta']]))",
      "print(length_report([3000, 900, 1500], s['args']['max_length'], s['train_file']))",
      "load_config('trl/dpo.json', 'sft')",
    ].join('\n');
    const r = spawnSync('python3', ['-c', script], {
      cwd: run,
      encoding: 'utf8',
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    const lines = r.stdout.trim().split('\n');
    expect(JSON.parse(lines[0] as string)).toEqual([2e-5, 8, 0.1]);
    expect(lines[1]).toBe(
      'sft.jsonl: 3 records, tokens p50 1500, p95 3000, max 3000; 0 over max_length 4096',
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('trl/dpo.json is a dpo config; this script trains sft');
  });

  it.skipIf(!hasPyYaml)(
    'LLaMA-Factory YAMLs read back with PyYAML with float and int types (skipped without PyYAML)',
    async () => {
      const run = await runDirWithExports('pyyaml');
      await renderRun(run, SEED_SETTINGS);
      const script = [
        'import json, yaml',
        'out = {}',
        "for f in ('llamafactory/sft.yaml', 'llamafactory/dpo.yaml'):",
        '    d = yaml.safe_load(open(f))',
        "    out[f] = [type(d['learning_rate']).__name__, d['learning_rate'], type(d['warmup_ratio']).__name__, d['cutoff_len'], d['lr_scheduler_type'], d['num_train_epochs']]",
        'print(json.dumps(out))',
      ].join('\n');
      const r = spawnSync('python3', ['-c', script], { cwd: run, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toEqual({
        'llamafactory/sft.yaml': ['float', 2e-5, 'float', 4096, 'cosine', 8],
        'llamafactory/dpo.yaml': ['float', 5e-7, 'float', 4096, 'cosine', 1],
      });
    },
  );
});
