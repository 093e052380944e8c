/**
 * The simulated policy as a TextModel and step by step: labels, sampling contract (seeds, greedy, distinct
 * candidates, log-probabilities, stop/maxTokens), and what each skill knob does in the situation it governs.
 */
import { describe, expect, it } from 'vitest';
import { createTextModel } from '../../../core/models/factory.ts';
import type { GenerateRequest } from '../../../core/models/types.ts';
import { reactStepText, type TrajectoryStep } from '../../../core/prompts/react-format.ts';
import { renderReflectionPrompt } from '../../../core/prompts/reflection.ts';
import { renderToolEvoPrompt, TOOLEVO_AGENT_PROMPT } from '../../../core/prompts/toolevo.ts';
import { createSimModel, SIM_MODEL_LABEL, SIM_MODEL_NAME, simulateStep } from '../../../core/sim/index.ts';
import { resolveSkills, type SimSkillsInput } from '../../../core/sim/skills.ts';
import { PC_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { decodeActionInput } from '../../../core/world/kernel/json-decode.ts';
import { INVALID_ACTION, PARAM_ERROR_COMMAND } from '../../../core/world/kernel/messages.ts';
import { parseReact } from '../../../core/world/react-parse.ts';

const QUESTION = 'At what price did coffee open on 2012-11-30?';
const LOADED =
  'We have successfully loaded the coffee database, including the following columns: Date, Open, High, Low, Close, Volume, Currency.';
const LOADDB_DEPRECATED = S_OOD_SURFACE.retired.find((r) => r.kernel === 'LoadDB')?.message as string;
const MEMORY_LINE =
  '(14) Init_DB[databaseIdentifier], which is an updated version of LoadDB and loads a database. For example: {"databaseIdentifier": "flights"}.';

const step = (action: string, input: string, observation: string): TrajectoryStep => ({
  text: reactStepText('A thought.', action, input),
  observation,
});
const loadDb = step('LoadDB', '{"DBName": "coffee"}', LOADDB_DEPRECATED);

function prompt(steps: TrajectoryStep[] = [], newTools: string[] = []): string {
  return renderToolEvoPrompt({ question: QUESTION, docs: PC_SURFACE, steps, newTools });
}

/** The greedy step for a prompt under the given knobs (noise off unless given). */
function greedy(text: string, skills: SimSkillsInput = {}) {
  return simulateStep(text, { skills: resolveSkills({ noise: 0, ...skills }) });
}

function call(text: string): { action: string; input: string } {
  const p = parseReact(text);
  if (!p.ok) throw new Error(`unparsable: ${text}`);
  return { action: p.action, input: p.actionInput };
}

describe('the sim model', () => {
  const model = createSimModel();
  const request = (extra: Partial<GenerateRequest> = {}): GenerateRequest => ({
    messages: TOOLEVO_AGENT_PROMPT.render({ question: QUESTION, docs: PC_SURFACE, steps: [loadDb] }),
    ...extra,
  });

  it('is labelled as a simulator', async () => {
    expect(model.provider).toBe('sim');
    expect(model.model).toBe(SIM_MODEL_NAME);
    expect(model.capabilities.simulated).toBe(true);
    const r = await model.generate(request({ temperature: 0 }));
    expect(r.model).toBe(SIM_MODEL_LABEL);
    expect(r.model).toContain('(simulator)');
    expect(r.usage).toMatchObject({ calls: 1, latencyMs: 0, costUsd: 0 });
    expect(r.usage.inputTokens).toBeGreaterThan(500);
  });

  it('repeats itself for the same seed, and differs for other seeds when sampling', async () => {
    const a = await model.generate(request({ temperature: 1, seed: 7, n: 4 }));
    const b = await createSimModel().generate(request({ temperature: 1, seed: 7, n: 4 }));
    expect(a).toEqual(b);
    const others = await Promise.all(
      [8, 9, 10].map((seed) => model.generate(request({ temperature: 1, seed, n: 4 }))),
    );
    const texts = (r: typeof a) => r.candidates.map((c) => c.text).join('\u0000');
    expect(others.some((o) => texts(o) !== texts(a))).toBe(true);
  });

  it('is greedy at temperature 0: the same text for every candidate and every seed', async () => {
    const one = await model.generate(request({ temperature: 0, seed: 1, n: 3 }));
    const two = await model.generate(request({ temperature: 0, seed: 2, n: 1 }));
    const texts = one.candidates.map((c) => c.text);
    expect(new Set(texts).size).toBe(1);
    expect(two.candidates[0]?.text).toBe(texts[0]);
  });

  it('gives k different candidates when sampling (redrawing repeats, so nearly always)', async () => {
    const distinct = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(async (seed) => {
        const r = await model.generate(request({ temperature: 0.7, seed, n: 4 }));
        return new Set(r.candidates.map((c) => c.text)).size;
      }),
    );
    expect(Math.min(...distinct)).toBeGreaterThanOrEqual(3);
    expect(distinct.filter((d) => d === 4).length).toBeGreaterThanOrEqual(7);
  });

  it('reports log-probabilities of its own choices only when asked', async () => {
    const plain = await model.generate(request({ temperature: 1, seed: 3, n: 2 }));
    expect(plain.candidates.every((c) => c.logprob === undefined)).toBe(true);
    const withLp = await model.generate(request({ temperature: 1, seed: 3, n: 2, logprobs: true }));
    for (const c of withLp.candidates) {
      expect(c.logprob?.sum).toBeLessThanOrEqual(0);
      expect(c.logprob?.count).toBe(c.text.trim().split(/\s+/).length);
    }
    expect(withLp.candidates.map((c) => c.text)).toEqual(plain.candidates.map((c) => c.text));
  });

  it('applies stop strings and maxTokens', async () => {
    const full = (await model.generate(request({ temperature: 0 }))).candidates[0]?.text as string;
    const stopped = await model.generate(request({ temperature: 0, stop: ['Action:'] }));
    expect(stopped.candidates[0]?.text).toBe(full.slice(0, full.indexOf('Action:')));
    expect(stopped.candidates[0]?.finishReason).toBe('stop');
    const short = await model.generate(request({ temperature: 0, maxTokens: 3 }));
    expect(short.candidates[0]?.text.split(/\s+/)).toHaveLength(3);
    expect(short.candidates[0]?.finishReason).toBe('length');
  });

  it('builds from a model configuration of the model factory, and only from known options', async () => {
    const m = createTextModel({ provider: 'sim', preset: 'adaptive' }, { sim: createSimModel });
    expect(m.model).toBe(SIM_MODEL_NAME);
    expect((m as ReturnType<typeof createSimModel>).skills.pUpdate).toBe(0.9);
    expect(() => createSimModel({ skils: { pUpdate: 1 } })).toThrow(/unknown sim option skils/);
    expect(() => createSimModel({ preset: 'genius' as never })).toThrow(/unknown sim preset/);
    expect(() => createSimModel({ model: 'gpt-4o' })).toThrow(/tooldrift-sim-v1/);
  });

  it('takes a policy seed: other greedy choices in some situations, the same skills on average', async () => {
    const texts = async (seed?: string) => {
      const m = createSimModel(seed === undefined ? {} : { seed });
      const out: string[] = [];
      for (let i = 0; i < 12; i++) {
        const steps = Array.from({ length: i + 1 }, () => loadDb);
        const r = await m.generate({
          messages: TOOLEVO_AGENT_PROMPT.render({ question: QUESTION, docs: PC_SURFACE, steps }),
          temperature: 0,
        });
        out.push(r.candidates[0]?.text as string);
      }
      return out;
    };
    expect(await texts()).toEqual(await texts());
    expect(await texts('another policy')).not.toEqual(await texts());
  });

  it('rejects bad requests and honours an aborted signal', async () => {
    await expect(model.generate(request({ n: 0 }))).rejects.toThrow(RangeError);
    await expect(model.generate(request({ temperature: -1 }))).rejects.toThrow(RangeError);
    await expect(model.generate(request({ model: 'gpt-4o' }))).rejects.toThrow(/tooldrift-sim-v1/);
    const controller = new AbortController();
    controller.abort();
    await expect(model.generate(request(), controller.signal)).rejects.toBeDefined();
    expect(() => createSimModel({ skills: { pUpdate: 2 } })).toThrow(RangeError);
  });
});

