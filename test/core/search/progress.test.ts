import { describe, expect, it } from 'vitest';
import { explorationComplete, rewardProgress } from '../../../core/search/progress.ts';

describe('rewardProgress', () => {
  it('is empty before any terminal node', () => {
    expect(rewardProgress([{ reward: null, ending: null }])).toEqual({ bestReward: null, solved: false });
  });

  it('takes the best terminal reward and is solved only by a Finish with reward +1', () => {
    expect(
      rewardProgress([
        { reward: null, ending: null },
        { reward: -1, ending: 'finish' },
        { reward: -1, ending: 'depth' },
      ]),
    ).toEqual({ bestReward: -1, solved: false });
    expect(
      rewardProgress([
        { reward: -1, ending: 'finish' },
        { reward: 1, ending: 'finish' },
      ]),
    ).toEqual({ bestReward: 1, solved: true });
  });

  it('does not call a +1 reward on another ending solved', () => {
    expect(rewardProgress([{ reward: 1, ending: 'depth' }])).toEqual({ bestReward: 1, solved: false });
  });
});

describe('explorationComplete', () => {
  it('waits while a tree is queued or running', () => {
    expect(explorationComplete({ queued: 1, succeeded: 3 })).toBe(false);
    expect(explorationComplete({ running: 1 })).toBe(false);
  });

  it('is complete when every tree settled, whatever the outcome', () => {
    expect(explorationComplete({ succeeded: 2, failed: 1, cancelled: 4 })).toBe(true);
    expect(explorationComplete({})).toBe(true);
  });
});
