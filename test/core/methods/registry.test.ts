/**
 * The agent-method registry and the aid slots: every registered method (read from the registry, never from a
 * list written here) is listed with its options' JSON Schema, accepted by suites, named in the CLI's help and
 * runs an evaluation task with the simulator; aids are validated against the methods that use them.
 */
import { describe, expect, it } from 'vitest';
import { AID_PROVIDERS, AID_SLOTS } from '../../../core/aids/index.ts';
import { runEvalTask } from '../../../core/evals/run-task.ts';
import { EVAL_METHODS, EvalSuiteSchema } from '../../../core/evals/suite.ts';
import { classifyRun } from '../../../core/evals/taxonomy.ts';
import { keepLatestPerTool } from '../../../core/methods/greedy-memory.ts';
import {
  aidListing,
  getMethod,
  hasOptions,
  METHOD_IDS,
  METHODS,
  methodListing,
  methodOptionFields,
} from '../../../core/methods/registry.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import { PC_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { createKernelDeps } from '../../../core/world/kernel-deps.ts';
import { generateTasks } from '../../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { runCli } from '../cli/harness.ts';

const world = generateWorld({ seed: 'methods', scale: 0.05 });
const tasksP = generateTasks(world, TASK_TEMPLATES, { counts: () => ({ test: 3, dev: 0, train: 0 }) }).then(
  (g) => [...g.tasks].sort((a, b) => (a.id < b.id ? -1 : 1)),
);

describe('method registry', () => {
  it('lists every registered method with summary, option JSON Schema, memory and aids', () => {
    expect(METHOD_IDS.length).toBeGreaterThanOrEqual(3);
    expect(new Set(METHOD_IDS).size).toBe(METHOD_IDS.length);
    expect([...EVAL_METHODS]).toEqual(METHOD_IDS);
    const listing = methodListing();
    expect(listing.map((m) => m.id)).toEqual(METHOD_IDS);
    for (const m of listing) {
      const method = getMethod(m.id);
      expect(m.summary).toBe(method.summary);
      expect(m.summary).toMatch(/^\S.*\S$/);
      expect(m.summary).not.toContain('\n');
      expect(m.carriesMemory).toBe(method.memory !== null);
      expect(m.aids).toEqual([...method.aids]);
      expect(m.aids).toContain('documentation');
      expect(m.options.type).toBe('object');
      expect(m.options.$schema).toBeUndefined();
    }
    // The methods that exist today, with their documented behaviour.
    expect(getMethod('greedy-memory').memory).not.toBeNull();
    expect(getMethod('greedy').memory).toBeNull();
    const mcts = listing.find((m) => m.id === 'mcts');
    expect(mcts?.options.properties).toMatchObject({
      simulations: { type: 'integer', default: 8, minimum: 1, maximum: 50 },
      k: { type: 'integer', default: 3 },
      maxDepth: { type: 'integer', default: 15 },
    });
  });

  it('gives every method with options a suite member named by its id, defaulting to its defaults', () => {
    const fields = methodOptionFields();
    const suite = EvalSuiteSchema.parse({ methods: [...METHOD_IDS] }) as Record<string, unknown>;
    for (const m of METHODS) {
      expect(m.id in fields).toBe(hasOptions(m));
      if (hasOptions(m)) expect(suite[m.id]).toEqual(m.options.parse({}));
      else expect(suite[m.id]).toBeUndefined();
    }
    expect(suite.mcts).toEqual({
      simulations: 8,
      k: 3,
      maxDepth: 15,
      depthPreset: 'paper',
      reflectionPrompt: false,
      rollout: 'all',
    });
    expect(suite.greedy).toEqual({ prompt: 'agent', fewShots: 'per-call', driftHint: false });
    const bad = EvalSuiteSchema.safeParse({ methods: ['mcts'], mcts: { simulations: 0 } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['mcts', 'simulations']);
    const unknown = EvalSuiteSchema.safeParse({ methods: ['no-such-method'] });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0]?.path).toEqual(['methods', 0]);
  });

  it('names every registered method in the CLI help of --methods', async () => {
    const help = await runCli(['eval', '--help']);
    expect(help.code).toBe(0);
    const line = help.stdout.split('\n').find((l) => l.trimStart().startsWith('--methods'));
    for (const id of METHOD_IDS) expect(line).toContain(id);
  });

  it('runs every registered method on an evaluation task with the simulator, in the stored shape', async () => {
    const task = (await tasksP).find((t) => t.dataset === 'coffee' && t.difficulty === 'easy');
    if (!task) throw new Error('no task');
    for (const method of METHOD_IDS) {
      const suite = EvalSuiteSchema.parse({ methods: [method], mcts: { simulations: 2, k: 2, maxDepth: 8 } });
      const o = await runEvalTask({
        method,
        suite,
        task,
        model: createSimModel({ preset: 'oracle' }),
        world,
        surface: PC_SURFACE,
        docs: PC_SURFACE,
        deps: createKernelDeps({ gold: task.gold }),
      });
      expect(Object.keys(o).sort(), method).toEqual(
        [
          'answer',
          'correct',
          'ending',
          'inputTokens',
          'latencyMs',
          'modelCalls',
          'outputTokens',
          'steps',
          'toolUpdates',
        ].sort(),
      );
      expect(o.modelCalls, method).toBeGreaterThan(0);
      // Without cached rollouts the Finish states a rollout reaches are thrown away with it, so that ablation may
      // hold no Finish to answer with (core/methods/mcts.ts); every other method answers the oracle policy right.
      if (method === 'mcts-no-cached-rollout') continue;
      expect(o.correct, method).toBe(true);
      expect(o.ending, method).toBe('finish');
      expect(o.steps.at(-1)?.outcome, method).toBe('finished:correct');
      expect(classifyRun(o), method).toBeNull();
    }
  });
});