describe('the policy, situation by situation (greedy, no noise)', () => {
  it('plans the first call of the task in the documented API', () => {
    const s = greedy(prompt());
    expect(s.text).toBe(
      'Thought: The information I need is in the coffee database, so I load it first.\n\nAction: LoadDB\n\nAction Input: {"DBName": "coffee"}',
    );
  });

  it('after a deprecation: pUpdate decides whether it switches, pReflect whether it follows the example', () => {
    const text = prompt([loadDb]);
    expect(call(greedy(text, { pUpdate: 0 }).text)).toEqual({
      action: 'LoadDB',
      input: '{"DBName": "coffee"}',
    });
    expect(greedy(text, { pUpdate: 0 }).kind).toBe('repeat');
    expect(call(greedy(text, { pUpdate: 1, pReflect: 1 }).text)).toEqual({
      action: 'Init_DB',
      input: '{"databaseIdentifier": "coffee"}',
    });
    expect(call(greedy(text, { pUpdate: 1, pReflect: 0 }).text)).toEqual({
      action: 'Init_DB',
      input: '{"DBName": "coffee"}',
    });
  });

  it('after a deprecation whose replacement an UpdateTool line describes: switches (pUpdate) by the line', () => {
    const text = prompt([loadDb], [MEMORY_LINE]);
    const adopted = greedy(text, { pUpdate: 1, pReflect: 0, pMemory: 0 });
    expect(adopted.note).toBe('memory');
    expect(call(adopted.text)).toEqual({ action: 'Init_DB', input: '{"databaseIdentifier": "coffee"}' });
    expect(greedy(text, { pUpdate: 0, pReflect: 0, pMemory: 0 }).kind).toBe('repeat');
  });

  it('after a parameter error: pReflect decides between repairing and repeating', () => {
    const text = prompt([loadDb, step('Init_DB', '{"DBName": "coffee"}', PARAM_ERROR_COMMAND)]);
    expect(call(greedy(text, { pReflect: 0 }).text)).toEqual({
      action: 'Init_DB',
      input: '{"DBName": "coffee"}',
    });
    const repaired = greedy(text, { pReflect: 1 });
    expect(repaired.note).toBe('repair');
    expect(call(repaired.text)).toEqual({ action: 'Init_DB', input: '{"databaseIdentifier": "coffee"}' });
  });

  it('records a replacement with UpdateTool after its first success (pUpdate), then goes on with the plan', () => {
    const text = prompt([loadDb, step('Init_DB', '{"databaseIdentifier": "coffee"}', LOADED)]);
    const update = greedy(text, { pUpdate: 1 });
    expect(update.kind).toBe('update-tool');
    const { action, input } = call(update.text);
    expect(action).toBe('UpdateTool');
    const decoded = decodeActionInput(input);
    if (!decoded.ok) throw new Error(decoded.observation);
    expect(decoded.params.entries[0]?.[1]).toBe(
      'Init_DB[databaseIdentifier], which is an updated version of LoadDB and loads a database. For example: {"databaseIdentifier": "flights"}.',
    );
    expect(call(greedy(text, { pUpdate: 0 }).text)).toEqual({
      action: 'FilterDB',
      input: '{"condition": "Date=2012-11-30"}',
    });
  });

  it('uses an UpdateTool line of its tool list with probability pMemory', () => {
    const text = prompt([], [MEMORY_LINE]);
    expect(call(greedy(text, { pMemory: 1 }).text)).toEqual({
      action: 'Init_DB',
      input: '{"databaseIdentifier": "coffee"}',
    });
    expect(call(greedy(text, { pMemory: 0 }).text).action).toBe('LoadDB');
    // A remembered tool that this server does not know: back to the documentation when reflecting.
    const stale = prompt(
      [step('Init_DB', '{"databaseIdentifier": "coffee"}', INVALID_ACTION)],
      [MEMORY_LINE],
    );
    expect(call(greedy(stale, { pReflect: 1 }).text).action).toBe('LoadDB');
    expect(call(greedy(stale, { pReflect: 0 }).text).action).toBe('Init_DB');
  });

  it('reflects more often when the prompt asks for reflection', () => {
    const steps = [loadDb];
    const plain = prompt(steps);
    const reflective = renderReflectionPrompt({ question: QUESTION, docs: PC_SURFACE, steps });
    const adopts = (text: string, gain: number) =>
      greedy(text, { pUpdate: 0, reflectionPromptGain: gain }).kind !== 'repeat';
    expect(adopts(plain, 1)).toBe(false);
    expect(adopts(reflective, 1)).toBe(true);
    expect(adopts(reflective, 0)).toBe(false);
  });

  it('answers with Finish once the plan is complete', () => {
    const done = prompt([
      step('LoadDB', '{"DBName": "coffee"}', LOADED),
      step(
        'FilterDB',
        '{"condition": "Date=2012-11-30"}',
        'We have successfully filtered the data (1 rows).',
      ),
      step('GetValue', '{"column_name": "Open"}', '{"Open": "118.5"}'),
    ]);
    expect(call(greedy(done).text)).toEqual({ action: 'Finish', input: '{"answer": "118.5"}' });
  });

  it('cannot answer a question of no template', () => {
    const s = greedy(renderToolEvoPrompt({ question: 'What is the capital of France?', docs: PC_SURFACE }));
    expect(s.kind).toBe('unknown-question');
    expect(call(s.text).action).toBe('Finish');
  });
});

