/**
 * translateCall is the inverse of the adapter; run over the reference plans of every task template, it shows
 * that every task stays solvable on every built-in surface: each step, written for the surface and sent as ReAct
 * text, gets the observation the reference plan got, and the final Finish is judged correct.
 */
import { describe, expect, it } from 'vitest';
import { resolveCall, stepSurface } from '../../../core/surfaces/adapter.ts';
import {
  BUILTIN_SURFACES,
  PC_SURFACE,
  S_IN_SURFACE,
  S_OOD_ALT_SURFACE,
  S_OOD_SURFACE,
} from '../../../core/surfaces/builtin.ts';
import type { Surface, SurfaceTool } from '../../../core/surfaces/model.ts';
import { toolForKernel, translateCall } from '../../../core/surfaces/translate.ts';
import { Rng } from '../../../core/util/random.ts';
import type { KernelCall } from '../../../core/world/kernel/kernel.ts';
import { initialState } from '../../../core/world/kernel/state.ts';
import { referenceDeps, runReferencePlan } from '../../../core/world/tasks/reference-plan.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import type { PlanStep } from '../../../core/world/tasks/types.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { jsonText, reactText } from './surface-fixtures.ts';

describe('translateCall', () => {
  it('writes a filter condition as numbered keys and columns with the flag', () => {
    expect(translateCall(S_IN_SURFACE, { tool: 'FilterDB', args: { condition: 'a>1, b=2, c<=3' } })).toEqual({
      ok: true,
      tool: 'Apply_Database_Filters',
      args: { condition1: 'a>1', condition2: 'b=2', condition3: 'c<=3' },
    });
    expect(
      translateCall(S_OOD_SURFACE, { tool: 'GetValue', args: { column_name: 'price, service fee' } }),
    ).toEqual({
      ok: true,
      tool: 'Extract_Value',
      args: { fieldName1: 'price', fieldName2: 'service fee', ReturnValue: 'True' },
    });
    expect(
      translateCall(S_OOD_ALT_SURFACE, { tool: 'GetValue', args: { column_name: 'price, service fee' } }),
    ).toMatchObject({ args: { fieldName1: 'price', fieldName2: 'service fee', ReturnValue: 'True' } });
    // A comma without a space is not a joiner: the string stays in one key and comes back unchanged.
    expect(
      translateCall(S_IN_SURFACE, { tool: 'GetValue', args: { column_name: 'price,service fee' } }),
    ).toMatchObject({
      args: { column1: 'price,service fee', ReturnResult: 'True' },
    });
  });

  it('writes structured strings, prefixes, mandatory flags and ignored parameters', () => {
    const edge = {
      tool: 'EdgeCheck',
      args: { GraphName: 'AuthorNet', Node1: 'Chao Zhang', Node2: 'Weihong Lin' },
    } as const;
    expect(translateCall(S_IN_SURFACE, edge)).toEqual({
      ok: true,
      tool: 'ValidateGraphEdge',
      args: { Graph_Name: 'AuthorNet', NodeInfos: 'FirstNode[Chao Zhang], SecondNode[Weihong Lin]' },
    });
    expect(translateCall(S_OOD_SURFACE, edge)).toEqual({
      ok: true,
      tool: 'Inspect_TheEdges',
      args: { CheckInfos: 'Graph[AuthorNet], Vertex1[Chao Zhang], Vertex2[Weihong Lin]' },
    });
    expect(translateCall(S_IN_SURFACE, { tool: 'SQLInterpreter', args: { SQL: 'SELECT 1' } })).toMatchObject({
      args: { SQLCommand: 'The SQL code is as follows:SELECT 1' },
    });
    expect(
      translateCall(S_OOD_SURFACE, { tool: 'PythonInterpreter', args: { Python: 'print(1)' } }),
    ).toMatchObject({
      args: { python_execute_Code: 'This is the Python code: print(1)' },
    });
    expect(
      translateCall(S_IN_SURFACE, { tool: 'NeighbourCheck', args: { GraphName: 'PaperNet', Node: 'T' } }),
    ).toMatchObject({
      args: { Graph_Name: 'PaperNet', graphNode: 'T', ReturnResult: 'True' },
    });
    expect(
      translateCall(S_OOD_SURFACE, { tool: 'RetrieveAgenda', args: { keyword: 'Amelia' } }),
    ).toMatchObject({
      args: { searchTerm: 'Amelia', passage_num: 3 },
    });
    expect(translateCall(PC_SURFACE, { tool: 'Finish', args: { answer: 12 } })).toEqual({
      ok: true,
      tool: 'Finish',
      args: { answer: 12 },
    });
  });

  it('refuses kernel calls that have no exact equivalent on the surface', () => {
    const cases: [Surface, KernelCall, string][] = [
      [
        S_IN_SURFACE,
        { tool: 'EdgeCheck', args: { GraphName: 'PaperNet', Node1: '[Re] A title', Node2: 'B' } },
        'ValidateGraphEdge: Node1 cannot be written inside FirstNode[…]',
      ],
      [
        S_OOD_SURFACE,
        { tool: 'EdgeCheck', args: { GraphName: ' AuthorNet', Node1: 'A', Node2: 'B' } },
        'Inspect_TheEdges: GraphName cannot be written inside Graph[…]',
      ],
      [
        S_IN_SURFACE,
        { tool: 'PythonInterpreter', args: { Python: 'print(1)\n' } },
        'Execute_Python_Script: Python has surrounding whitespace, which is trimmed',
      ],
      [
        S_IN_SURFACE,
        { tool: 'FilterDB', args: { condition: 3 } },
        'Apply_Database_Filters: condition is not a string',
      ],
      [S_IN_SURFACE, { tool: 'LoadDB', args: {} }, 'InitializeDatabase: the call has no DBName'],
      [
        S_IN_SURFACE,
        { tool: 'LoadDB', args: { DBName: 'coffee', extra: 1 } },
        'InitializeDatabase: the translation does not resolve to the same kernel call',
      ],
    ];
    for (const [s, call, reason] of cases) expect(translateCall(s, call)).toEqual({ ok: false, reason });
    // P_c keeps what the drifted surfaces cannot carry.
    expect(translateCall(PC_SURFACE, { tool: 'PythonInterpreter', args: { Python: 'print(1)\n' } }).ok).toBe(
      true,
    );
  });

  it('prefers an active tool, falls back to a deprecated one, never uses a sunset one', () => {
    const second: SurfaceTool = { ...(PC_SURFACE.tools[2] as SurfaceTool), name: 'LoadDB2' };
    const life = (status: 'active' | 'deprecated' | 'sunset') => ({ status });
    const surface = (
      a: 'active' | 'deprecated' | 'sunset',
      b: 'active' | 'deprecated' | 'sunset',
    ): Surface => ({
      ...PC_SURFACE,
      tools: PC_SURFACE.tools.flatMap((t) =>
        t.name === 'LoadDB'
          ? [
              { ...t, lifecycle: life(a) },
              { ...second, lifecycle: life(b) },
            ]
          : [t],
      ),
    });
    expect(toolForKernel(surface('active', 'active'), 'LoadDB')?.name).toBe('LoadDB');
    expect(toolForKernel(surface('deprecated', 'active'), 'LoadDB')?.name).toBe('LoadDB2');
    expect(toolForKernel(surface('deprecated', 'sunset'), 'LoadDB')?.name).toBe('LoadDB');
    expect(translateCall(surface('sunset', 'sunset'), { tool: 'LoadDB', args: { DBName: 'x' } })).toEqual({
      ok: false,
      reason: 'pc serves no tool for LoadDB',
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Every task template, on every built-in surface

const TASKS_PER_TEMPLATE = 3;
const world = generateWorld({ seed: 'surfaces-translate', scale: 1 });

interface SampledTask {
  templateId: string;
  gold: Parameters<typeof referenceDeps>[0];
  steps: PlanStep[];
}

async function sampleTasks(): Promise<SampledTask[]> {
  const out: SampledTask[] = [];
  for (const template of TASK_TEMPLATES) {
    const rng = new Rng(`surfaces/${template.id}`);
    let got = 0;
    for (let draw = 0; draw < 60 && got < TASKS_PER_TEMPLATE; draw++) {
      const sampled = template.sample({ rng, world });
      if (!sampled) continue;
      const run = await runReferencePlan(world, template, sampled.slots, sampled.gold);
      if (!run.correct) continue;
      out.push({ templateId: template.id, gold: sampled.gold, steps: run.steps });
      got++;
    }
    if (got < TASKS_PER_TEMPLATE) throw new Error(`${template.id}: only ${got} tasks`);
  }
  return out;
}

describe('reference plans on every surface', () => {
  let tasks: SampledTask[] = [];

  it(`samples ${TASKS_PER_TEMPLATE} solvable tasks per template`, async () => {
    tasks = await sampleTasks();
    expect(tasks).toHaveLength(TASK_TEMPLATES.length * TASKS_PER_TEMPLATE);
    expect(new Set(tasks.flatMap((t) => t.steps.map((s) => s.tool))).size).toBeGreaterThanOrEqual(10);
  }, 60_000);

  it.each(BUILTIN_SURFACES.map((s) => [s.id, s] as const))(
    'every step translates to %s, resolves back to the same kernel call, and the plan still finishes correctly',
    async (_id, surface) => {
      expect(tasks.length).toBeGreaterThan(0);
      for (const task of tasks) {
        let state = initialState();
        const deps = referenceDeps(task.gold);
        for (const planStep of task.steps) {
          const call: KernelCall = { tool: planStep.tool, args: planStep.args };
          const translated = translateCall(surface, call);
          if (!translated.ok) throw new Error(`${task.templateId}: ${translated.reason}`);
          const resolved = resolveCall(surface, translated.tool, translated.args);
          expect(resolved.kind === 'call' && resolved.call, task.templateId).toEqual(call);
          const got = await stepSurface(
            world,
            surface,
            state,
            reactText(translated.tool, jsonText(translated.args)),
            deps,
          );
          expect(got.observation, `${task.templateId} ${planStep.tool}`).toBe(planStep.observation);
          state = got.state;
        }
        expect(state.finished).toBe(true);
        expect(state.correct, task.templateId).toBe(true);
        expect(state.steps).toBe(task.steps.length);
      }
    },
    60_000,
  );
});
