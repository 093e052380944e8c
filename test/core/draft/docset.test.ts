/**
 * Documentation sets as values: the starting set of a surface, renderings like a surface's documentation, the
 * prompt surface an agent reads, diffs, refined MCP descriptions — and docs that follow drift (which tools a
 * changed surface re-documents, once per change).
 */
import { describe, expect, it } from 'vitest';
import { resolveDraftOptions } from '../../../core/draft/config.ts';
import { initialDocSet } from '../../../core/draft/docset.ts';
import {
  changedKernels,
  followTrigger,
  keysForKernels,
  surfaceFingerprint,
  watchedSurfaceId,
} from '../../../core/draft/follow.ts';
import {
  docsetDiff,
  docsetJsonSchema,
  docsetOpenApi,
  docsetPromptSurface,
  docsetToolList,
  refinedDescriptions,
  refineMcpTools,
} from '../../../core/draft/render.ts';
import { startDocSet } from '../../../core/draft/run.ts';
import { PC_SURFACE, S_IN_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { mcpTools, renderToolList } from '../../../core/surfaces/docs.ts';
import { generateSurface } from '../../../core/surfaces/drift/index.ts';

const options = resolveDraftOptions();

function refinedSet() {
  const set = initialDocSet(PC_SURFACE, 's-in', 'm', true, options);
  set.tools = set.tools.map((t) =>
    t.key === 'FilterDB'
      ? {
          ...t,
          doc: {
            name: 'Apply_Database_Filters',
            params: [
              { name: 'condition1', required: true },
              { name: 'condition2', required: false },
              { name: '...', required: false },
            ],
            description: 'which filters the loaded database.',
            example: { condition1: 'Origin=ATL' },
          },
        }
      : t,
  );
  return set;
}

describe('documentation sets', () => {
  it('start from a surface exactly as its prompt list documents it', () => {
    const set = initialDocSet(PC_SURFACE, 's-in', 'm', true, options);
    // The same lines (a documentation line is trimmed: §5.1's trailing spaces are not documentation).
    expect(docsetToolList(set)).toBe(renderToolList(PC_SURFACE).replace(/ +$/gm, ''));
    expect(set.categories.map((c) => c.name)).toEqual(['retrieval', 'database', 'graph', 'code', 'control']);
    expect(set.tools.every((t) => t.stop === 'not-explored' && t.versions.length === 1)).toBe(true);
  });

  it('render like a surface: the prompt surface, JSON Schema with the learned example, OpenAPI tagged by category', () => {
    const set = refinedSet();
    const prompt = docsetPromptSurface(set, PC_SURFACE);
    expect(renderToolList(prompt).split('\n')[3]).toBe(
      '(4) Apply_Database_Filters[condition1, condition2, ...], which filters the loaded database.',
    );
    expect(renderToolList(prompt).replace(/ +$/gm, '')).toBe(docsetToolList(set));
    const schema = docsetJsonSchema(set) as {
      tools: { name: string; inputSchema: Record<string, unknown> }[];
    };
    expect(schema.tools[3]?.inputSchema).toMatchObject({
      required: ['condition1'],
      additionalProperties: true,
      examples: [{ condition1: 'Origin=ATL' }],
    });
    const openapi = docsetOpenApi(set) as { paths: Record<string, { post: { tags: string[] } }> };
    expect(openapi.paths['/v1/sessions/{id}/tools/Apply_Database_Filters']?.post.tags).toEqual(['database']);
  });

  it('diff per tool key, and serve refined descriptions over MCP under the served names only', () => {
    const before = initialDocSet(PC_SURFACE, 's-in', 'm', true, options);
    const diff = docsetDiff(refinedSet(), before);
    expect(diff.filter((d) => d.changed).map((d) => d.key)).toEqual(['FilterDB']);
    const tools = refineMcpTools(mcpTools(S_IN_SURFACE), refinedDescriptions(refinedSet()));
    expect(tools.find((t) => t.name === 'Apply_Database_Filters')?.description).toBe(
      'Apply_Database_Filters[condition1, condition2, ...], which filters the loaded database.',
    );
    const own = mcpTools(S_IN_SURFACE).find((t) => t.name === 'InitializeDatabase');
    expect(tools.find((t) => t.name === 'InitializeDatabase')).toEqual(own);
  });

  it('continue a stored set: its documentation and history are the start, the parent is named', () => {
    const set = refinedSet();
    const next = startDocSet({
      from: { id: 'docset-1', set },
      server: 's-ood',
      model: 'm2',
      simulated: false,
    });
    expect(next).toMatchObject({
      parent: 'docset-1',
      source: { docs: 'pc', server: 's-ood' },
      simulated: true,
    });
    expect(next.tools[3]?.doc.name).toBe('Apply_Database_Filters');
  });
});

describe('docs that follow drift', () => {
  it('re-documents only the tools whose served API changed', () => {
    const pcPrint = surfaceFingerprint(PC_SURFACE);
    expect(changedKernels(pcPrint, pcPrint)).toEqual([]);
    expect(changedKernels(null, pcPrint)).toHaveLength(Object.keys(pcPrint).length);
    const renamed = generateSurface(PC_SURFACE, { seed: 'follow', kinds: ['rename-tool'] });
    const changed = changedKernels(pcPrint, surfaceFingerprint(renamed));
    expect(changed.length).toBeGreaterThan(0);
    const keys = keysForKernels(PC_SURFACE, changed);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys).not.toContain('Finish'); // control tools are not explored
    for (const key of keys) {
      const kernel = PC_SURFACE.tools.find((t) => t.name === key)!.kernel;
      expect(renamed.tools.find((t) => t.kernel === kernel)?.name).not.toBe(key);
    }
    expect(keysForKernels(PC_SURFACE, changed, ['LoadDB'])).toEqual(
      keys.includes('LoadDB') ? ['LoadDB'] : [],
    );
  });

  it('keys a change by the watch and the new fingerprint: the same change twice is the same trigger', () => {
    const a = surfaceFingerprint(S_IN_SURFACE);
    expect(followTrigger('w', a)).toBe(followTrigger('w', surfaceFingerprint(S_IN_SURFACE)));
    expect(followTrigger('w', a)).not.toBe(followTrigger('w', surfaceFingerprint(S_OOD_SURFACE)));
    expect(followTrigger('w', a)).not.toBe(followTrigger('v', a));
  });

  it("follows a schedule's stage in force", () => {
    const schedule = {
      id: 's',
      stages: [
        { surface: 's-in', effectiveFrom: '2020-01-01' },
        { surface: 's-ood', effectiveFrom: '2030-01-01' },
      ],
    };
    const surfaces = { 's-in': S_IN_SURFACE, 's-ood': S_OOD_SURFACE };
    expect(watchedSurfaceId({ schedule }, surfaces, new Date('2025-01-01'))).toBe('s-in');
    expect(watchedSurfaceId({ schedule }, surfaces, new Date('2031-01-01'))).toBe('s-ood');
    expect(watchedSurfaceId({ surface: 'x' }, surfaces, new Date())).toBe('x');
  });
});
