/**
 * Retrieval with raw vs DRAFT documentation (core/draft/retrieval.ts): the pools differ only in the documented
 * tools' descriptions, and each question's gold tools are the tools its reference plan calls.
 */
import { describe, expect, it } from 'vitest';
import { resolveDraftOptions } from '../../../core/draft/config.ts';
import { initialDocSet } from '../../../core/draft/docset.ts';
import { DistractorCollisionError, docRetrievalPools } from '../../../core/draft/retrieval.ts';
import { syntheticCatalog } from '../../../core/retrieval/catalog.ts';
import { PC_SURFACE } from '../../../core/surfaces/builtin.ts';
import { generateTasks } from '../../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import { generateWorld } from '../../../core/world/world.ts';

const world = generateWorld({ seed: 'draft-retrieval', scale: 0.1 });
const tasks = (await generateTasks(world, TASK_TEMPLATES, { counts: () => ({ test: 1, dev: 0, train: 0 }) }))
  .tasks;

function refinedSet() {
  const set = initialDocSet(PC_SURFACE, 's-ood', 'm', true, resolveDraftOptions());
  set.tools = set.tools.map((t) =>
    t.key === 'FilterDB' || t.key === 'LoadGraph'
      ? {
          ...t,
          doc: { ...t.doc, name: `${t.key}_v2`, description: `which does what ${t.key} did, renamed.` },
        }
      : t,
  );
  return set;
}

const distractors = () =>
  syntheticCatalog({ seed: 'pool', tools: 50, seenTools: 0, dev: 0, testSeen: 0, testUnseen: 0 }).tools;

describe('raw vs DRAFT documentation pools', () => {
  it('hold the same tools, names and parameters; only the refined tools’ descriptions differ', () => {
    const built = docRetrievalPools(refinedSet(), PC_SURFACE, tasks, distractors());
    const explored = PC_SURFACE.tools.filter((t) => t.kernel !== 'Finish' && t.kernel !== 'UpdateTool');
    expect(built.documented).toEqual(explored.map((t) => t.name));
    expect(built.raw).toHaveLength(explored.length + 50);
    expect(built.draft.map((t) => t.name)).toEqual(built.raw.map((t) => t.name));
    expect(built.draft.map((t) => t.parameters)).toEqual(built.raw.map((t) => t.parameters));
    const differing = built.raw
      .filter((t, i) => t.description !== built.draft[i]?.description)
      .map((t) => t.name);
    expect(differing).toEqual(['FilterDB', 'LoadGraph']);
    const filter = built.draft.find((t) => t.name === 'FilterDB');
    expect(filter?.description).toContain('FilterDB_v2');
    expect(filter?.description).toContain('renamed');
    // The raw lines are the stale documentation the agent had.
    expect(built.raw.find((t) => t.name === 'FilterDB')?.description).toContain(
      PC_SURFACE.tools.find((t) => t.name === 'FilterDB')?.description,
    );
    // Seeded distractors: the same seed gives the same tail in both pools.
    expect(built.raw.slice(explored.length)).toEqual(distractors());
    expect(built.draft.slice(explored.length)).toEqual(distractors());
  });

  it('take each question’s gold tools from its reference plan, Finish excluded', () => {
    const built = docRetrievalPools(refinedSet(), PC_SURFACE, tasks, []);
    expect(built.queries).toHaveLength(tasks.length);
    for (const [i, task] of tasks.entries()) {
      const q = built.queries[i];
      expect(q?.query).toBe(task.question);
      // P_c's tool names are the kernel's, so the gold set is the plan's distinct tools without Finish.
      const used = [...new Set(task.plan.map((s) => s.tool).filter((t) => t !== 'Finish'))];
      expect(q?.tools).toEqual(used);
    }
    const loads = built.queries.filter((q) => q.tools.includes('LoadDB'));
    expect(loads.length).toBeGreaterThan(0);
    expect(built.queries.some((q) => q.tools.includes('LoadGraph'))).toBe(true);
  });

  it('refuse a distractor named like a documented tool', () => {
    expect(() =>
      docRetrievalPools(refinedSet(), PC_SURFACE, tasks, [{ name: 'LoadDB', description: 'another' }]),
    ).toThrow(DistractorCollisionError);
  });
});
