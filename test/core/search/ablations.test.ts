/**
 * Table 5's ablations as defined (issue 25 item 4, spec §10), on hand-built trees with a scripted model:
 * - "w/o self-reflection": no reflection on invocation errors, kept on deprecation errors. Under the defaults (no
 *   separate reflection prompt) the prompt after an invocation error hides its message (tooldrift's reading);
 * - "w/o tool update": no UpdateTool in the prompt's tool list, guidelines and examples, nor on the server.
 */
import { describe, expect, it } from 'vitest';
import { TOOLEVO_UPDATE_EXAMPLES } from '../../../core/prompts/few-shots.ts';
import { UPDATE_TOOL_GUIDELINE } from '../../../core/prompts/toolevo.ts';
import type { SearchConfigInput } from '../../../core/search/config.ts';
import { INVOCATION_FAILED } from '../../../core/search/expand.ts';
import { createSearch, runSearch, searchEnv } from '../../../core/search/mcts.ts';
import { node, type SearchTree } from '../../../core/search/tree.ts';
import { PC_SURFACE, S_IN_SURFACE } from '../../../core/surfaces/builtin.ts';
import { INVALID_ACTION } from '../../../core/world/kernel/messages.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { type ScriptedCandidate, scriptedModel } from './scripted.ts';

const WORLD = generateWorld({ seed: 'ablations', scale: 0.05 });
const Q = 'What was the opening price of coffee on 2010-05-03?';
const call = (tag: string, action: string, input: unknown): ScriptedCandidate => ({
  tag,
  action,
  input: JSON.stringify(input),
  p: 0.5,
});
const finish = (tag: string) => call(tag, 'Finish', { answer: '1' });

async function oneIteration(config: SearchConfigInput, script: Record<string, ScriptedCandidate[]>) {
  const model = scriptedModel(Q, script);
  const tree: SearchTree = createSearch(
    { question: Q, gold: '135.5', dataset: 'coffee' },
    { k: 2, simulations: 1, seed: 'ablation', ...config },
  );
  await runSearch(tree, searchEnv(tree, { model, world: WORLD, surface: S_IN_SURFACE, docs: PC_SURFACE }));
  const promptAfter = (tag: string) => model.calls.find((c) => c.key === tag)?.prompt as string;
  return { tree, model, promptAfter };
}

describe('w/o self-reflection (selfReflection: false)', () => {
  // On P_s_in: LoadDB is retired (a deprecation error); InitializeDatabase with a wrong key is a parameter error
  // (an invocation error).
  const script = {
    root: [
      call('deprecated', 'LoadDB', { DBName: 'coffee' }),
      call('invocation', 'InitializeDatabase', { DBName: 'coffee' }),
    ],
    deprecated: [finish('x')],
    invocation: [finish('y')],
  };

  it('under the defaults hides the invocation error from the next prompt and keeps the deprecation message', async () => {
    const on = await oneIteration({}, script);
    const off = await oneIteration({ selfReflection: false }, script);
    const deprecation = node(on.tree, 1);
    const invocation = node(on.tree, 2);
    expect(deprecation.outcome).toEqual({ kind: 'rejected', reason: 'retired' });
    expect(invocation.outcome).toEqual({ kind: 'rejected', reason: 'param-error' });
    // With self-reflection (the default) the policy reads both messages.
    expect(on.promptAfter('invocation')).toContain(`Observation: ${invocation.observation}`);
    expect(on.promptAfter('deprecated')).toContain(`Observation: ${deprecation.observation}`);
    // Without it, the invocation error's message is gone (the agent sees only that the call failed) …
    expect(off.promptAfter('invocation')).not.toContain(invocation.observation);
    expect(off.promptAfter('invocation')).toContain(`Observation: ${INVOCATION_FAILED}\n\n`);
    // … while the deprecation message stays, and nothing else of the prompt changes.
    expect(off.promptAfter('deprecated')).toBe(on.promptAfter('deprecated'));
    expect(off.promptAfter('invocation')).toBe(
      on.promptAfter('invocation').replace(invocation.observation, INVOCATION_FAILED),
    );
    // The tree records what the server said, whatever the prompt showed.
    expect(node(off.tree, 2).observation).toBe(invocation.observation);
  });

  it('with the reflection prompt keeps the reflection paragraph on deprecation errors only', async () => {
    const on = await oneIteration({ reflectionPrompt: true }, script);
    const off = await oneIteration({ reflectionPrompt: true, selfReflection: false }, script);
    expect(on.promptAfter('invocation')).toContain('Reflection:');
    expect(on.promptAfter('deprecated')).toContain('Reflection:');
    expect(off.promptAfter('invocation')).not.toContain('Reflection:');
    expect(off.promptAfter('deprecated')).toContain('Reflection:');
    // There the error message itself is shown: the reflection prompt is what the ablation removes.
    expect(off.promptAfter('invocation')).toContain(node(off.tree, 2).observation);
  });
});

describe('w/o tool update (toolUpdate: false)', () => {
  const script = {
    root: [call('update', 'UpdateTool', { newtool_desc: 'Init[x], the new LoadDB.' }), finish('f')],
    update: [finish('g')],
  };

  it('leaves UpdateTool out of the tool list, the guidelines and the examples', async () => {
    const on = await oneIteration({}, script);
    const off = await oneIteration({ toolUpdate: false }, script);
    const root = (r: typeof on) => r.promptAfter('root');
    expect(root(on)).toContain('UpdateTool[newtool_desc]');
    expect(root(on)).toContain(UPDATE_TOOL_GUIDELINE);
    expect(TOOLEVO_UPDATE_EXAMPLES.filter((u) => root(on).includes(u))).toHaveLength(1);
    expect(root(off)).not.toContain('UpdateTool[newtool_desc]');
    expect(root(off)).not.toContain(UPDATE_TOOL_GUIDELINE);
    expect(TOOLEVO_UPDATE_EXAMPLES.some((u) => root(off).includes(u))).toBe(false);
    // The guidelines are renumbered: 5 instead of 6.
    expect(root(on)).toMatch(/\n6\. Write every step in this format:/);
    expect(root(off)).toMatch(/\n5\. Write every step in this format:/);
  });

  it('offers no UpdateTool on the server: a call of it is an unknown tool, and the tool list stays', async () => {
    const on = await oneIteration({}, script);
    const off = await oneIteration({ toolUpdate: false }, script);
    expect(node(on.tree, 1)).toMatchObject({
      observation: 'The description for the new tool has been updated successfully.',
      outcome: { kind: 'ok' },
    });
    expect(node(on.tree, 1).state.newTools).toEqual(['(14) Init[x], the new LoadDB.']);
    expect(node(off.tree, 1)).toMatchObject({
      observation: INVALID_ACTION,
      outcome: { kind: 'rejected', reason: 'invalid-action' },
    });
    expect(node(off.tree, 1).state.newTools).toEqual([]);
    expect(off.promptAfter('update')).not.toContain('(14) Init[x]');
  });
});
