/**
 * Issue 13 done-when: the hostile requests of items 1–5 (scripts/lib/hostile-corpus.ts) each answer within 2 s
 * against the local instance while a concurrent /health probe answers within 1 s, every one is refused, and
 * nothing leaks. The same corpus runs by hand with `npm run hostile`.
 */
import { describe, expect, inject, it } from 'vitest';
import { runHostile } from '../../scripts/lib/hostile-corpus.ts';

const baseUrl = inject('baseUrl');
const userKey = inject('userKey');

describe('hostile corpus against the local instance (issue 13)', () => {
  it('refuses every SQL, Python and JSON case quickly, with /health answering meanwhile and nothing leaked', async () => {
    const report = await runHostile({ baseUrl, key: userKey });
    const bad = report.results.filter((r) => !r.refused || r.slow || r.leaked);
    expect(bad).toEqual([]);
    expect(report.tried).toBeGreaterThanOrEqual(50);
    expect(new Set(report.results.map((r) => r.category))).toEqual(new Set(['sql', 'python', 'json']));
    expect(report).toMatchObject({ refused: report.tried, slow: 0, leaked: 0 });
  }, 300_000);
});