describe('noise', () => {
  const only = (kind: string): SimSkillsInput => ({
    noise: 1,
    pUpdate: 1,
    pReflect: 1,
    noiseKinds: {
      malformed: 0,
      'wrong-value': 0,
      'hallucinated-tool': 0,
      'deprecated-again': 0,
      'premature-finish': 0,
      'wrong-finish': 0,
      [kind]: 1,
    },
  });

  it('writes each kind of failure', () => {
    const malformed = greedy(prompt(), only('malformed')).text;
    const parsed = parseReact(malformed);
    expect(!parsed.ok || !decodeActionInput(parsed.actionInput).ok).toBe(true);

    const wrong = call(greedy(prompt(), only('wrong-value')).text);
    expect(wrong.action).toBe('LoadDB');
    expect(wrong.input).not.toBe('{"DBName": "coffee"}');

    const hallucinated = call(greedy(prompt(), only('hallucinated-tool')).text);
    expect(PC_SURFACE.tools.map((t) => t.name)).not.toContain(hallucinated.action);

    const again = call(greedy(prompt([loadDb]), only('deprecated-again')).text);
    expect(again).toEqual({ action: 'LoadDB', input: '{"DBName": "coffee"}' });
    // Not when the replacement is described in the tool list: the step is written as it should be.
    const described = greedy(prompt([loadDb], [MEMORY_LINE]), only('deprecated-again'));
    expect(described.kind).toBe('call');
    expect(call(described.text)).toEqual({ action: 'Init_DB', input: '{"databaseIdentifier": "coffee"}' });

    const loaded = prompt([step('LoadDB', '{"DBName": "coffee"}', LOADED)]);
    expect(call(greedy(loaded, only('premature-finish')).text).action).toBe('Finish');

    const done = prompt([
      step('LoadDB', '{"DBName": "coffee"}', LOADED),
      step(
        'FilterDB',
        '{"condition": "Date=2012-11-30"}',
        'We have successfully filtered the data (1 rows).',
      ),
      step('GetValue', '{"column_name": "Open"}', '{"Open": "118.5"}'),
    ]);
    expect(call(greedy(done, only('wrong-finish')).text)).toEqual({
      action: 'Finish',
      input: '{"answer": "118.6"}',
    });
  });

  it('never strikes with noise 0', () => {
    for (const steps of [[], [loadDb]]) {
      for (let seed = 0; seed < 20; seed++) {
        const s = simulateStep(prompt(steps), {
          skills: resolveSkills({ noise: 0 }),
          temperature: 1,
          seed,
        });
        expect(s.kind.startsWith('noise:')).toBe(false);
      }
    }
  });
});
