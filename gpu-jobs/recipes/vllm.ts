/**
 * Serving a trained model with vLLM for tooldrift's `openai` provider: the `vllm serve` command and the tooldrift
 * variables that point provider `openai` at it (edge/env.ts: MODEL_PROVIDER, OPENAI_BASE_URL, MODEL_NAME;
 * secret OPENAI_API_KEY only when the server was started with `--api-key`).
 *
 * What the model layer asks of the server (core/models/openai.ts, chat-completions.ts): chat completions with
 * `n` = k candidates in one call (a per-request sampling parameter vLLM supports), `logprobs: true` (the sampled
 * tokens' log-probs, summed per candidate for MCTS priors; no `top_logprobs`, so `--max-logprobs` ≥ 1 is
 * enough), a per-request `seed`, `stop: ["Observation:"]`, `temperature` and `max_tokens`.
 * `--generation-config vllm` keeps the checkpoint's generation_config.json (e.g. Llama-3's top_p 0.9) from
 * silently changing the defaults of parameters tooldrift does not send (top_p), so sampling is what the request
 * says, as on OpenAI's API.
 */
import { outputDirs, type TrainSettings } from './settings.ts';

export type Trainer = 'llamafactory' | 'trl';
export type Stage = 'sft' | 'dpo';

/** The directory a trainer writes the model (or LoRA adapter) of a stage to, relative to the run folder. */
export function trainedModelDir(s: TrainSettings, trainer: Trainer, stage: Stage): string {
  const dirs = outputDirs(s);
  if (trainer === 'llamafactory') return stage === 'sft' ? dirs.llamafactorySft : dirs.llamafactoryDpo;
  return stage === 'sft' ? dirs.trlSft : dirs.trlDpo;
}

function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=@,+-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** `vllm serve` argv for the model a trainer produced (a LoRA adapter is served over its base model). */
export function vllmServeArgs(s: TrainSettings, trainer: Trainer, stage: Stage): string[] {
  const dir = trainedModelDir(s, trainer, stage);
  const v = s.serve;
  const lora = s.finetuning === 'lora';
  const args = ['vllm', 'serve', lora ? s.baseModel : dir];
  // A LoRA module's name is what requests ask for; the base model keeps its own name.
  if (lora)
    args.push(
      '--enable-lora',
      '--lora-modules',
      `${v.servedModelName}=${dir}`,
      '--max-lora-rank',
      String(s.lora.rank),
    );
  else args.push('--served-model-name', v.servedModelName);
  args.push(
    '--host',
    v.host,
    '--port',
    String(v.port),
    '--dtype',
    s.bf16 ? 'bfloat16' : 'auto',
    '--max-model-len',
    String(v.maxModelLen),
    '--max-logprobs',
    String(v.maxLogprobs),
    '--seed',
    String(v.seed),
    '--enable-prefix-caching',
    '--generation-config',
    'vllm',
    '--tensor-parallel-size',
    String(v.tensorParallelSize),
  );
  return args;
}

export function vllmServeCommand(s: TrainSettings, trainer: Trainer, stage: Stage): string {
  return vllmServeArgs(s, trainer, stage).map(shellQuote).join(' ');
}

/** The tooldrift variables (names from edge/env.ts) for provider `openai` on this server. */
export function tooldriftEnv(
  s: TrainSettings,
): Record<'MODEL_PROVIDER' | 'OPENAI_BASE_URL' | 'MODEL_NAME', string> {
  return {
    MODEL_PROVIDER: 'openai',
    OPENAI_BASE_URL: `http://${s.serve.publicHost}:${s.serve.port}/v1`,
    MODEL_NAME: s.serve.servedModelName,
  };
}

/** `npm start -- --var NAME:value …` for a local tooldrift (the form the top-level README uses). */
export function tooldriftStartCommand(s: TrainSettings): string {
  const vars = Object.entries(tooldriftEnv(s)).map(([k, v]) => `--var ${shellQuote(`${k}:${v}`)}`);
  return `npm start -- ${vars.join(' ')}`;
}
