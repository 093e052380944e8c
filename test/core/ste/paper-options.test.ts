/**
 * STE's paper-side behaviour (issue 25 items 12–15), pinned on hand-built prompts, scripted runs and records:
 * the query-synthesis constraints (paper Table 10), long-term memory at every trial (§2.1, Figure 2) next to the
 * once-per-episode default, the Table 2 ablations (− execution feedback, − short-term memory with the trial count
 * kept, − long-term memory, − self-reflection), and SFT records without the API documentation (§2.2).
 */
import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../../core/models/types.ts';
import { renderPrompt } from '../../../core/prompts/registry.ts';
import {
  STE_FOLLOW_UP_MARKER,
  STE_LTM_INTRO,
  STE_LTM_INTRO_UNMARKED,
  STE_LTM_OUTRO,
  STE_NO_FEEDBACK,
  STE_QUERY_REQUEST,
  STE_REFLECT_QUESTION,
} from '../../../core/prompts/ste.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import {
  advance,
  exploreTool,
  initialSteState,
  type SteState,
  steOptions,
  steProgress,
} from '../../../core/ste/engine.ts';
import { STE_SFT_SYSTEM, steSftRecords } from '../../../core/ste/sft.ts';
import { PC_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { checkSftRecord } from '../../../gpu-jobs/validate.ts';
import { scripted, step } from './scripted.ts';

const WORLD = generateWorld({ seed: 'ste-paper', scale: 0.1 });

const lastUser = (r: GenerateRequest | undefined) =>
  r?.messages.findLast((m) => m.role === 'user')?.content ?? '';
const allText = (r: GenerateRequest | undefined) => r?.messages.map((m) => m.content).join('\n') ?? '';

const Q1 = 'Which columns does the flights database have?';
const Q2 = 'Which columns does the coffee database have?';
const Q3 = 'Which columns does the airbnb database have?';

describe('query synthesis keeps the paper’s constraints (Table 10)', () => {
  it('asks for a query that needs the tool once (plus preparatory calls), names no tool and is specific', () => {
    const [, user] = renderPrompt('ste/explore', {
      tool: 'FilterDB[condition], which filters the loaded database by the condition.',
      toolList: '(1) LoadDB[DBName], which loads a database.\n(2) FilterDB[condition], which filters.',
      memory: [],
    });
    expect(user?.content).toBe(
      [
        'You are exploring this tool:\nFilterDB[condition], which filters the loaded database by the condition.',
        'All tools you may call:\n(1) LoadDB[DBName], which loads a database.\n(2) FilterDB[condition], which filters.',
        'Answer the query in steps. Each step is:\nThought: your reasoning\nAction: the name of exactly one tool from the list\nAction Input: the parameters of that tool as one JSON object\nThe environment then answers with an Observation. When you know the answer, call Finish with it.',
        [
          'Imagine a plausible query a user could ask that this tool helps to answer.',
          'Rules for the query:',
          '- It needs this tool once. If the tool only works on something another tool must prepare first (for example data that has to be loaded), the query may need those preparatory calls as well, but no other calls.',
          '- Write it the way a user who does not know the tools would ask: do not name the tool or any other tool, and do not copy wording from the documentation.',
          '- Make it specific: concrete names, dates and numbers rather than placeholders or general questions.',
        ].join('\n'),
        STE_QUERY_REQUEST,
      ].join('\n\n'),
    );
    const [followUp] = renderPrompt('ste/follow-up', { memory: [] });
    expect(followUp?.content).toContain(
      'The same rules apply: one call of the tool (plus the preparatory calls it needs), no tool names or documentation wording, concrete values.',
    );
    expect(followUp?.content.endsWith(STE_QUERY_REQUEST)).toBe(true);
  });

  it('the simulator’s imagined queries name no tool and give concrete values', async () => {
    for (const kernel of ['FilterDB', 'NodeCheck', 'RetrieveAgenda'] as const) {
      const tool = S_OOD_SURFACE.tools.find((t) => t.kernel === kernel);
      const s = await exploreTool(
        { model: createSimModel({}), world: WORLD, surface: S_OOD_SURFACE },
        { tool: tool?.name as string, seed: 'rules', episodes: 2, filter: false },
      );
      for (const t of s.trials) {
        for (const name of [...S_OOD_SURFACE.tools, ...PC_SURFACE.tools].map((x) => x.name)) {
          expect(t.query.includes(name), `${t.query} names ${name}`).toBe(false);
        }
        expect(t.query).toMatch(/"[^"]+"/);
      }
    }
  });
});

describe('long-term memory (§2.1)', () => {
  // Two trials per episode, no filter: query, LoadDB, Finish, reflection; follow-up, Finish, reflection.
  const twoTrials = (q2: string) => [
    `User Query: ${Q1}`,
    step('LoadDB', '{"DBName": "flights"}'),
    step('Finish', '{"answer": "FlightDate"}'),
    'Yes',
    `User Query: ${q2}`,
    step('Finish', '{"answer": "42"}'),
    'No',
  ];

  it('by default is shown only when an episode opens; `trial` shows it at every trial and never stores it', async () => {
    const opts = { tool: 'LoadDB', seed: 'ltm', episodes: 1, trials: 2, filter: false } as const;
    const byEpisode = scripted(twoTrials(Q2));
    await exploreTool({ model: byEpisode, world: WORLD, surface: PC_SURFACE }, opts);
    expect(allText(byEpisode.requests[4])).not.toContain(STE_LTM_INTRO);

    const byTrial = scripted(twoTrials(Q2));
    const s = await exploreTool(
      { model: byTrial, world: WORLD, surface: PC_SURFACE },
      { ...opts, longTermMemory: 'trial' },
    );
    // The follow-up's query request carries the block (the first trial's query with its mark) …
    const text = lastUser(byTrial.requests[4]);
    expect(text.startsWith(STE_FOLLOW_UP_MARKER)).toBe(true);
    expect(
      text.endsWith(
        `\n\n${STE_LTM_INTRO}\nQuery: ${Q1} | Solved: Yes\n${STE_LTM_OUTRO}\n\n${STE_QUERY_REQUEST}`,
      ),
    ).toBe(true);
    // … the next step's conversation no longer does (loaded for the query, offloaded afterwards).
    expect(allText(byTrial.requests[5])).not.toContain(STE_LTM_INTRO);
    expect(s.memory).toEqual([
      { query: Q1, solved: true },
      { query: Q2, solved: false },
    ]);
  });

  it('`off` (Table 2, − long-term memory) never shows it', async () => {
    const model = scripted([
      `User Query: ${Q1}`,
      step('Finish', '{"answer": "x"}'),
      'Yes',
      `User Query: ${Q2}`,
      step('Finish', '{"answer": "y"}'),
      'Yes',
    ]);
    await exploreTool(
      { model, world: WORLD, surface: PC_SURFACE },
      { tool: 'LoadDB', seed: 'off', episodes: 2, trials: 1, filter: false, longTermMemory: 'off' },
    );
    expect(model.requests).toHaveLength(6);
    for (const r of model.requests) expect(allText(r)).not.toContain('already explored');
  });
});

describe('Table 2 ablations', () => {
  it('− execution feedback: the call runs, the model is not shown its result, the judge is', async () => {
    const model = scripted([
      `User Query: ${Q1}`,
      step('LoadDB', '{"DBName": "flights"}'),
      step('Finish', '{"answer": "FlightDate"}'),
      'Yes',
      '1. Yes\n2. Yes\n3. Yes',
    ]);
    const s = await exploreTool(
      { model, world: WORLD, surface: PC_SURFACE },
      {
        tool: 'LoadDB',
        seed: 'feedback',
        episodes: 1,
        trials: 1,
        paraphrase: false,
        executionFeedback: false,
      },
    );
    expect(lastUser(model.requests[2])).toBe(`Observation: ${STE_NO_FEEDBACK}`);
    for (const r of model.requests.slice(0, 4)) expect(allText(r)).not.toContain('successfully loaded');
    expect(s.trials[0]?.steps[0]?.observation).toMatch(/^We have successfully loaded the flights database/);
    expect(allText(model.requests[4])).toContain(
      'Observation: We have successfully loaded the flights database',
    );
    expect(s.exemplars[0]?.observation).toMatch(/^We have successfully loaded/);
  });

  it('− short-term memory: episodes × trials episodes of one trial, each a fresh conversation', async () => {
    const options = steOptions({ tool: 'LoadDB', seed: 's', episodes: 2, trials: 2, shortTermMemory: false });
    expect(options).toMatchObject({ episodes: 4, trials: 1, shortTermMemory: false });
    // Idempotent: resolving resolved options keeps the count.
    expect(steOptions(options)).toMatchObject({ episodes: 4, trials: 1 });
    // The 15-episode cap of a run request does not bound the ablation: 15 × 4 = 60 episodes.
    expect(steOptions({ tool: 'LoadDB', seed: 's', shortTermMemory: false })).toMatchObject({
      episodes: 60,
      trials: 1,
    });
    const script = [Q1, Q2, Q3, 'What fields has the yelp database?'].flatMap((q) => [
      `User Query: ${q}`,
      step('Finish', '{"answer": "x"}'),
      'Yes',
    ]);
    const model = scripted(script);
    const s = await exploreTool(
      { model, world: WORLD, surface: PC_SURFACE },
      { tool: 'LoadDB', seed: 'stm', episodes: 2, trials: 2, shortTermMemory: false, filter: false },
    );
    expect(steProgress(s)).toMatchObject({ trialsDone: 4, trialsTotal: 4 });
    const queryCalls = model.requests.filter((r) => r.stop?.[0] === 'Thought:');
    expect(queryCalls).toHaveLength(4);
    // Every trial opens a new episode: system + the documentation prompt, never a follow-up.
    for (const r of queryCalls) {
      expect(r.messages).toHaveLength(2);
      expect(allText(r)).toContain('You are exploring this tool:');
    }
    expect(s.trials.map((t) => [t.episode, t.trial])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 0],
    ]);
  });

  it('− self-reflection: no reflection call, memory lines without Solved marks', async () => {
    const model = scripted([
      `User Query: ${Q1}`,
      step('Finish', '{"answer": "x"}'),
      `User Query: ${Q2}`,
      step('Finish', '{"answer": "y"}'),
    ]);
    let s: SteState = initialSteState({
      tool: 'LoadDB',
      seed: 'noreflect',
      episodes: 2,
      trials: 1,
      filter: false,
      selfReflection: false,
    });
    // In chunks of one call: a trial's end without a reflection call spends nothing.
    while (s.phase !== 'done')
      s = await advance({ model, world: WORLD, surface: PC_SURFACE }, s, { calls: 1 });
    expect(model.requests).toHaveLength(4);
    for (const r of model.requests) expect(allText(r)).not.toContain(STE_REFLECT_QUESTION);
    expect(s.memory).toEqual([
      { query: Q1, solved: null },
      { query: Q2, solved: null },
    ]);
    expect(s.trials.map((t) => [t.reflection, t.solved])).toEqual([
      ['', null],
      ['', null],
    ]);
    expect(allText(model.requests[2])).toContain(`${STE_LTM_INTRO_UNMARKED}\nQuery: ${Q1}\n${STE_LTM_OUTRO}`);
    expect(s.calls).toBe(4);
  });
});

