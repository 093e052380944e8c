/** Progress on stderr: redrawn in place on a terminal, plain throttled lines otherwise (CI logs, pipes). */
import { describe, expect, it } from 'vitest';
import { formatElapsed, Progress, renderBar } from '../../../cli/progress.ts';

function setup(tty: boolean) {
  let t = 1_000_000;
  const out: string[] = [];
  const progress = new Progress({
    label: 'eval ev_1',
    unit: 'task runs',
    tty,
    write: (s) => out.push(s),
    now: () => t,
    intervalMs: 5_000,
    width: 10,
  });
  return { progress, out, advance: (ms: number) => (t += ms) };
}

describe('Progress', () => {
  it('redraws one line on a terminal and ends it on finish', () => {
    const { progress, out, advance } = setup(true);
    progress.update(0, 40);
    advance(1_000);
    progress.update(10, 40);
    advance(65_000);
    progress.finish(40, 40, 'done');
    expect(out).toEqual([
      '\r\x1b[2Keval ev_1 [----------] 0/40 task runs 0% 0:00',
      '\r\x1b[2Keval ev_1 [##--------] 10/40 task runs 25% 0:01',
      '\r\x1b[2Keval ev_1 [##########] 40/40 task runs 100% 1:06 done\n',
    ]);
  });

  it('writes plain lines at most every interval without escape codes, and always the final one', () => {
    const { progress, out, advance } = setup(false);
    progress.update(0, 40);
    advance(2_000);
    progress.update(5, 40); // within the interval: skipped
    advance(3_000);
    progress.update(12, 40);
    advance(1_000);
    progress.finish(40, 40, 'done');
    progress.update(40, 40); // after finish: nothing
    expect(out).toEqual([
      'eval ev_1: 0/40 task runs 0%, 0:00 elapsed\n',
      'eval ev_1: 12/40 task runs 30%, 0:05 elapsed\n',
      'eval ev_1: 40/40 task runs 100%, 0:06 elapsed done\n',
    ]);
    expect(out.join('')).not.toContain('\x1b');
  });

  it('abort ends a drawn terminal line once and does nothing elsewhere', () => {
    const tty = setup(true);
    tty.progress.update(1, 2);
    tty.progress.abort();
    tty.progress.abort();
    expect(tty.out.slice(1)).toEqual(['\n']);
    const plain = setup(false);
    plain.progress.update(1, 2);
    plain.progress.abort();
    expect(plain.out).toHaveLength(1);
  });

  it('renders the bar and elapsed time', () => {
    expect([renderBar(0, 0, 4), renderBar(3, 4, 4), renderBar(9, 4, 4)]).toEqual([
      '[----]',
      '[###-]',
      '[####]',
    ]);
    expect([
      formatElapsed(0),
      formatElapsed(59_999),
      formatElapsed(61_000),
      formatElapsed(3_723_000),
    ]).toEqual(['0:00', '0:59', '1:01', '1:02:03']);
  });
});
