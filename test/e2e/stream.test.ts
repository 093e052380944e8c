/**
 * A drift stream end to end on the local instance (issue 26): created with the CLI on a per-minute cron cadence,
 * advanced by wrangler's local cron trigger (`/__scheduled`, fired three times for the due time: two at once, as
 * retried and overlapping ticks would, and once more) exactly once, then by hand with `tooldrift stream advance`,
 * and shown with `tooldrift stream status`.
 */
import { describe, expect, inject, it } from 'vitest';
import type { StreamDetail } from '../../cli/commands/stream.ts';
import { tooldrift } from './run-cli.ts';

const baseUrl = inject('baseUrl');
const userKey = inject('userKey');

async function stream(id: string): Promise<StreamDetail> {
  const res = await fetch(`${baseUrl}/v1/streams/${id}`, { headers: { authorization: `Bearer ${userKey}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as StreamDetail;
}

async function fireCron(): Promise<void> {
  const res = await fetch(`${baseUrl}/__scheduled?cron=${encodeURIComponent('*/5 * * * *')}`);
  expect(res.status).toBe(200);
}

describe('a drift stream on the local instance', () => {
  it('is advanced once per due time by the local cron trigger, and by hand from the CLI', async () => {
    const created = await tooldrift([
      'stream',
      'create',
      '--name',
      'e2e stream',
      '--seed',
      '21',
      '--intensity',
      'rename-tool=2',
      '--cron',
      '* * * * *',
      '--window-seconds',
      '3600',
      '--json',
    ]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const s = JSON.parse(created.stdout) as StreamDetail;
    const due = Date.parse(s.nextDueAt as string);
    expect(due % 60_000).toBe(0);

    // Ticks before the due time do nothing.
    await fireCron();
    expect((await stream(s.id)).currentRelease).toBe(0);

    // The due time: a retried and an overlapping tick, then a later one — one release.
    await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now()) + 500));
    await Promise.all([fireCron(), fireCron()]);
    await fireCron();
    const deadline = Date.now() + 60_000;
    let after = await stream(s.id);
    while (after.currentRelease === 0) {
      if (Date.now() > deadline) throw new Error(`the stream was not advanced: ${JSON.stringify(after)}`);
      await new Promise((r) => setTimeout(r, 250));
      after = await stream(s.id);
    }
    await fireCron(); // still inside the same minute or the next: the next due time is at least a minute on
    await new Promise((r) => setTimeout(r, 2_000));
    after = await stream(s.id);
    const cronReleases = after.releases.filter((r) => r.trigger === 'cron');
    expect(cronReleases.map((r) => r.dueAt)).toEqual(
      [...new Set(cronReleases.map((r) => r.dueAt))], // never two releases for one due time
    );
    expect(cronReleases[0]).toMatchObject({ n: 1, dueAt: new Date(due).toISOString() });
    expect(cronReleases[0]?.diff?.retired).toHaveLength(2);

    // By hand, from the CLI.
    const advanced = await tooldrift(['stream', 'advance', s.id]);
    expect(advanced.stderr).toBe('');
    expect(advanced.stdout).toMatch(
      new RegExp(
        `^Release ${after.currentRelease + 1} of stream ${s.id} \\(stream-${s.id}-r${after.currentRelease + 1}\\)`,
      ),
    );
    const status = await tooldrift(['stream', 'status', s.id]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(
      `Stream ${s.id} "e2e stream" — kernel, seed 21, rename-tool×2 per release`,
    );
    expect(status.stdout).toMatch(/\n1\s+\S+\s+cron\s+2\s+\S+→/);
    expect(status.stdout).toMatch(new RegExp(`\\n${after.currentRelease + 1}\\s+\\S+\\s+manual\\s+\\d+\\s`));
  }, 180_000);
});
