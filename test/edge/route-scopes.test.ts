/**
 * Resource scopes (`routes.on(params, load)`, `functions/http/openapi.ts`) and body fields that name a stored
 * resource (`namesResource`): the 404 they imply is both answered and documented, the key check runs before the
 * lookup (so a missing key cannot probe which ids exist), and a stream on a missing resource is a 404, not a stream.
 */
import { describe, expect, it } from 'vitest';
import { call, expectProblem, postJson, USER_KEY } from './helpers.ts';

type Operation = { responses: Record<string, { content?: Record<string, unknown> }> };

async function operation(path: string, method: string): Promise<Operation> {
  const doc = (await (await call('/openapi.json')).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`no ${method} ${path} in /openapi.json`);
  return op;
}

describe('routes on one resource', () => {
  it('asks for the key before looking the resource up', async () => {
    await expectProblem(await call('/v1/toolsets/no-such-toolset'), 401, 'unauthorized');
    await expectProblem(await call('/v1/schedules/no-such-schedule'), 401, 'unauthorized');
  });

  it('answers a missing resource with its 404, naming it', async () => {
    const cases: [string, string][] = [
      ['/v1/toolsets/nope-1', 'No toolset with id nope-1.'],
      ['/v1/toolsets/nope-2/training', 'No toolset with id nope-2.'],
      ['/v1/toolsets/nope-3/training/2', 'No toolset with id nope-3.'],
      ['/v1/schedules/nope-4', 'No schedule with id nope-4.'],
      ['/v1/evals/nope-5/results', 'No evaluation with id nope-5.'],
      ['/v1/draft/runs/nope-6', 'No DRAFT run with id nope-6.'],
      ['/v1/docsets/nope-7/diff?against=parent', 'No documentation set with id nope-7.'],
      ['/v1/ste/runs/nope-8/memory', 'No STE run with id nope-8.'],
      ['/v1/trajectories/nope-9', 'No trajectory with id nope-9.'],
      ['/v1/surfaces/nope-10', 'No surface with id nope-10.'],
    ];
    for (const [path, detail] of cases) {
      const body = await expectProblem(await call(path, { key: USER_KEY }), 404, 'not-found');
      expect(body.detail, path).toBe(detail);
    }
  });

  it('validates the path parameters before the lookup', async () => {
    const res = await call('/v1/toolsets/x/training/not-a-number', { key: USER_KEY });
    await expectProblem(res, 400, 'validation-error');
  });

  it('answers 404 for an event stream on a missing resource instead of opening the stream', async () => {
    for (const path of [
      '/v1/explorations/nope/events',
      '/v1/ste/runs/nope/events',
      '/v1/trees/nope/events',
    ]) {
      const res = await call(path, { key: USER_KEY });
      expect(res.headers.get('content-type'), path).not.toContain('text/event-stream');
      await expectProblem(res, 404, 'not-found');
    }
  });

  it('documents the 404 a scope implies, beside the route’s own problems', async () => {
    const train = await operation('/v1/toolsets/{id}/train', 'post');
    // 200: a dry run's estimate (edge/metering.ts); 202: the training queued.
    expect(Object.keys(train.responses)).toEqual([
      '200',
      '202',
      '400',
      '401',
      '404',
      '409',
      '413',
      '415',
      '429',
    ]);
    const events = await operation('/v1/ste/runs/{id}/events', 'get');
    expect(Object.keys(events.responses)).toEqual(['200', '400', '401', '404', '429']);
    expect(Object.keys(events.responses['200']?.content ?? {})).toEqual(['text/event-stream']);
  });
});

describe('body fields that name a stored resource', () => {
  it('document the 404 only on routes whose body has one', async () => {
    for (const [path, method] of [
      ['/v1/solve', 'post'],
      ['/v1/explorations', 'post'],
      ['/v1/sessions', 'post'],
      ['/v1/kernel/call', 'post'],
      ['/v1/draft/runs', 'post'],
    ] as const) {
      expect(Object.keys((await operation(path, method)).responses), path).toContain('404');
    }
    // A watch's surface is not marked: an unknown one fails the body's validation (400), so there is no 404.
    expect(Object.keys((await operation('/v1/draft/watches', 'post')).responses)).not.toContain('404');
  });

  it('answer 404 when the named resource does not exist', async () => {
    const task = await expectProblem(
      await postJson('/v1/solve', { taskId: 'no-such-task' }),
      404,
      'not-found',
    );
    expect(task.detail).toBe('No task with id no-such-task.');
    const res = await postJson('/v1/kernel/call', { tool: 'Finish', args: { answer: '1' }, taskId: 'nope' });
    expect((await expectProblem(res, 404, 'not-found')).detail).toBe('No task with id nope.');
  });
});
