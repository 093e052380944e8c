/**
 * The one prompt mechanism: the training prompt and the MCP session instructions are registered templates, and
 * the ReAct loop renders the prompt its caller's StepPrompts choose (not one it picks itself).
 */
import { describe, expect, it } from 'vitest';
import { runReactEpisode } from '../../../core/agents/react-loop.ts';
import { promptText } from '../../../core/messages/chat.ts';
import {
  promptSlots,
  promptTemplate,
  renderPrompt,
  toolEvoStepPrompts,
} from '../../../core/prompts/registry.ts';
import { agentPromptHead, TURN_MARKER } from '../../../core/prompts/toolevo.ts';
import { dpoRecord, sftRecord } from '../../../core/search/trajectories.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import { PC_SURFACE, S_IN_SURFACE } from '../../../core/surfaces/builtin.ts';
import { generateTasks } from '../../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import { generateWorld } from '../../../core/world/world.ts';

describe('registered templates beyond the agent prompts', () => {
  it('lists the training prompt and the session instructions with versions when asked for all', () => {
    const all = promptSlots({ all: true });
    expect(all.map((s) => s.id)).toEqual(
      expect.arrayContaining(['toolevo/training', 'session/mcp-instructions']),
    );
    for (const id of ['toolevo/training', 'session/mcp-instructions'] as const) {
      expect(all.find((s) => s.id === id)?.version).toBe(promptTemplate(id).version);
      expect(promptSlots().some((s) => s.id === id)).toBe(false);
    }
  });

  it('renders SFT and DPO prompts through the training template: instructions up to the turn marker', () => {
    const [system, user] = renderPrompt('toolevo/training', { question: ' How much? ', docs: S_IN_SURFACE });
    expect(system?.role).toBe('system');
    expect(system?.content.endsWith(TURN_MARKER)).toBe(true);
    expect(agentPromptHead({ question: 'How much?', docs: S_IN_SURFACE })).toBe(
      `${system?.content}\n\nQuestion: How much?`,
    );
    expect(user).toEqual({ role: 'user', content: 'Question: How much?' });
    const sft = sftRecord(
      { steps: [{ text: 'Thought: t', observation: 'o' }] },
      { question: 'How much?' },
      // The earlier layout (an option now): the training template's system message, one assistant message.
      { docsSurface: S_IN_SURFACE, format: 'single-turn', systemPrompt: 'agent-head' },
    );
    expect(sft.messages.slice(0, 2)).toEqual([system, user]);
    // The default: ToolEvo's SFT prompt (tool list only) through its own registered template.
    const multi = sftRecord({ steps: [] }, { question: 'How much?' }, { docsSurface: S_IN_SURFACE });
    expect(multi.messages).toEqual(
      renderPrompt('toolevo/sft', { question: 'How much?', docs: S_IN_SURFACE }),
    );
    const pair = { parent: 1, chosenNode: 2, rejectedNode: 3, chosen: 'a', rejected: 'b' };
    const prefix = [{ text: 'Thought: first', observation: 'seen' }];
    const dpo = dpoRecord({ ...pair, prefix }, { question: 'How much?' });
    expect(dpo.prompt).toEqual(
      renderPrompt('toolevo/training', { question: 'How much?', docs: PC_SURFACE, prefix }),
    );
    expect(dpo.prompt[1].content).toBe('Question: How much?\n\nThought: first\n\nObservation: seen');
  });

  it('renders the MCP instructions of a session', () => {
    const text = promptText(
      renderPrompt('session/mcp-instructions', {
        sessionId: 's-1',
        dataset: 'coffee',
        difficulty: 'easy',
        question: 'What was the price?',
        stepBudget: 20,
      }),
    );
    expect(text).toBe(
      [
        'tooldrift session s-1 (coffee, easy).',
        'Question: What was the price?',
        'Answer it by calling the tools; call Finish with your answer to end the episode. Every call is one step of a budget of 20.',
      ].join('\n'),
    );
  });
});

describe('the ReAct loop applies the prompt choice it is given', () => {
  it('uses afterFailure for the step after a failed one and step otherwise', async () => {
    const world = generateWorld({ seed: 'templates', scale: 0.05 });
    const { tasks } = await generateTasks(world, TASK_TEMPLATES, {
      counts: () => ({ test: 2, dev: 0, train: 0 }),
    });
    const task = tasks.find((t) => t.dataset === 'flights' && t.difficulty === 'easy');
    if (!task) throw new Error('no task');
    // The agent reads P_c's documentation while the server runs s-in: the first calls fail.
    const base = {
      model: createSimModel({ preset: 'adaptive' }),
      world,
      task,
      surface: S_IN_SURFACE,
      docs: PC_SURFACE,
    };
    const reflective = await runReactEpisode({ ...base, prompts: toolEvoStepPrompts(true), seed: 3 });
    const failedAt = reflective.steps.findIndex(
      (s) => s.outcome.kind === 'rejected' || s.outcome.kind === 'error',
    );
    expect(failedAt).toBeGreaterThanOrEqual(0);
    reflective.steps.forEach((s, i) => {
      const prev = reflective.steps[i - 1];
      const afterFailure =
        prev !== undefined && (prev.outcome.kind === 'rejected' || prev.outcome.kind === 'error');
      expect(s.prompt).toBe(afterFailure ? 'toolevo/reflection' : 'toolevo/agent');
    });
    const plain = await runReactEpisode({ ...base, prompts: toolEvoStepPrompts(false), seed: 3 });
    expect(plain.steps.every((s) => s.prompt === 'toolevo/agent')).toBe(true);
  });
});
