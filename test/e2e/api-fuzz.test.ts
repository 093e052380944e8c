/**
 * Issue 24's black-box check, in CI: the API fuzz (scripts/lib/api-fuzz.ts) over every operation of /openapi.json
 * with two user keys against the shared local instance finds no 5xx, no error that is not problem+json, no unpaged
 * list, no body or query with an unknown field accepted, no answer to the other key's resources and no 2xx for an
 * id that names nothing (in the path or an id filter such as `?run=`). The 10,000-request run is
 * `npm run fuzz -- --requests 10000` against `npm start`; CI runs a smaller seeded sample.
 */
import { describe, expect, inject, it } from 'vitest';
import { runApiFuzz } from '../../scripts/lib/api-fuzz.ts';

const baseUrl = inject('baseUrl');
const userKey = inject('userKey');
const adminKey = inject('adminKey');

describe('API fuzz against the local instance (issue 24)', () => {
  it('finds nothing over every operation with two keys', async () => {
    const report = await runApiFuzz({ baseUrl, key: userKey, adminKey, requests: 500, seed: 'ci' });
    expect(report.findings).toEqual([]);
    expect(report.requests).toBe(500);
    // The sample reaches (nearly) every operation and exercises each check.
    expect(report.covered).toBeGreaterThanOrEqual(report.operations - 5);
    expect(report.checked.strictBodies).toBeGreaterThan(10);
    expect(report.checked.strictQueries).toBeGreaterThan(10);
    expect(report.checked.lists).toBeGreaterThan(10);
    expect(report.checked.foreign).toBeGreaterThan(5);
    expect(report.checked.unknownIds).toBeGreaterThan(10);
  }, 600_000);
});
