import { describe, expect, it } from 'vitest';
import { ACTION_FILTERED, ACTION_FILTERED_GPT } from '../../../core/world/kernel/messages.ts';
import { formatStep, parseReact } from '../../../core/world/react-parse.ts';

const FILTERED = {
  ok: false,
  observation:
    'Your action is filtered due to some error in content. Please assume all the actions are permitted in this environment and take the action again.',
};

describe('parseReact', () => {
  it('parses the canonical three-part step', () => {
    const text =
      'Thought: I need to load the flights database.\n\nAction: LoadDB\n\nAction Input: {"DBName": "flights"}\n';
    expect(parseReact(text)).toEqual({
      ok: true,
      thought: 'I need to load the flights database.',
      action: 'LoadDB',
      actionInput: '{"DBName": "flights"}',
    });
  });

  it('does not require a Thought', () => {
    expect(parseReact('Action: Finish\nAction Input: {"answer": "20:31"}')).toMatchObject({
      ok: true,
      thought: null,
      action: 'Finish',
    });
  });

  it('keeps extra words in the action (the surface will call it invalid)', () => {
    expect(parseReact('Action: Use the RetrieveAgenda tool\nAction Input: {"keyword": "x"}')).toMatchObject({
      action: 'Use the RetrieveAgenda tool',
    });
  });

  it('takes the action from the first "Action:" up to the next "Action Input", across lines', () => {
    expect(parseReact('Action: Load\nDB\n Action Input: {"DBName": "coffee"}')).toMatchObject({
      action: 'Load\nDB',
    });
    expect(
      parseReact(
        'Action: LoadDB\nAction Input: {"DBName": "a"}\nAction: FilterDB\nAction Input: {"condition": "b"}',
      ),
    ).toMatchObject({
      action: 'LoadDB',
      actionInput: '{"DBName": "a"}\nAction: FilterDB\nAction Input: {"condition": "b"}',
    });
  });

  it('spans the Action Input from its "{" to the last "}" of the output', () => {
    expect(
      parseReact('Action: FilterDB\nAction Input: {"condition": "Date=2020-01-14"}\nThat is it.'),
    ).toMatchObject({
      actionInput: '{"condition": "Date=2020-01-14"}',
    });
    expect(parseReact('Action: A\nAction Input: {"a": 1}\nthen {"b": 2} more')).toMatchObject({
      actionInput: '{"a": 1}\nthen {"b": 2}',
    });
  });

  it('filters bracket syntax, a missing Action Input, fences and words before the "{"', () => {
    expect(parseReact('Thought: x\nAction: LoadDB[flights]')).toEqual(FILTERED);
    expect(parseReact('Action: LoadDB\nAction Input: ```json\n{"DBName": "flights"}\n```')).toEqual(FILTERED);
    expect(parseReact('Action: LoadDB\nAction Input: the JSON {"DBName": "flights"}')).toEqual(FILTERED);
    expect(parseReact('')).toEqual(FILTERED);
  });

  it('a later well-formed "Action Input:" is still found (regex search semantics)', () => {
    expect(
      parseReact('Action: LoadDB\nAction Input: ```json\nAction Input: {"DBName": "flights"}\n```'),
    ).toMatchObject({ ok: true, action: 'LoadDB', actionInput: '{"DBName": "flights"}' });
  });

  it('filters an empty action and an empty object "{}"', () => {
    expect(parseReact('Action:\n\nAction Input: {"a": 1}')).toEqual(FILTERED);
    expect(parseReact('Action:Action Input: {"a": 1}')).toEqual(FILTERED);
    expect(parseReact('Action: Finish\nAction Input: {}')).toEqual(FILTERED);
    expect(parseReact('Action: Finish\nAction Input: { }')).toMatchObject({ ok: true, actionInput: '{ }' });
  });

  it('hands single-quoted inputs over unchanged (JSON decoding reports them)', () => {
    expect(parseReact("Action: FilterDB\n\nAction Input: {'condition': 'date=2022/03/25'}")).toMatchObject({
      ok: true,
      actionInput: "{'condition': 'date=2022/03/25'}",
    });
  });

  it('can use the inference_gpt wording of the filtered message', () => {
    expect(parseReact('nothing', ACTION_FILTERED_GPT)).toEqual({
      ok: false,
      observation: ACTION_FILTERED_GPT,
    });
    expect(ACTION_FILTERED_GPT.startsWith('You action')).toBe(true);
    expect(ACTION_FILTERED).toBe(FILTERED.observation);
  });
});

describe('parseReact against the original regexes (results from CPython 3.11 re)', () => {
  // [text, action group (stripped) or null, action input group or null]
  it.each([
    ['Action:   ', null, null],
    ['Action: x Action Input', 'x', null],
    ['Action:\nAction Input Action Input: {"a":1}', 'Action Input', '{"a":1}'],
    ['Action:\n\nAction Input: {"a": 1}', '', '{"a": 1}'],
    ['Action:Action Input: {"a": 1}', null, '{"a": 1}'],
    ['Action: Finish\nAction Input: {}', 'Finish', null],
    ['Action: LoadDB\nAction Input: ```json\n{"DBName": "flights"}\n```', 'LoadDB', null],
  ])('%j', (text, action, input) => {
    const r = parseReact(text);
    const ok = typeof action === 'string' && action !== '' && input !== null;
    expect(r.ok).toBe(ok);
    if (r.ok) expect([r.action, r.actionInput]).toEqual([action, input]);
  });
});

describe('formatStep', () => {
  it('joins the trimmed text and the trimmed observation', () => {
    expect(
      formatStep('\nThought: t\n\nAction: LoadDB\n\nAction Input: {"DBName": "coffee"}\n\n', ' ok \n'),
    ).toBe('Thought: t\n\nAction: LoadDB\n\nAction Input: {"DBName": "coffee"}\n\nObservation: ok');
  });
});
