import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../../core/models/types.ts';
import {
  STE_FOLLOW_UP_MARKER,
  STE_JUDGE_HEADER,
  STE_LTM_INTRO,
  STE_PARAPHRASE_HEADER,
  STE_PARAPHRASE_MORE,
  STE_REFLECT_QUESTION,
} from '../../../core/prompts/ste.ts';
import {
  paraphraseCount,
  STE_EPISODES,
  STE_MAX_CALLS,
  STE_MAX_TOKENS,
  STE_PARAPHRASE_MAX,
  STE_REHEARSAL_FRACTION,
  STE_RETRIEVAL_K,
  STE_TEMPERATURE,
  STE_TRIALS,
  STE_TRIALS_CODE_DEFAULT,
} from '../../../core/ste/constants.ts';
import {
  advance,
  exploreTool,
  initialSteState,
  parseJudge,
  reflectionSolved,
  steOptions,
} from '../../../core/ste/engine.ts';
import { PC_SURFACE } from '../../../core/surfaces/builtin.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { scripted, step } from './scripted.ts';

const WORLD = generateWorld({ seed: 'ste-engine', scale: 0.1 });

const SCRIPT = [
  // episode 0, trial 0: query, LoadDB, Finish, reflection "Yes"
  'User Query: Which columns does the flights database have?\nThought: I load it.',
  step('LoadDB', '{"DBName": "flights"}'),
  step('Finish', '{"answer": "FlightDate, Airline"}'),
  'Yes, I did.',
  // episode 0, trial 1: follow-up query, four unreadable steps (the cap), reflection with "No" inside a word
  'User Query: What is in the coffee database?',
  'I am not sure.',
  'Still not sure.',
  'Hmm.',
  'Let me think.',
  'Yes. Nothing more to add.',
  // episode 1, trial 0: query (with long-term memory), LoadDB, Finish, "Yes"
  'User Query: Which columns does the coffee database have?',
  step('LoadDB', '{"DBName": "coffee"}'),
  step('Finish', '{"answer": "Date, Open"}'),
  'Yes',
  // episode 1, trial 1: follow-up query answered without any call
  'User Query: What is 6 times 7?',
  step('Finish', '{"answer": "42"}'),
  'Yes',
  // judge: e0t0 kept, e1t0 rejected (e0t1 has no final answer, e1t1 no call: not judged)
  '1. Yes\n2. Yes\n3. Yes',
  '1. Yes\n2. No\n3. Yes',
  // paraphrases of the one kept exemplar: min(round(150 / 1) − 1, 6) = 6, one a repeat
  'What columns are in the flights database?',
  'Paraphrase: List the columns of the flights database.',
  'What columns are in the flights database?',
  '"Name the flights database columns."',
  'Which fields does the flights database hold?',
  'Tell me the columns of the flights database.',
];