describe('greedy-memory carry-over', () => {
  it('keeps the latest line per tool name, at most 12, oldest first', () => {
    expect(keepLatestPerTool(['A[x], old', 'B[y], b', 'A[x, z], new'])).toEqual(['B[y], b', 'A[x, z], new']);
    const many = Array.from({ length: 15 }, (_, i) => `T${i}[p], tool ${i}`);
    expect(keepLatestPerTool(many)).toEqual(many.slice(3));
    const carry = getMethod('greedy-memory').memory;
    expect(carry?.initial()).toEqual([]);
    expect(carry?.carry(['ignored'], { steps: [], toolUpdates: ['X[a], one', 'X[b], two'] })).toEqual([
      'X[b], two',
    ]);
  });
});

describe('aid slots', () => {
  it('declares every slot with an option schema; documentation and updateMemory are available', () => {
    expect(aidListing().map((a) => a.slot)).toEqual([...AID_SLOTS]);
    expect(Object.fromEntries(aidListing().map((a) => [a.slot, a.available]))).toEqual({
      documentation: true,
      updateMemory: true,
      demonstrations: true,
      toolPool: true,
    });
    for (const slot of AID_SLOTS) expect(AID_PROVIDERS[slot].options).toBeDefined();
  });

  it('rejects aids with bad options or that a listed method does not use', () => {
    const cases: [unknown, string[], RegExp][] = [
      [{ toolPool: { pool: 'all', topK: 0 } }, ['aids', 'toolPool', 'topK'], /./],
      [{ toolPool: { pool: 'all', ranker: 'cotools' } }, ['aids', 'toolPool', 'ranker'], /./],
      [{ documentation: {} }, ['aids', 'documentation'], /exactly one of surface and docset/],
      [{ demonstrations: { set: 'ste-1', count: 0 } }, ['aids', 'demonstrations', 'count'], /./],
      [{ other: {} }, ['aids'], /./],
    ];
    for (const [aids, path, message] of cases) {
      const r = EvalSuiteSchema.safeParse({ methods: ['greedy'], aids });
      expect(r.success, JSON.stringify(aids)).toBe(false);
      expect(r.error?.issues[0]?.path, JSON.stringify(aids)).toEqual(path);
      expect(r.error?.issues[0]?.message).toMatch(message);
    }
    const mcts = EvalSuiteSchema.safeParse({
      methods: ['greedy', 'mcts'],
      aids: { updateMemory: { lines: ['X'] } },
    });
    expect(mcts.success).toBe(false);
    expect(mcts.error?.issues.map((i) => i.message)).toEqual([
      'method mcts does not use the updateMemory aid',
    ]);
    expect(
      EvalSuiteSchema.safeParse({ methods: ['greedy'], aids: { updateMemory: { lines: ['X'] } } }).success,
    ).toBe(true);
    // A DRAFT documentation set is an available documentation aid (its existence is checked by the edge).
    expect(
      EvalSuiteSchema.safeParse({ methods: ['greedy'], aids: { documentation: { docset: 'draft-1' } } })
        .success,
    ).toBe(true);
  });

  it('lists updateMemory lines among the tools from the first step, and documentation replaces promptSurface', async () => {
    const task = (await tasksP).find((t) => t.dataset === 'coffee' && t.difficulty === 'easy');
    if (!task) throw new Error('no task');
    const line = 'LoadCoffeePrices[Coffee], loads the coffee price table';
    const seen: string[] = [];
    const model = createSimModel({ preset: 'oracle' });
    const spy = {
      ...model,
      provider: model.provider,
      model: model.model,
      capabilities: model.capabilities,
      generate: (req: Parameters<typeof model.generate>[0], signal?: AbortSignal) => {
        seen.push(req.messages.map((m) => m.content).join('\n'));
        return model.generate(req, signal);
      },
    };
    const suite = EvalSuiteSchema.parse({
      methods: ['greedy'],
      aids: { updateMemory: { lines: [line] }, documentation: { surface: 's-ood' } },
    });
    const o = await runEvalTask({
      method: 'greedy',
      suite,
      task,
      model: spy,
      world,
      surface: S_OOD_SURFACE,
      docs: S_OOD_SURFACE,
      deps: createKernelDeps({ gold: task.gold }),
    });
    expect(seen[0]).toContain(`(14) ${line}`);
    expect(o.toolUpdates[0]).toBe(line);
  });
});
