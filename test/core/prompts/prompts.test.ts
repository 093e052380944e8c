import { describe, expect, it } from 'vitest';
import {
  FEW_SHOTS_VERSION,
  renderFewShot,
  TOOLEVO_FEW_SHOTS,
  TOOLEVO_FIXED_FEW_SHOTS,
} from '../../../core/prompts/few-shots.ts';
import { reactStepText, writeActionInput, writeJsonValue } from '../../../core/prompts/react-format.ts';
import {
  REFLECTION_LABEL,
  REFLECTION_TEXT,
  renderReflectionPrompt,
  TOOLEVO_REFLECTION_PROMPT,
} from '../../../core/prompts/reflection.ts';
import { promptSlots, promptTemplate } from '../../../core/prompts/registry.ts';
import {
  agentPromptHead,
  renderToolEvoPrompt,
  TOOLEVO_AGENT_PROMPT,
  TOOLEVO_GUIDELINES,
  TOOLEVO_SYSTEM,
  TURN_MARKER,
} from '../../../core/prompts/toolevo.ts';
import { PROMPT_VERSION, promptText } from '../../../core/prompts/types.ts';
import { runPythonCode } from '../../../core/sandbox/python/tool.ts';
import { resolveCall } from '../../../core/surfaces/adapter.ts';
import { PC_SURFACE, S_IN_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { renderToolList } from '../../../core/surfaces/docs.ts';
import { generateSurface } from '../../../core/surfaces/drift/index.ts';
import { PyFloat, PyInt } from '../../../core/util/python-format.ts';
import { decodeActionInput } from '../../../core/world/kernel/json-decode.ts';
import {
  ANSWER_CORRECT,
  dbLoaded,
  filterSuccess,
  GRAPH_LOADED,
} from '../../../core/world/kernel/messages.ts';
import { parseReact } from '../../../core/world/react-parse.ts';
import { generateWorld } from '../../../core/world/world.ts';

const QUESTION = 'At what price did coffee open on 2012-11-30?';
const STEPS = [
  {
    text: reactStepText('I load the coffee database.', 'LoadDB', '{"DBName": "coffee"}'),
    observation:
      'We have successfully loaded the coffee database, including the following columns: Date, Open.',
  },
  {
    text: reactStepText('I filter.', 'FilterDB', '{"condition": "Date=2012-11-30"}'),
    observation: 'We have successfully filtered the data (1 rows).',
  },
];

describe('react-format', () => {
  it('writes Action Inputs with json.dumps separators, Python number types and raw non-ASCII text', () => {
    expect(writeActionInput({ DBName: 'coffee', n: 3, x: new PyFloat(3), k: new PyInt(7), ok: true })).toBe(
      '{"DBName": "coffee", "n": 3, "x": 3.0, "k": 7, "ok": true}',
    );
    expect(writeJsonValue('Zoë "Q"\nline')).toBe('"Zoë \\"Q\\"\\nline"');
    expect(writeJsonValue(['a', null])).toBe('["a", null]');
  });

  it('writes steps that the ReAct parser reads back', () => {
    const text = reactStepText('I think.', 'LoadDB', writeActionInput({ DBName: 'flights' }));
    expect(text).toBe('Thought: I think.\n\nAction: LoadDB\n\nAction Input: {"DBName": "flights"}');
    expect(parseReact(text)).toEqual({
      ok: true,
      thought: 'I think.',
      action: 'LoadDB',
      actionInput: '{"DBName": "flights"}',
    });
  });
});

describe('ToolEvo agent prompt', () => {
  const input = { question: QUESTION, docs: PC_SURFACE };

  it('is a pure function of its input', () => {
    expect(renderToolEvoPrompt(input)).toBe(renderToolEvoPrompt({ ...input }));
    expect(TOOLEVO_AGENT_PROMPT.render(input)).toEqual(TOOLEVO_AGENT_PROMPT.render(input));
  });

  it('holds the documented tool list, the guidelines with the UpdateTool rule, three examples and the question', () => {
    const text = renderToolEvoPrompt(input);
    expect(text).toContain(`\n\n${renderToolList(PC_SURFACE)}\n\n`);
    TOOLEVO_GUIDELINES.forEach((g, i) => {
      expect(text).toContain(`\n${i + 1}. ${g}`);
    });
    expect(TOOLEVO_GUIDELINES[3]).toMatch(/deprecated.*UpdateTool/s);
    expect(text).toContain('Here are some examples:');
    // The format line, three examples, the question.
    expect(text.match(/^Question: /gm)).toHaveLength(5);
    expect(TOOLEVO_FIXED_FEW_SHOTS).toHaveLength(3);
    const turn = text.indexOf(TURN_MARKER);
    expect(turn).toBeGreaterThan(text.indexOf(TOOLEVO_FIXED_FEW_SHOTS[2]?.question as string));
    expect(text.endsWith(`${TURN_MARKER}\n\nQuestion: ${QUESTION}\n\n`)).toBe(true);
  });

  it('lists UpdateTool lines after the tools and appends the trajectory in the §5.3 form', () => {
    const newTools = ['(14) Init_DB[databaseIdentifier], which is an updated version of LoadDB.'];
    const text = renderToolEvoPrompt({ ...input, newTools, steps: STEPS });
    expect(text).toContain(`${renderToolList(PC_SURFACE)}\n${newTools[0]}\n\n`);
    expect(
      text.endsWith(
        `Question: ${QUESTION}\n\n${STEPS[0]?.text}\n\nObservation: ${STEPS[0]?.observation}\n\n${STEPS[1]?.text}\n\nObservation: ${STEPS[1]?.observation}\n\n`,
      ),
    ).toBe(true);
    expect(text.startsWith(agentPromptHead({ ...input, newTools }))).toBe(true);
  });

  it('renders as a system and a user message', () => {
    const messages = TOOLEVO_AGENT_PROMPT.render(input);
    expect(messages).toEqual([
      { role: 'system', content: TOOLEVO_SYSTEM },
      { role: 'user', content: renderToolEvoPrompt(input) },
    ]);
    expect(promptText(messages)).toBe(`${TOOLEVO_SYSTEM}\n\n${renderToolEvoPrompt(input)}`);
  });

  it('shows the examples in the API of the documentation surface', () => {
    const ood = renderToolEvoPrompt({ question: QUESTION, docs: S_OOD_SURFACE });
    expect(ood).toContain(`\n\n${renderToolList(S_OOD_SURFACE)}\n\n`);
    expect(ood).toContain('Action: Init_DB\n\nAction Input: {"databaseIdentifier": "coffee"}');
    expect(ood).toContain(
      'Action: DoFilter_OnDatabase\n\nAction Input: {"filterCriteria1": "Date>=2015-03-02", "filterCriteria2": "Date<=2015-03-06"}',
    );
    expect(ood).not.toContain('Action: LoadDB');
  });
});

/** The generated parts of an example's steps (the text before each observation, from its Thought on). */
function exampleSteps(text: string): string[] {
  const pieces = text.split('\n\nObservation: ');
  return pieces.slice(0, -1).map((p) => p.slice(p.indexOf('Thought:')));
}

describe('few-shot examples', () => {
  const surfaces = [
    PC_SURFACE,
    S_IN_SURFACE,
    S_OOD_SURFACE,
    generateSurface(PC_SURFACE, {
      seed: 'few-shots',
      kinds: ['rename-tool', 'merge-params', 'wrap-response'],
    }),
  ];

  it('are written in the documented API: every call parses, decodes and resolves to its P_c call', () => {
    for (const docs of surfaces) {
      for (const example of TOOLEVO_FEW_SHOTS) {
        const text = renderFewShot(example, docs);
        const steps = exampleSteps(text);
        expect(steps).toHaveLength(example.steps.length);
        steps.forEach((stepText, i) => {
          const parsed = parseReact(stepText);
          if (!parsed.ok) throw new Error(`unparsable example step: ${stepText}`);
          const decoded = decodeActionInput(parsed.actionInput);
          if (!decoded.ok) throw new Error(decoded.observation);
          const resolved = resolveCall(docs, parsed.action, decoded.params);
          expect(resolved.kind, `${docs.id} ${example.id} step ${i}`).toBe('call');
          if (resolved.kind === 'call') expect(resolved.call.tool).toBe(example.steps[i]?.call.tool);
        });
      }
    }
  });

  it('wrap their observations like the documentation surface does', () => {
    const wrapped = surfaces[3];
    if (wrapped?.response.kind !== 'wrapped') throw new Error('fixture surface does not wrap');
    const text = renderFewShot(TOOLEVO_FEW_SHOTS[0] as (typeof TOOLEVO_FEW_SHOTS)[number], wrapped);
    expect(text).toContain(`Observation: {"${wrapped.response.stateKey}": "${wrapped.response.success}", `);
  });

  it('show observations in the exact formats of the kernel tools', () => {
    const world = generateWorld({ seed: 'few-shot-check', scale: 0.02 });
    const [coffee, agenda, dblp] = TOOLEVO_FIXED_FEW_SHOTS as [
      (typeof TOOLEVO_FEW_SHOTS)[number],
      (typeof TOOLEVO_FEW_SHOTS)[number],
      (typeof TOOLEVO_FEW_SHOTS)[number],
    ];
    expect(coffee.steps[0]?.observation).toBe(dbLoaded('coffee', world.tables.coffee.columnNames()));
    expect(coffee.steps[1]?.observation).toBe(filterSuccess(5));
    const python = coffee.steps[3]?.call.args.Python as string;
    expect(runPythonCode(python, null).observation.trim()).toBe(coffee.steps[3]?.observation);
    expect(dblp.steps[0]?.observation).toBe(GRAPH_LOADED);
    for (const e of [coffee, agenda, dblp]) expect(e.steps.at(-1)?.observation).toBe(ANSWER_CORRECT);
  });
});

describe('reflection prompt', () => {
  const input = { question: QUESTION, docs: PC_SURFACE, steps: STEPS };

  it('is the agent prompt followed by the reflection paragraph', () => {
    const text = renderReflectionPrompt(input);
    const agent = renderToolEvoPrompt(input);
    expect(text).toBe(`${agent.trimEnd()}\n\n${REFLECTION_LABEL} ${REFLECTION_TEXT}\n\n`);
    expect(REFLECTION_TEXT).toMatch(/deprecated/);
    expect(REFLECTION_TEXT).toMatch(/param example/);
    expect(TOOLEVO_REFLECTION_PROMPT.render(input)[1]?.content).toBe(text);
  });
});

describe('prompt registry', () => {
  it('lists the ToolEvo, STE and DRAFT templates as implemented', () => {
    const slots = promptSlots();
    const ste = [
      'ste/explore',
      'ste/follow-up',
      'ste/observation',
      'ste/reflect',
      'ste/judge',
      'ste/paraphrase',
      'ste/paraphrase-more',
      'ste/demonstrations',
    ];
    expect(slots.map((s) => s.id)).toEqual([
      'toolevo/agent',
      'toolevo/reflection',
      ...ste,
      'draft/explore',
      'draft/analyze',
      'draft/rewrite',
      'draft/summarize',
    ]);
    expect(slots.filter((s) => s.version !== null).map((s) => s.id)).toEqual([
      'toolevo/agent',
      'toolevo/reflection',
      ...ste,
      'draft/explore',
      'draft/analyze',
      'draft/rewrite',
      'draft/summarize',
    ]);
    expect(promptTemplate('toolevo/agent')).toBe(TOOLEVO_AGENT_PROMPT);
    expect(promptTemplate('ste/explore').id).toBe('ste/explore');
    expect(promptTemplate('draft/rewrite').family).toBe('draft');
  });

  it('versions the prompt set and each template', () => {
    expect(PROMPT_VERSION).toMatch(/\S/);
    expect(TOOLEVO_AGENT_PROMPT.version).toContain(`examples.${FEW_SHOTS_VERSION}`);
    expect(TOOLEVO_REFLECTION_PROMPT.version).toContain(TOOLEVO_AGENT_PROMPT.version);
  });
});
