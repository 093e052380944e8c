/**
 * STE with the simulated policy (labelled a simulator): determinism by seed, resume-equivalence of the state
 * machine, the policy's imagination (long-term memory avoided, observed values reused), and in-context
 * demonstrations followed with probability pDemo.
 */
import { describe, expect, it } from 'vitest';
import { renderToolEvoPrompt } from '../../../core/prompts/toolevo.ts';
import { createSimModel, simulateStep } from '../../../core/sim/index.ts';
import { resolveSkills } from '../../../core/sim/skills.ts';
import { advance, exploreTool, initialSteState, type SteState } from '../../../core/ste/engine.ts';
import { PC_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { parseReact } from '../../../core/world/react-parse.ts';
import { generateWorld } from '../../../core/world/world.ts';

const WORLD = generateWorld({ seed: 'ste-sim', scale: 0.1 });
const ctx = () => ({ model: createSimModel({}), world: WORLD, surface: S_OOD_SURFACE });
const tool = (kernel: string) => S_OOD_SURFACE.tools.find((t) => t.kernel === kernel)?.name as string;

describe('STE with the simulator', () => {
  it('is deterministic by seed', async () => {
    const opts = { tool: tool('FilterDB'), episodes: 3 };
    const a = await exploreTool(ctx(), { ...opts, seed: 'one' });
    const b = await exploreTool(ctx(), { ...opts, seed: 'one' });
    const c = await exploreTool(ctx(), { ...opts, seed: 'two' });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(c.trials.map((t) => t.query)).not.toEqual(a.trials.map((t) => t.query));
    expect(a.model).toBe('tooldrift-sim-v1 (simulator)');
  });

  it('gives the same result when run in small chunks, serialised in between', async () => {
    const opts = { tool: tool('GetValue'), seed: 'chunks', episodes: 3 };
    const whole = await exploreTool(ctx(), opts);
    let state: SteState = initialSteState(opts);
    let chunks = 0;
    while (state.phase !== 'done') {
      // A fresh model and context for every chunk, like a Durable Object woken after eviction.
      state = JSON.parse(JSON.stringify(await advance(ctx(), state, { calls: 1 + (chunks % 5) })));
      chunks++;
    }
    expect(chunks).toBeGreaterThan(20);
    expect(state).toEqual(JSON.parse(JSON.stringify(whole)));
    expect(whole.exemplars.length).toBeGreaterThan(0);
  });

  it('imagines queries that avoid the long-term memory and reuse values observed in the conversation', async () => {
    const s = await exploreTool(ctx(), {
      tool: tool('FilterDB'),
      seed: 'imagine',
      episodes: 6,
      filter: false,
    });
    // Episode openings see every earlier query: none repeats an earlier one exactly.
    const openings = s.trials.filter((t) => t.trial === 0 && t.episode > 0);
    for (const o of openings) {
      const earlier = s.trials.filter((t) => t.episode < o.episode).map((t) => t.query);
      expect(earlier).not.toContain(o.query);
    }
    // Follow-up queries use columns the conversation showed (not in the policy's prior of guesses).
    const observedColumnQueries = s.trials.filter((t) => {
      if (t.trial === 0) return false;
      const earlier = s.trials.filter((u) => u.episode === t.episode && u.trial < t.trial);
      const shown = earlier.flatMap((u) => u.steps.map((x) => x.observation)).join('\n');
      const col = /"[^"]*" database[^"]*"([A-Za-z_ ]+?)(?:>=|>|=)/.exec(t.query)?.[1];
      return col !== undefined && !['Date', 'Name', 'Price', 'City'].includes(col) && shown.includes(col);
    });
    expect(observedColumnQueries.length).toBeGreaterThan(3);
    expect(new Set(s.trials.map((t) => t.query)).size).toBeGreaterThan(s.trials.length / 2);
  });

  it('follows an in-context demonstration with probability pDemo', () => {
    const prompt = renderToolEvoPrompt({
      question: 'At what price did coffee open on 2012-11-30?',
      docs: PC_SURFACE,
      demonstrations: [
        {
          query: 'Which columns does the "coffee" database have?',
          action: 'Init_DB',
          actionInput: '{"databaseIdentifier": "coffee"}',
        },
        // A query the policy does not understand is not attributed to any tool.
        { query: 'Something else entirely', action: 'Weird_Tool', actionInput: '{"x": 1}' },
      ],
    });
    const greedy = (pDemo: number) =>
      parseReact(simulateStep(prompt, { skills: resolveSkills({ pDemo, noise: 0 }) }).text);
    expect(greedy(1)).toMatchObject({
      ok: true,
      action: 'Init_DB',
      actionInput: '{"databaseIdentifier": "coffee"}',
    });
    expect(greedy(0)).toMatchObject({ ok: true, action: 'LoadDB' });
  });
});

describe('the demonstrations aid', () => {
  it('gives greedy and MCTS the demonstrations for their question, which the simulator follows', async () => {
    const { getMethod } = await import('../../../core/methods/registry.ts');
    const { createKernelDeps } = await import('../../../core/world/kernel-deps.ts');
    const asked: string[] = [];
    const demonstrations = async (question: string) => {
      asked.push(question);
      return [
        {
          query: 'Which columns does the "coffee" database have?',
          action: 'Init_DB',
          actionInput: '{"databaseIdentifier": "coffee"}',
        },
      ];
    };
    const question = 'At what price did coffee open on 2012-11-30?';
    for (const id of ['greedy', 'mcts'] as const) {
      const method = getMethod(id);
      const o = await method.run({
        task: { question, gold: '1' },
        options: method.options.parse(id === 'mcts' ? { simulations: 1, k: 1, maxDepth: 2 } : {}),
        model: createSimModel({ skills: { pDemo: 1, noise: 0 } }),
        world: WORLD,
        surface: S_OOD_SURFACE,
        deps: createKernelDeps({ gold: '1' }),
        aids: { documentation: PC_SURFACE, updateMemory: [], demonstrations },
        limits: { maxSteps: 2, maxModelCalls: 10 },
        seeds: { model: 1, search: 's' },
      } as never);
      // The first call uses the demonstrated name on the drifted server, not the documented LoadDB.
      expect(o.steps[0]?.action, id).toBe('Init_DB');
      expect(o.steps[0]?.outcome, id).toBe('ok');
    }
    expect(asked).toEqual([question, question]);
  });
});
