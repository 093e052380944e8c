/** Issue 13 item 12: the dashboard's pure pieces (colours, step metadata, the 403 hint) and suite changes. */
import { describe, expect, it } from 'vitest';
import { suiteChanges } from '../../../core/evals/suite.ts';
// @ts-expect-error the dashboard is plain, untyped ES modules served as static assets
import { ADMIN_KEY_HINT, ApiError } from '../../../public/dashboard/api.js';
// @ts-expect-error the dashboard is plain, untyped ES modules served as static assets
import { PALETTE, seriesColor } from '../../../public/dashboard/charts.js';
// @ts-expect-error the dashboard is plain, untyped ES modules served as static assets
import { stepMeta } from '../../../public/dashboard/views/sessions.js';

describe('dashboard pieces (issue 13 item 12)', () => {
  it('gives every series of a large chart its own colour (nine series: greedy·pc ≠ mcts·s-ood)', () => {
    const colours = Array.from({ length: 40 }, (_, i) => seriesColor(i));
    expect(new Set(colours).size).toBe(40);
    expect(colours.slice(0, PALETTE.length)).toEqual(PALETTE);
    expect(seriesColor(8)).not.toBe(seriesColor(0));
  });

  it('describes a transcript step by its time, the time since the previous step and its channel', () => {
    const a = { at: '2026-11-26T07:00:00.000Z', via: 'react' };
    const b = { at: '2026-11-26T07:00:02.500Z', via: 'rest' };
    expect(stepMeta(a, undefined)).toBe('07:00:00 · ReAct text');
    expect(stepMeta(b, a)).toBe('07:00:02 · +2.5 s · REST');
    expect(stepMeta({ via: 'mcp' }, b)).toBe('MCP');
  });

  it('turns a 403 into a message that says to use an admin key', () => {
    expect(
      new ApiError(403, { title: 'Insufficient rights', detail: 'This route requires an admin key.' })
        .message,
    ).toBe(`This route requires an admin key. ${ADMIN_KEY_HINT}`);
    expect(new ApiError(404, { title: 'Not found', detail: 'No such tree.' }).message).toBe('No such tree.');
  });

  it('names the suite settings that changed between two scheduled runs', () => {
    const base = {
      name: 'a',
      methods: ['greedy'],
      surfaces: ['pc'],
      datasets: ['coffee'],
      difficulties: ['easy'],
      split: 'test',
      sampleSize: 5,
    } as never;
    expect(suiteChanges(base, { ...(base as object), name: 'b' } as never)).toEqual([]);
    expect(
      suiteChanges(base, { ...(base as object), surfaces: ['pc', 's-in'], sampleSize: 10 } as never),
    ).toEqual(['sampleSize', 'surfaces']);
  });
});