function userTexts(r: GenerateRequest): string {
  return r.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

describe('STE constants (spec ste.md)', () => {
  it('uses the spec values', () => {
    expect(STE_EPISODES).toBe(15);
    expect(STE_TRIALS).toBe(4);
    expect(STE_TRIALS_CODE_DEFAULT).toBe(3);
    expect(STE_MAX_CALLS).toBe(4);
    expect(STE_TEMPERATURE).toBe(1);
    expect(STE_MAX_TOKENS).toBe(360);
    expect(STE_RETRIEVAL_K).toBe(8);
    expect(STE_REHEARSAL_FRACTION).toBe(0.1);
    expect(STE_PARAPHRASE_MAX).toBe(6);
    expect(steOptions({ tool: 'LoadDB', seed: 's' })).toMatchObject({ episodes: 15, trials: 4, maxCalls: 4 });
    expect(steOptions({ tool: 'LoadDB', seed: 's', trials: 3 }).trials).toBe(3);
    expect(() => steOptions({ tool: 'LoadDB', seed: 's', trials: 0 })).toThrow(RangeError);
  });

  it('paraphrases min(round(150 / n) − 1, 6) times, rounding halves to even like Python', () => {
    const table: [number, number][] = [
      [0, 0],
      [1, 6],
      [20, 6], // round(7.5) = 8 → 7 → capped at 6
      [25, 5],
      [50, 2],
      [60, 1], // round(2.5) = 2
      [75, 1],
      [100, 1], // round(1.5) = 2
      [150, 0],
      [300, 0], // round(0.5) = 0 → never negative
    ];
    for (const [n, count] of table) expect([n, paraphraseCount(n)]).toEqual([n, count]);
  });
});

describe('STE engine with a scripted model', () => {
  it('keeps STM and LTM as specified, caps trials at 4 calls, parses reflections and filters', async () => {
    const model = scripted(SCRIPT);
    const state = await exploreTool(
      { model, world: WORLD, surface: PC_SURFACE },
      { tool: 'LoadDB', seed: 'scripted', episodes: 2, trials: 2 },
    );
    const r = model.requests;
    expect(r).toHaveLength(SCRIPT.length);
    expect(state.phase).toBe('done');

    // Long-term memory: only in the query-synthesis call that opens episode 1, one line per explored query.
    expect(userTexts(r[0] as GenerateRequest)).not.toContain(STE_LTM_INTRO);
    const opening = userTexts(r[10] as GenerateRequest);
    expect(opening).toContain(
      `${STE_LTM_INTRO}\nQuery: Which columns does the flights database have? | Solved: Yes\nQuery: What is in the coffee database? | Solved: No\n`,
    );
    expect(r[10]?.stop).toEqual(['Thought:']);
    for (const later of r.slice(11, 17)) expect(userTexts(later)).not.toContain(STE_LTM_INTRO);

    // Short-term memory: the follow-up of episode 0 continues the conversation of trial 0.
    const followUp = r[4] as GenerateRequest;
    expect(followUp.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(followUp.messages[2]?.content).toBe('User Query: Which columns does the flights database have?');
    expect(followUp.messages[4]?.content).toMatch(
      /^Observation: We have successfully loaded the flights database/,
    );
    expect(followUp.messages[6]?.content).toBe(STE_REFLECT_QUESTION);
    expect(followUp.messages[8]?.content).toContain(STE_FOLLOW_UP_MARKER);
    // Episode 1 starts a new conversation: documentation again, no earlier trial.
    expect(r[10]?.messages).toHaveLength(2);
    // Step calls stop at "Observation:", with the exploration sampling settings.
    expect(r[1]).toMatchObject({ stop: ['Observation:'], temperature: 1, maxTokens: 360 });

    // The 4-call cap: four unreadable steps, each answered with the parse error, then the reflection.
    const capped = state.trials[1];
    expect(capped?.steps).toHaveLength(4);
    expect(capped?.steps.every((s) => s.observation === PC_SURFACE.messages.filtered && !s.ok)).toBe(true);
    expect(capped?.finalAnswer).toBeNull();
    expect(userTexts(r[9] as GenerateRequest).endsWith(STE_REFLECT_QUESTION)).toBe(true);

    // Reflection: failed when "No" appears anywhere ("Nothing").
    expect(state.trials.map((t) => t.solved)).toEqual([true, false, true, true]);
    expect(state.memory.map((m) => m.solved)).toEqual([true, false, true, true]);

    // Filter: only trials with a final answer and a call are judged; any "No" rejects.
    expect(state.verdicts.map((v) => v.kind)).toEqual(['kept', 'no-final-answer', 'rejected', 'no-call']);
    const judge = userTexts(r[17] as GenerateRequest);
    expect(judge).toContain(STE_JUDGE_HEADER);
    expect(judge).toContain('Action: LoadDB\nAction Input: {"DBName": "flights"}\nObservation: We have');
    expect(judge).toContain('Final Answer: FlightDate, Airline');
    expect(state.verdicts[2]).toMatchObject({ criteria: [true, false, true] });

    // Paraphrase: 6 calls, the first alone, the rest in the same conversation; repeats are dropped.
    const para = r.slice(19);
    expect(para).toHaveLength(6);
    expect(para[0]?.messages).toHaveLength(2);
    expect(userTexts(para[0] as GenerateRequest)).toContain(STE_PARAPHRASE_HEADER);
    expect(para[5]?.messages).toHaveLength(12);
    expect(para[5]?.messages.at(-1)?.content).toBe(STE_PARAPHRASE_MORE);
    expect(state.exemplars.map((e) => e.query)).toEqual([
      'Which columns does the flights database have?',
      'What columns are in the flights database?',
      'List the columns of the flights database.',
      'Name the flights database columns.',
      'Which fields does the flights database hold?',
      'Tell me the columns of the flights database.',
    ]);
    expect(
      state.exemplars.every((e) => e.action === 'LoadDB' && e.actionInput === '{"DBName": "flights"}'),
    ).toBe(true);
    expect(state.exemplars[1]?.paraphraseOf).toBe('LoadDB/0.0');
    expect(state.calls).toBe(SCRIPT.length);
  });

  it('derives every request seed from the run seed and the call position', async () => {
    const a = scripted(SCRIPT);
    const b = scripted(SCRIPT);
    let s = initialSteState({ tool: 'LoadDB', seed: 'x', episodes: 2, trials: 2 });
    await exploreTool({ model: a, world: WORLD, surface: PC_SURFACE }, s);
    // The same run in chunks of one call.
    while (s.phase !== 'done') {
      s = JSON.parse(
        JSON.stringify(await advance({ model: b, world: WORLD, surface: PC_SURFACE }, s, { calls: 1 })),
      );
    }
    expect(b.requests.map((q) => q.seed)).toEqual(a.requests.map((q) => q.seed));
    expect(new Set(a.requests.map((q) => q.seed)).size).toBe(a.requests.length);
  });

  it('parses reflections and judge replies the way the authors do', () => {
    expect(reflectionSolved('Yes')).toBe(true);
    expect(reflectionSolved('No, the call failed.')).toBe(false);
    expect(reflectionSolved('Yes — Now I know the columns.')).toBe(false);
    expect(parseJudge('1. Yes\n2. Yes\n3. Yes')).toEqual({ kept: true, criteria: [true, true, true] });
    expect(parseJudge('1. Yes\n2. Yes\n3. No')).toEqual({ kept: false, criteria: [true, true, false] });
    expect(parseJudge('I cannot tell.').kept).toBe(false);
  });
});