describe('STE fine-tuning records (§2.2)', () => {
  const exemplar = {
    id: 'Init_DB/0.0',
    tool: 'Init_DB',
    query: 'Which columns does the "coffee" database have?',
    action: 'Init_DB',
    actionInput: '{"databaseIdentifier": "coffee"}',
    observation: 'We have successfully loaded the coffee database, including the following columns: Date.',
    finalAnswer: 'Date',
    episode: 0,
    trial: 0,
  };

  it('carry no API documentation by default: a tool-mode system message, the query, the call', () => {
    const [call, answer] = steSftRecords(exemplar);
    expect(call.messages).toEqual([
      { role: 'system', content: STE_SFT_SYSTEM },
      { role: 'user', content: 'Question: Which columns does the "coffee" database have?' },
      {
        role: 'assistant',
        content:
          'Thought: I use Init_DB for this query.\n\nAction: Init_DB\n\nAction Input: {"databaseIdentifier": "coffee"}',
      },
    ]);
    expect(answer.messages[0].content).toBe(STE_SFT_SYSTEM);
    expect(answer.messages[1].content).toContain(
      'Observation: We have successfully loaded the coffee database',
    );
    for (const r of [call, answer]) {
      expect(checkSftRecord(r).problems).toEqual([]);
      // No tool list, no documentation line, no worked example.
      expect(r.messages[0].content).not.toMatch(/Init_DB|LoadDB|\(1\)|Question:/);
    }
  });

  it('keep the agent prompt over the documentation as the `agent-prompt` option', () => {
    const [call] = steSftRecords(exemplar, { documentation: 'agent-prompt', docs: S_OOD_SURFACE });
    expect(call.messages[0].content).toContain('Init_DB[');
    expect(call.messages[0].content.length).toBeGreaterThan(STE_SFT_SYSTEM.length * 10);
  });
});
