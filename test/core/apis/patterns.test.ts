import { describe, expect, it } from 'vitest';
import { riskyPattern } from '../../../core/apis/import/patterns.ts';
import { imported } from './data.ts';

describe('patterns an imported document carries', () => {
  it('flags the shapes that backtrack catastrophically and leaves ordinary ones', () => {
    for (const p of ['^(a+)+$', '(a*)*b', '(a|aa)+$', '^(\\w+\\s?)*$', '(.*a){12}', '(x+x+)+y', '(a)\\1']) {
      expect(riskyPattern(p), p).toBe(true);
    }
    for (const p of [
      '^[a-z]+$',
      '^\\d{4}-\\d{2}-\\d{2}$',
      '^[A-Z]{3}$',
      '^(GET|POST)$',
      '^tt\\d+$',
      '^(\\+\\d{1,3})?\\d{10}$',
      '[(]a+[)]+',
    ]) {
      expect(riskyPattern(p), p).toBe(false);
    }
  });

  it('drops a risky pattern from the catalog with a warning, so validating a crafted value stays fast', async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'Risky', version: '1' },
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            parameters: [{ name: 'name', in: 'query', schema: { type: 'string', pattern: '^(a+)+$' } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    const { catalog, document } = await imported(JSON.stringify(doc));
    const param = catalog.operations[0]?.params[0];
    expect(param?.schema).toEqual({ type: 'string' });
    expect(
      catalog.warnings.some((w) => w.operation === 'listThings' && w.message.includes('backtrack')),
    ).toBe(true);
    // The stored document keeps the author's pattern.
    expect(JSON.stringify(document)).toContain('^(a+)+$');
  });
});
