/**
 * The prompt the ReAct methods evaluate a model with (issue 25 items 1 and 2): by default ToolEvo's baseline
 * prompt — one UpdateTool example and two examples of the task's dataset drawn for every call by seed, guidelines
 * without a hint that tools drift (spec §5.1, App. B.1); tooldrift's earlier prompt (three fixed examples, the
 * drift hint) as options; and `prompt: "sft"`, the SFT prompt in the layout of the SFT export's records.
 */
import { describe, expect, it } from 'vitest';
import { runEvalTask } from '../../../core/evals/run-task.ts';
import { EvalSuiteSchema } from '../../../core/evals/suite.ts';
import type { ChatMessage } from '../../../core/messages/chat.ts';
import type { GenerateRequest, TextModel } from '../../../core/models/types.ts';
import {
  drawFewShots,
  renderFewShot,
  TOOLEVO_FEW_SHOTS,
  TOOLEVO_FIXED_FEW_SHOTS,
  TOOLEVO_UPDATE_EXAMPLES,
} from '../../../core/prompts/few-shots.ts';
import { reactStepText } from '../../../core/prompts/react-format.ts';
import { renderPrompt } from '../../../core/prompts/registry.ts';
import { DRIFT_HINT_GUIDELINE, UPDATE_TOOL_GUIDELINE } from '../../../core/prompts/toolevo.ts';
import { sftRecord } from '../../../core/search/trajectories.ts';
import { PC_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { renderToolList } from '../../../core/surfaces/docs.ts';
import { Rng } from '../../../core/util/random.ts';
import { createKernelDeps } from '../../../core/world/kernel-deps.ts';
import type { Task } from '../../../core/world/tasks/types.ts';
import { generateWorld } from '../../../core/world/world.ts';

const world = generateWorld({ seed: 'react-prompt', scale: 0.02 });

/** A hand-built coffee task: the model loads the database, then answers. */
const task: Task = {
  id: 'coffee-easy-test-0000',
  split: 'test',
  dataset: 'coffee',
  difficulty: 'easy',
  templateId: 'coffee-easy-E1',
  question: 'What was the opening price of coffee on 2010-05-03?',
  slots: {},
  gold: '135.5',
  plan: [],
};

const STEPS = [
  reactStepText('I load the coffee prices.', 'LoadDB', '{"DBName": "coffee"}'),
  reactStepText('I can answer now.', 'Finish', '{"answer": "135.5"}'),
];

/** A model that plays STEPS in order and records every request. */
function recorder(): TextModel & { requests: GenerateRequest[] } {
  const requests: GenerateRequest[] = [];
  return {
    provider: 'scripted',
    model: 'scripted',
    capabilities: { n: true, logprobs: false, seed: true, embeddings: false, simulated: true },
    requests,
    async generate(request) {
      requests.push(request);
      const text = STEPS[Math.min(requests.length - 1, STEPS.length - 1)] as string;
      return {
        candidates: [{ text, finishReason: 'stop' }],
        model: 'scripted',
        usage: { calls: 1, inputTokens: 1, outputTokens: 1, latencyMs: 0, costUsd: 0 },
      };
    },
  };
}

async function run(greedy: Record<string, unknown> = {}, seed?: number, surface = PC_SURFACE) {
  const model = recorder();
  const suite = EvalSuiteSchema.parse({
    methods: ['greedy'],
    greedy,
    ...(seed !== undefined ? { model: { seed } } : {}),
  });
  const outcome = await runEvalTask({
    method: 'greedy',
    suite,
    task,
    model,
    world,
    surface,
    docs: PC_SURFACE,
    deps: createKernelDeps({ gold: task.gold }),
  });
  return { model, outcome, prompts: model.requests.map((r) => r.messages.map((m) => m.content).join('\n')) };
}

const coffeeExamples = TOOLEVO_FEW_SHOTS.filter((e) => e.dataset === 'coffee');
const otherExamples = TOOLEVO_FEW_SHOTS.filter((e) => e.dataset !== 'coffee');

describe("greedy's default prompt: ToolEvo's baseline prompt (issue 25 item 1)", () => {
  it('shows one UpdateTool example and two examples of the task dataset, drawn for every call by seed', async () => {
    const { prompts, outcome } = await run({}, 7);
    expect(outcome.correct).toBe(true);
    expect(prompts).toHaveLength(2);
    prompts.forEach((prompt, step) => {
      // Exactly the examples ToolEvo's draw gives for this call's seed (the episode's seed and the step).
      const drawn = drawFewShots('coffee', new Rng(`few-shots/react/7/step/${step}`));
      expect(prompt).toContain(`Here are some examples:\n\n${drawn.update}\n\n`);
      for (const e of drawn.examples) expect(prompt).toContain(renderFewShot(e, PC_SURFACE));
      expect(TOOLEVO_UPDATE_EXAMPLES.filter((u) => prompt.includes(u))).toHaveLength(1);
      expect(coffeeExamples.filter((e) => prompt.includes(`Question: ${e.question}`))).toHaveLength(2);
      expect(otherExamples.filter((e) => prompt.includes(`Question: ${e.question}`))).toEqual([]);
    });
  });

  it('draws other examples for other seeds', async () => {
    const draws = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const [first] = (await run({}, seed)).prompts;
      draws.add(
        TOOLEVO_FEW_SHOTS.filter((e) => first?.includes(`Question: ${e.question}`))
          .map((e) => e.id)
          .join(',') + TOOLEVO_UPDATE_EXAMPLES.findIndex((u) => first?.includes(u)),
      );
    }
    expect(draws.size).toBeGreaterThan(1);
  });

  it('gives no hint that tools drift: guideline 4 is the UpdateTool rule alone (App. B.1)', async () => {
    const [prompt] = (await run()).prompts;
    expect(prompt).toContain(`\n4. ${UPDATE_TOOL_GUIDELINE}\n`);
    expect(prompt).not.toContain('Tools change over time');
    expect(prompt).not.toContain(DRIFT_HINT_GUIDELINE);
  });

  it("keeps tooldrift's earlier prompt as options: fewShots 'fixed' and driftHint", async () => {
    const [prompt] = (await run({ fewShots: 'fixed', driftHint: true }, 7)).prompts;
    const fixed = TOOLEVO_FIXED_FEW_SHOTS.map((e) => renderFewShot(e, PC_SURFACE)).join('\n\n');
    expect(prompt).toContain(`Here are some examples:\n\n${fixed}\n\n`);
    expect(TOOLEVO_UPDATE_EXAMPLES.some((u) => prompt?.includes(u))).toBe(false);
    expect(prompt).toContain(`\n4. ${DRIFT_HINT_GUIDELINE}\n`);
    // Each option alone changes only its part.
    const [hintOnly] = (await run({ driftHint: true }, 7)).prompts;
    expect(hintOnly).toContain(DRIFT_HINT_GUIDELINE);
    expect(TOOLEVO_UPDATE_EXAMPLES.filter((u) => hintOnly?.includes(u))).toHaveLength(1);
  });

  it('rejects option values the schema does not know, naming the field', () => {
    const bad = EvalSuiteSchema.safeParse({ methods: ['greedy'], greedy: { prompt: 'chat' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['greedy', 'prompt']);
  });
});

describe('prompt: "sft" (issue 25 item 2)', () => {
  it("sends ToolEvo's SFT prompt: the tool list only, then the steps as turns — no guidelines, no examples", async () => {
    const { model, outcome } = await run({ prompt: 'sft' }, 7, S_OOD_SURFACE);
    expect(model.requests).toHaveLength(2);
    const header =
      'Answer the question below by working with tools, one step at a time. These tools are available:';
    const system: ChatMessage = { role: 'system', content: `${header}\n\n${renderToolList(PC_SURFACE)}` };
    const question: ChatMessage = { role: 'user', content: `Question: ${task.question}` };
    expect(model.requests[0]?.messages).toEqual([system, question]);
    // s-ood retired LoadDB: the deprecation message comes back as the next user turn.
    const observation = outcome.steps[0]?.observation as string;
    expect(observation).toMatch(/^Error: LoadDB\[DBName\] is deprecated/);
    expect(model.requests[1]?.messages).toEqual([
      system,
      question,
      { role: 'assistant', content: STEPS[0] },
      { role: 'user', content: `Observation: ${observation}` },
    ]);
    const sent = model.requests.map((r) => r.messages.map((m) => m.content).join('\n')).join('\n');
    expect(sent).not.toContain('Here are some examples');
    expect(sent).not.toContain(UPDATE_TOOL_GUIDELINE);
  });

  it('is the layout of the SFT export: each request is the record of the path cut before that step', async () => {
    const { model, outcome } = await run({ prompt: 'sft' }, 7);
    const steps = outcome.steps.map((s) => ({ text: s.text, observation: s.observation }));
    const record = sftRecord({ steps }, task);
    model.requests.forEach((request, i) => {
      expect(record.messages.slice(0, 2 + 2 * i)).toEqual(request.messages);
      expect(record.messages[2 + 2 * i]).toEqual({ role: 'assistant', content: STEPS[i] });
    });
    expect(record.messages).toHaveLength(2 + 2 * steps.length - 1);
    expect(renderPrompt('toolevo/sft', { question: task.question, docs: PC_SURFACE })).toEqual(
      record.messages.slice(0, 2),
    );
  });
});
