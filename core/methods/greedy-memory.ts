/**
 * `greedy-memory` — the greedy ReAct agent with the tool-update memory carried over: the UpdateTool lines of a
 * task are listed from the first step of the following tasks of its group (same surface, dataset and difficulty,
 * in task-id order), the way a deployed agent keeps what it learnt about changed tools.
 *
 * Carry-over rule: after a task, the memory is that run's UpdateTool lines (which start with the carried ones),
 * keeping the latest line per tool name and at most MEMORY_LINES lines.
 */
import { MEMORY_LINES } from '../aids/index.ts';
import { toolEvoStepPrompts } from '../prompts/registry.ts';
import { defineMethod } from './method.ts';
import { type ReactOptions, ReactOptionsSchema, reactModelCalls, runReact } from './react.ts';

/** The latest line per tool name (the text before `[`), at most MEMORY_LINES, oldest first. */
export function keepLatestPerTool(lines: readonly string[]): string[] {
  const byTool = new Map<string, string>();
  for (const line of lines) {
    const name = line.split('[')[0]?.trim() ?? line;
    byTool.delete(name);
    byTool.set(name, line);
  }
  return [...byTool.values()].slice(-MEMORY_LINES);
}

export const greedyMemory = defineMethod<'greedy-memory', ReactOptions, readonly string[]>({
  id: 'greedy-memory',
  summary:
    'Greedy ReAct agent that carries the UpdateTool lines it learnt to the following tasks of its group.',
  options: ReactOptionsSchema,
  aids: ['documentation', 'updateMemory', 'demonstrations', 'toolPool'],
  memory: {
    initial: () => [],
    carry: (_memory, outcome) => keepLatestPerTool(outcome.toolUpdates),
  },
  modelCalls: reactModelCalls,
  run: (input) =>
    runReact(input, {
      prompts: toolEvoStepPrompts(false),
      ...(input.memory ? { memory: input.memory } : {}),
    }),
  runApi: (input) =>
    runReact(input, {
      prompts: toolEvoStepPrompts(false),
      ...(input.memory ? { memory: input.memory } : {}),
    }),
});
