/**
 * The per-dataset few-shot pools of the ToolEvo prompt (spec §5.1: one of two UpdateTool examples and two
 * examples of the task's dataset per generation call): every dataset has a pool of its own, each recorded example
 * replays exactly on the world it was recorded on, and no example question is a task-template question.
 */
import { describe, expect, it } from 'vitest';
import {
  drawFewShots,
  FEW_SHOT_WORLD,
  FEW_SHOTS_PER_CALL,
  FIXED_FEW_SHOT_IDS,
  TOOLEVO_FEW_SHOTS,
  TOOLEVO_UPDATE_EXAMPLES,
} from '../../../core/prompts/few-shots.ts';
import { renderToolEvoPrompt } from '../../../core/prompts/toolevo.ts';
import { matchQuestion } from '../../../core/sim/questions.ts';
import { PC_SURFACE } from '../../../core/surfaces/builtin.ts';
import { Rng } from '../../../core/util/random.ts';
import { callKernel } from '../../../core/world/kernel/kernel.ts';
import { initialState } from '../../../core/world/kernel/state.ts';
import { createKernelDeps } from '../../../core/world/kernel-deps.ts';
import { DATASET_NAMES } from '../../../core/world/types.ts';
import { generateWorld } from '../../../core/world/world.ts';

describe('few-shot pools', () => {
  it(`give every dataset at least ${FEW_SHOTS_PER_CALL} examples of its own, and two UpdateTool examples`, () => {
    for (const dataset of DATASET_NAMES) {
      const own = TOOLEVO_FEW_SHOTS.filter((e) => e.dataset === dataset);
      expect(own.length, dataset).toBeGreaterThanOrEqual(FEW_SHOTS_PER_CALL);
    }
    expect(new Set(TOOLEVO_FEW_SHOTS.map((e) => e.id)).size).toBe(TOOLEVO_FEW_SHOTS.length);
    expect(TOOLEVO_UPDATE_EXAMPLES).toHaveLength(2);
    for (const u of TOOLEVO_UPDATE_EXAMPLES) {
      expect(u).toMatch(/Observation: Error: \w+\[[^\]]*\] is deprecated/);
      expect(u).toContain('Action: UpdateTool');
    }
  });

  it('draw, per call and by seed, one UpdateTool example and two examples of the task dataset only', () => {
    for (const dataset of DATASET_NAMES) {
      const seen = new Set<string>();
      const updates = new Set<string>();
      for (let i = 0; i < 40; i++) {
        const a = drawFewShots(dataset, new Rng(`pool/${dataset}/${i}`));
        const b = drawFewShots(dataset, new Rng(`pool/${dataset}/${i}`));
        expect(a).toEqual(b);
        expect(a.examples).toHaveLength(FEW_SHOTS_PER_CALL);
        expect(new Set(a.examples.map((e) => e.id)).size).toBe(FEW_SHOTS_PER_CALL);
        for (const e of a.examples) {
          expect(e.dataset).toBe(dataset);
          seen.add(e.id);
        }
        updates.add(a.update);
      }
      // Every example of the pool and both UpdateTool examples are drawn for some seed.
      expect(seen.size, dataset).toBe(TOOLEVO_FEW_SHOTS.filter((e) => e.dataset === dataset).length);
      expect(updates.size, dataset).toBe(2);
    }
  });

  it("show the task dataset's own examples in the agent prompt", () => {
    for (const dataset of DATASET_NAMES) {
      const prompt = renderToolEvoPrompt({
        question: 'What is the answer?',
        docs: PC_SURFACE,
        fewShots: { dataset, seed: `prompt/${dataset}` },
      });
      const shown = TOOLEVO_FEW_SHOTS.filter((e) => prompt.includes(`Question: ${e.question}\n`));
      expect(shown.map((e) => e.dataset)).toEqual([dataset, dataset]);
    }
  });

  it('ask no task-template question', () => {
    for (const e of TOOLEVO_FEW_SHOTS) expect(matchQuestion(e.question), e.id).toBeNull();
  });

  it('are recorded on the few-shot world, except the three fixed (hand-edited) examples', () => {
    for (const e of TOOLEVO_FEW_SHOTS)
      expect(e.recorded === true, e.id).toBe(!(FIXED_FEW_SHOT_IDS as readonly string[]).includes(e.id));
  });

  it('replay exactly: each observation is what the kernel returns on that world, and Finish is judged correct', async () => {
    const world = generateWorld(FEW_SHOT_WORLD);
    const recorded = TOOLEVO_FEW_SHOTS.filter((e) => e.recorded);
    expect(recorded.length).toBeGreaterThanOrEqual(2 * DATASET_NAMES.length - FIXED_FEW_SHOT_IDS.length);
    for (const example of recorded) {
      const finish = example.steps.at(-1);
      expect(finish?.call.tool, example.id).toBe('Finish');
      const deps = createKernelDeps({ gold: finish?.call.args.answer });
      let state = initialState();
      for (const [i, step] of example.steps.entries()) {
        const r = await callKernel(world, state, step.call, deps);
        state = r.state;
        const where = `${example.id} step ${i} (${step.call.tool})`;
        expect(r.observation, where).toBe(step.observation);
        expect(r.outcome, where).toEqual(
          step.call.tool === 'Finish' ? { kind: 'finished', correct: true } : { kind: 'ok' },
        );
        expect(step.ok, where).toBe(true);
      }
    }
  });
});
