/**
 * The three worked examples of the ToolEvo agent prompt, kept as data: each step is a P_c call with the thought
 * before it and the observation after it. They are rendered in the API of the prompt's documentation surface
 * (`renderFewShot`), so the examples never contradict the tool list: under P_c documentation (the ToolQA-D
 * setting) they show P_c calls; under another surface's documentation the same calls translated onto it.
 *
 * The observations have the exact formats of the kernel tools (recorded on a small generated world, then
 * edited by hand into short, self-consistent examples). The entities are illustrative; the questions are not
 * task-template questions, so that the examples teach the format and the tool use without giving answers.
 *
 * Changing anything here changes every agent prompt: bump FEW_SHOTS_VERSION (and PROMPT_VERSION) when you do.
 */
import { formatObservation } from '../surfaces/adapter.ts';
import type { Surface } from '../surfaces/model.ts';
import { translateCall } from '../surfaces/translate.ts';
import type { KernelCall } from '../world/kernel/kernel.ts';
import { reactStepText, writeActionInput } from './react-format.ts';

export const FEW_SHOTS_VERSION = '2';

export interface FewShotStep {
  thought: string;
  call: KernelCall;
  observation: string;
  /** Whether the tool ran without error (for the response wrapper of surfaces that wrap observations). */
  ok: boolean;
}

export interface FewShotExample {
  id: string;
  /** The dataset whose pool the example belongs to (ToolEvo draws few-shots per dataset). */
  dataset: string;
  question: string;
  steps: readonly FewShotStep[];
}

const step = (
  thought: string,
  tool: KernelCall['tool'],
  args: Record<string, unknown>,
  observation: string,
): FewShotStep => ({ thought, call: { tool, args }, observation, ok: true });

export const TOOLEVO_FEW_SHOTS: readonly FewShotExample[] = [
  {
    id: 'coffee-week-mean',
    dataset: 'coffee',
    question:
      'What was the average closing price of coffee over the trading days from 2015-03-02 to 2015-03-06, rounded to two decimals?',
    steps: [
      step(
        'Coffee prices are kept in the coffee database, so I load it first.',
        'LoadDB',
        { DBName: 'coffee' },
        'We have successfully loaded the coffee database, including the following columns: Date, Open, High, Low, Close, Volume, Currency.',
      ),
      step(
        'I keep only the trading days of that week.',
        'FilterDB',
        { condition: 'Date>=2015-03-02, Date<=2015-03-06' },
        'We have successfully filtered the data (5 rows).',
      ),
      step(
        'Now I read the closing prices of these days.',
        'GetValue',
        { column_name: 'Close' },
        '{"Close": ["216.85", "214.9", "222.4", "215.95", "215.95"]}',
      ),
      step(
        'I let Python compute the mean, so that the arithmetic is exact.',
        'PythonInterpreter',
        {
          Python:
            'closes = [216.85, 214.9, 222.4, 215.95, 215.95]\nprint(round(sum(closes) / len(closes), 2))',
        },
        '217.21',
      ),
      step(
        'The average closing price over those five days was 217.21.',
        'Finish',
        { answer: '217.21' },
        'Answer is CORRECT',
      ),
    ],
  },
  {
    id: 'agenda-place',
    dataset: 'agenda',
    question: 'Where was Chloe going to watch a film on the evening of 2022/01/04?',
    steps: [
      step(
        "People's plans are described in the agenda passages; I search them for Chloe's evening on that date.",
        'RetrieveAgenda',
        { keyword: "Chloe's movie night on 2022/01/04" },
        'Coming up on January 4, 2022, Chloe has a Movie Night planned. The movie begins at 9:30 PM at Alamo Drafthouse and is expected to finish by 12:00 AM. Parking near Alamo Drafthouse can be tricky, so she\'ll take the subway.\nOn Tuesday, January 4th, 2022, Lily has a jazz night at Blue Note Jazz Club from 9:30 PM to 11:30 PM. She will grab a quick bite beforehand.\nChloe added "Night Shift" to her calendar for Apr 13, 2022. The shift takes place at St. Mary\'s Hospital from 9:00 PM until 6:00 AM.',
      ),
      step(
        "The first passage is about Chloe's movie night on 2022/01/04, and it takes place at Alamo Drafthouse.",
        'Finish',
        { answer: 'Alamo Drafthouse' },
        'Answer is CORRECT',
      ),
    ],
  },
  {
    id: 'dblp-strongest-coauthor',
    dataset: 'dblp',
    question:
      'With which co-author has Anke Hansen written the most papers, according to the DBLP co-author network?',
    steps: [
      step(
        'Co-authorship is recorded in the DBLP graphs, so I load the graph data.',
        'LoadGraph',
        { GraphName: 'dblp' },
        'DBLP data is loaded, including two graphs: AuthorNet and PaperNet.',
      ),
      step(
        "In AuthorNet an author's neighbours are the co-authors, and each edge weight counts joint papers. I list Anke Hansen's neighbours.",
        'NeighbourCheck',
        { GraphName: 'AuthorNet', Node: 'Anke Hansen' },
        "Degree: 4; 4 neighbors: [('Thomas Hansen', 'weight: 17'), ('Katharina Lange', 'weight: 15'), ('Wolfgang Lindqvist', 'weight: 19'), ('Kai Ye', 'weight: 1')]; Total 26 papers; Paper list: Hierarchical caching placement with blockchain for industrial IoT, Routing Optimization in UAV-Assisted Networks: An Empirical Study, Spectrum Sensing under Low SNR: A Questionnaire",
      ),
      step(
        'The largest weight, 19, belongs to Wolfgang Lindqvist.',
        'Finish',
        { answer: 'Wolfgang Lindqvist' },
        'Answer is CORRECT',
      ),
    ],
  },
];

