/**
 * Kernel refusals (issue 24 item 6): a call a sandbox would not run — the SQL guard refusing a query, a query the
 * engine fails on, a Python program that ran out of its evaluation budget or is too long to parse — is reported
 * with its own outcome kind (`refused`, with a reason), not `ok`, while the agent still sees the tool's own error
 * text (ToolQA-D's observations are unchanged). On a surface with a wrapped response format it is a failure.
 */
import { describe, expect, it } from 'vitest';
import { SQL_ERROR_OBSERVATION } from '../../../core/sandbox/sql/run.ts';
import { stepSurface } from '../../../core/surfaces/adapter.ts';
import { PC_SURFACE } from '../../../core/surfaces/builtin.ts';
import type { Surface } from '../../../core/surfaces/model.ts';
import { callKernel } from '../../../core/world/kernel/kernel.ts';
import { initialState } from '../../../core/world/kernel/state.ts';
import { createKernelDeps } from '../../../core/world/kernel-deps.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { nodeSqliteMirror } from '../../../scripts/lib/node-sqlite.ts';

const world = generateWorld({ seed: 'refusals', scale: 0.01 });
const deps = createKernelDeps({ sql: nodeSqliteMirror(world).executor });
const call = (tool: 'SQLInterpreter' | 'PythonInterpreter', args: Record<string, unknown>) =>
  callKernel(world, initialState(), { tool, args }, deps);

describe('kernel refusals', () => {
  it('reports a query the SQL guard refuses as refused (sql-guard), with the tool’s error text', async () => {
    const r = await call('SQLInterpreter', { SQL: 'DELETE FROM coffee_data' });
    expect(r.observation).toBe(SQL_ERROR_OBSERVATION);
    expect(r.outcome).toEqual({ kind: 'refused', reason: 'sql-guard' });
  });

  it('reports a query the engine fails on as refused (sql-engine)', async () => {
    const r = await call('SQLInterpreter', { SQL: 'SELECT no_such_column FROM coffee_data' });
    expect(r.observation).toBe(SQL_ERROR_OBSERVATION);
    expect(r.outcome).toEqual({ kind: 'refused', reason: 'sql-engine' });
  });

  it('keeps a query that runs ok, empty result included', async () => {
    const r = await call('SQLInterpreter', { SQL: "SELECT Date FROM coffee_data WHERE Date = 'never'" });
    expect(r.outcome).toEqual({ kind: 'ok' });
  });

  it('reports a Python program that exhausts its budget (python-timeout) or is too long (python-too-long)', async () => {
    const loop = await call('PythonInterpreter', { Python: 'while True:\n    pass' });
    expect(loop.observation).toMatch(/^TimeoutError: /);
    expect(loop.outcome).toEqual({ kind: 'refused', reason: 'python-timeout' });
    const long = await call('PythonInterpreter', { Python: `x = 1\n${'#'.repeat(100_001)}` });
    expect(long.observation).toMatch(/^MemoryError: the program is longer than/);
    expect(long.outcome).toEqual({ kind: 'refused', reason: 'python-too-long' });
  });

  it('keeps Python exceptions of the program itself as the tool’s answer (ok), as ToolQA-D does', async () => {
    const r = await call('PythonInterpreter', { Python: 'print(1/0)' });
    expect(r.observation).toMatch(/^ZeroDivisionError/);
    expect(r.outcome).toEqual({ kind: 'ok' });
  });

  it('formats a refusal as a failure on a wrapped surface', async () => {
    const wrapped: Surface = {
      ...PC_SURFACE,
      id: 'wrapped',
      response: {
        kind: 'wrapped',
        stateKey: 'State',
        messageKey: 'Message',
        success: 'Success',
        failure: 'Failure',
      },
    };
    const step = await stepSurface(
      world,
      wrapped,
      initialState(),
      { action: 'SQLInterpreter', actionInput: { SQL: 'DROP TABLE coffee_data' } },
      deps,
    );
    expect(step.outcome).toEqual({ kind: 'refused', reason: 'sql-guard' });
    expect(JSON.parse(step.observation)).toEqual({ State: 'Failure', Message: SQL_ERROR_OBSERVATION });
  });
});
