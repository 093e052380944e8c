import { describe, expect, it } from 'vitest';
import { currentStageChange, stageTrigger } from '../../../core/ste/schedule.ts';
import { steSftRecords } from '../../../core/ste/sft.ts';
import { exploredTools, steTargetTools, surfaceVersion } from '../../../core/ste/targets.ts';
import { PC_SURFACE, S_IN_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { generateSurface } from '../../../core/surfaces/drift/generate.ts';
import { checkSftRecord } from '../../../gpu-jobs/validate.ts';

describe('STE targets', () => {
  it('explores every tool but Finish and UpdateTool, or only those changed since a surface', () => {
    expect(exploredTools(PC_SURFACE)).toHaveLength(11);
    expect(exploredTools(PC_SURFACE)).not.toContain('Finish');
    expect(steTargetTools(S_IN_SURFACE, { since: S_IN_SURFACE })).toEqual([]);
    expect(steTargetTools(S_OOD_SURFACE, { since: S_IN_SURFACE })).toEqual(exploredTools(S_OOD_SURFACE));
    // A generated surface that only renames some tools: only those are targeted.
    const renamed = generateSurface(PC_SURFACE, { seed: 'ste-targets', kinds: ['rename-tool'] });
    const changed = steTargetTools(renamed, { since: PC_SURFACE });
    const names = new Set(PC_SURFACE.tools.map((t) => t.name));
    expect(changed.length).toBeGreaterThan(0);
    for (const t of changed) expect(names.has(t)).toBe(false);
  });

  it('versions a surface by its content', () => {
    expect(surfaceVersion(S_OOD_SURFACE)).toBe(surfaceVersion(structuredClone(S_OOD_SURFACE)));
    expect(surfaceVersion(S_OOD_SURFACE)).not.toBe(surfaceVersion({ ...S_OOD_SURFACE, title: 'other' }));
  });

  it('launches on a stage change only, once per stage', () => {
    const schedule = {
      id: 's',
      stages: [
        { surface: 'pc', effectiveFrom: '2026-01-01' },
        { surface: 's-in', effectiveFrom: '2026-02-01' },
        { surface: 's-ood', effectiveFrom: '2026-03-01T12:00:00Z' },
      ],
    };
    expect(currentStageChange(schedule, new Date('2025-12-01'))).toBeNull();
    expect(currentStageChange(schedule, new Date('2026-01-20'))).toBeNull();
    const second = currentStageChange(schedule, new Date('2026-02-01'));
    expect(second).toMatchObject({ stageIndex: 1, surface: 's-in', previous: 'pc' });
    expect(currentStageChange(schedule, new Date('2026-03-02'))).toMatchObject({
      stageIndex: 2,
      previous: 's-in',
    });
    expect(stageTrigger('s', second as never)).toBe('ste-schedule:s:1');
  });

  it('turns an exemplar into two SFT records that gpu-jobs validates (the call, then the answer)', () => {
    const [call, answer] = steSftRecords(
      {
        id: 'Init_DB/0.0',
        tool: 'Init_DB',
        query: 'Which columns does the "coffee" database have?',
        action: 'Init_DB',
        actionInput: '{"databaseIdentifier": "coffee"}',
        observation:
          'We have successfully loaded the coffee database, including the following columns: Date.',
        finalAnswer: 'Date',
        episode: 0,
        trial: 0,
      },
      { documentation: 'agent-prompt', docs: S_OOD_SURFACE },
    );
    expect(checkSftRecord(call).problems).toEqual([]);
    expect(checkSftRecord(answer).problems).toEqual([]);
    expect(call.messages[2].content).toContain(
      'Action: Init_DB\n\nAction Input: {"databaseIdentifier": "coffee"}',
    );
    expect(answer.messages[1].content).toContain(
      'Observation: We have successfully loaded the coffee database',
    );
    expect(answer.messages[2].content).toContain('Action: Finish\n\nAction Input: {"answer": "Date"}');
  });
});