/** A P_c call written in the API of `docs` (the P_c form when the surface cannot express it). */
function callOn(docs: Surface, call: KernelCall): { name: string; args: Record<string, unknown> } {
  const t = translateCall(docs, call);
  return t.ok ? { name: t.tool, args: t.args } : { name: call.tool, args: call.args };
}

/** One example as prompt text: the question, then its steps with observations. */
export function renderFewShot(example: FewShotExample, docs: Surface): string {
  const parts = [`Question: ${example.question}`];
  for (const s of example.steps) {
    const { name, args } = callOn(docs, s.call);
    const observation = formatObservation(docs.response, s.observation, s.ok);
    parts.push(`${reactStepText(s.thought, name, writeActionInput(args))}\n\nObservation: ${observation}`);
  }
  return parts.join('\n\n');
}

/**
 * ToolEvo's UpdateTool examples (spec §5.1): a deprecation message, the call of the tool it names, and the
 * UpdateTool call that records it. tooldrift's wording; the tool names are invented and belong to no surface, so
 * that the examples teach the reaction to a deprecation without giving away a surface's replacement names (the
 * original's examples used P_s_in's real names).
 */
export const TOOLEVO_UPDATE_EXAMPLES: readonly string[] = [
  [
    'Thought: The database is loaded; now I keep only the rows of 2022-03-25.',
    'Action: FilterDB',
    'Action Input: {"condition": "Date=2022-03-25"}',
    'Observation: Error: FilterDB[condition] is deprecated and will be removed in future releases. Use Select_Rows_Where[rule1], param example: {"rule1": "Date>=2021-05-01", "rule2": "Date<=2021-05-02"} instead.',
    'Thought: FilterDB is deprecated and the message names Select_Rows_Where, which takes numbered rules. I filter with it.',
    'Action: Select_Rows_Where',
    'Action Input: {"rule1": "Date=2022-03-25"}',
    'Observation: We have successfully filtered the data (12 rows).',
    'Thought: The new filter tool worked the first time, so I record it with UpdateTool for the steps to come.',
    'Action: UpdateTool',
    'Action Input: {"newtool_desc": "Select_Rows_Where[rule1, rule2, ...], the new version of FilterDB: keeps the rows that satisfy every numbered rule, e.g. {\\"rule1\\": \\"Date>=2021-05-01\\", \\"rule2\\": \\"Date<=2021-05-02\\"}."}',
    'Observation: The description for the new tool has been updated successfully.',
  ].join('\n\n'),
  [
    'Thought: I need the Price column of the filtered rows.',
    'Action: GetValue',
    'Action Input: {"column_name": "Price"}',
    'Observation: Error: GetValue[column_name] is deprecated and will be removed in future releases. Use Read_Column[field, AsList], param example: {"field": "Price", "AsList": "True"} instead.',
    'Thought: GetValue is deprecated; Read_Column replaces it. I read the Price column with it.',
    'Action: Read_Column',
    'Action Input: {"field": "Price", "AsList": "True"}',
    'Observation: {"Price": ["120.0", "95.5", "143.0"]}',
    'Thought: Read_Column works. Before going on, I add its description with UpdateTool.',
    'Action: UpdateTool',
    'Action Input: {"newtool_desc": "Read_Column[field, AsList], the new version of GetValue: returns the values of one column of the filtered rows, e.g. {\\"field\\": \\"Price\\", \\"AsList\\": \\"True\\"}."}',
    'Observation: The description for the new tool has been updated successfully.',
  ].join('\n\n'),
];

/** Few-shots per generation call (ToolEvo's `num_examples`). */
export const FEW_SHOTS_PER_CALL = 2;

/**
 * The examples of one generation call, drawn with `rng` as ToolEvo does for every call (spec §5.1): one of the
 * UpdateTool examples, then `FEW_SHOTS_PER_CALL` examples of the task's dataset. A dataset with fewer examples of
 * its own than that is topped up from the other datasets' examples (drawn with the same stream).
 */
export function drawFewShots(
  dataset: string | undefined,
  rng: { pick<T>(xs: readonly T[]): T; sample<T>(xs: readonly T[], n: number): T[] },
  pool: readonly FewShotExample[] = TOOLEVO_FEW_SHOTS,
): { update: string; examples: FewShotExample[] } {
  const update = rng.pick(TOOLEVO_UPDATE_EXAMPLES);
  const own = pool.filter((e) => e.dataset === dataset);
  const examples = rng.sample(own, Math.min(FEW_SHOTS_PER_CALL, own.length));
  if (examples.length < FEW_SHOTS_PER_CALL) {
    const others = pool.filter((e) => e.dataset !== dataset);
    examples.push(...rng.sample(others, FEW_SHOTS_PER_CALL - examples.length));
  }
  return { update, examples };
}
