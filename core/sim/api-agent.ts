/**
 * The simulated policy on an imported API (issue 23 §6): a generic mode for agent prompts whose tool list documents
 * HTTP operations (`(n) name[params], GET /route: about …`, or a docset's `name[params] (GET /route), about`). It
 * acts on the prompt alone — the question, the documented tools and the observations so far — never on gold
 * paths, the server's surface or the mock's state:
 *
 * 1. **Pick the operation the question is about**: the documented tool sharing the most words with the question
 *    (its name and route count twice, its description once; plurals folded), ties to the first listed.
 * 2. **Get the ids it needs first**: when that tool's path takes an id (`{person_id}`) and no earlier answer showed
 *    one, it first calls the documented search of that resource (a tool whose route or name says `search` and
 *    names the resource), with the entity the question names (its capitalised words or quoted text).
 * 3. **Fill parameters** from the question (the entity for a query-like parameter) and from ids earlier answers
 *    showed (the first `"id"` of the last answer that had one, for an id parameter).
 * 4. **Read refusals** with the kernel mode's knobs: a refusal that names another tool (a renamed or retired
 *    name's successor) is retried under that name with probability `pUpdate` (else the stale call is repeated);
 *    one that lists the accepted parameters maps the arguments onto them by position with probability `pReflect`
 *    (both raised by the self-reflection prompt's gain). Anything else ends the episode with `unknown`.
 * 5. **Finish** after the chosen tool answered, with the first `name` or `title` of its answer, else the number of
 *    its `results`; with `unknown` after five calls.
 *
 * So stale documentation hurts it (renamed tools and parameters are refused, and a refusal that names no successor
 * stops it) and better documentation helps it (richer descriptions share more words with the question) — for the
 * reasons the papers give, through what the prompt says. With probability `noise` it picks the second-best tool.
 */
import { reactStepText, writeActionInput } from '../prompts/react-format.ts';
import { wordTokens } from '../retrieval/text.ts';
import type { Decider } from './decider.ts';
import type { PolicyStep } from './policy.ts';
import type { ReadPrompt, ToolLine } from './prompt-reader.ts';
import type { SimSkills } from './skills.ts';

const ROUTE = /\b(GET|POST|PUT|PATCH|DELETE) (\/[^\s:,)]*)/;
const MAX_CALLS = 5;

const STOP = new Set(
  'a an the of in on at for to by with and or is are was were be been me my i you your give what which who whom how many much get find show list tell all any some this that these those from as it its their there please do does did can could would'.split(
    ' ',
  ),
);

/** Whether the prompt documents HTTP operations (the generic API mode applies). */
export function isApiPrompt(prompt: ReadPrompt): boolean {
  return prompt.tools.some((t) => t.name !== '' && ROUTE.test(t.description));
}

function fold(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

function words(text: string): string[] {
  return wordTokens(text)
    .map(fold)
    .filter((w) => !STOP.has(w) && !/^\d+$/.test(w));
}

interface ApiTool {
  name: string;
  params: string[];
  route: string | null;
  /** Path parameters of the route. */
  pathParams: string[];
  head: Set<string>;
  body: Set<string>;
}

function readTool(t: ToolLine): ApiTool {
  const m = ROUTE.exec(t.description);
  const route = m ? `${m[1]} ${m[2]}` : null;
  const about = t.description.split(' Parameters:')[0] ?? t.description;
  return {
    name: t.name,
    params: t.params,
    route,
    pathParams: m ? [...(m[2] as string).matchAll(/\{([^}]+)\}/g)].map((x) => x[1] as string) : [],
    head: new Set(words(`${t.name} ${m ? (m[2] as string).replace(/\{[^}]+\}/g, ' ') : ''}`)),
    body: new Set(words(about.replace(ROUTE, ' '))),
  };
}

function score(tool: ApiTool, query: readonly string[]): number {
  let s = 0;
  for (const w of new Set(query)) {
    if (tool.head.has(w)) s += 2;
    else if (tool.body.has(w)) s += 1;
  }
  return s;
}

/** The entity the question names: quoted text, else its longest run of capitalised words (not the first word). */
export function questionEntity(question: string): string | null {
  const quoted = /["“']([^"”']{2,})["”']/.exec(question);
  if (quoted) return (quoted[1] as string).trim();
  const tokens = question.split(/\s+/);
  let best: string[] = [];
  let run: string[] = [];
  tokens.forEach((tok, i) => {
    const w = tok.replace(/[?.,!;:]+$/, '');
    if (i > 0 && /^[\p{Lu}\d][\p{L}\d'’.-]*$/u.test(w)) run.push(w);
    else run = [];
    if (run.length > best.length) best = [...run];
  });
  return best.length > 0 ? best.join(' ') : null;
}

interface Step {
  action: string | null;
  args: Record<string, unknown> | null;
  observation: string;
  ok: boolean;
}

function readStep(text: string, observation: string): Step {
  const action = /Action: *(.*)/.exec(text)?.[1]?.trim() ?? null;
  const input = /Action Input: *([\s\S]*)/.exec(text)?.[1]?.trim() ?? '';
  let args: Record<string, unknown> | null = null;
  try {
    const v = JSON.parse(input) as unknown;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) args = v as Record<string, unknown>;
  } catch {
    args = null;
  }
  const ok = /^\s*[[{]/.test(observation) && !/^Error \d{3}/.test(observation);
  return { action, args, observation, ok };
}

function firstId(observation: string): number | string | null {
  const m = /"id":\s*("[^"]*"|\d+)/.exec(observation);
  if (!m) return null;
  const v = m[1] as string;
  return v.startsWith('"') ? v.slice(1, -1) : Number(v);
}

function answerOf(observation: string): string {
  const named = /"(?:name|title)":\s*"([^"]*)"/.exec(observation);
  if (named) return named[1] as string;
  const results = /"total_results":\s*(\d+)/.exec(observation);
  return results ? (results[1] as string) : 'unknown';
}

function call(thought: string, tool: string, args: Record<string, unknown>): PolicyStep {
  return { text: reactStepText(thought, tool, writeActionInput(args)), kind: 'call' };
}

function finish(thought: string, answer: string): PolicyStep {
  return { text: reactStepText(thought, 'Finish', writeActionInput({ answer })), kind: 'finish' };
}

/** The resource an id parameter names: `person_id` → person, `movieId` → movie. */
function resourceOf(param: string): string {
  return fold(wordTokens(param).filter((w) => w !== 'id')[0] ?? param);
}

function isSearch(t: ApiTool): boolean {
  return t.head.has('search') || t.head.has('find') || t.head.has('query') || t.head.has('lookup');
}

const QUERY_PARAM = /^(query|q|search|find|seek|name|keyword|keywords|text|term|title)$/i;

/** Arguments for a tool: the entity for a query-like parameter, the last id seen for its id parameters. */
function argumentsFor(
  tool: ApiTool,
  entity: string | null,
  id: number | string | null,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const idParams = tool.pathParams.length > 0 ? tool.pathParams : tool.params.filter((p) => /id$/i.test(p));
  for (const p of idParams) if (id !== null && tool.params.includes(p)) args[p] = id;
  const queryParam = tool.params.find((p) => QUERY_PARAM.test(p));
  if (entity !== null && queryParam !== undefined && !(queryParam in args)) args[queryParam] = entity;
  return args;
}

/** The policy's next step on an API prompt. */
export function apiStep(prompt: ReadPrompt, skills: SimSkills, d: Decider): PolicyStep {
  const question = prompt.question ?? '';
  const tools = prompt.tools.filter((t) => t.name !== '' && t.name !== 'Finish').map(readTool);
  const steps = prompt.steps.map((s) => readStep(s.text, s.observation));
  const query = words(question);
  const entity = questionEntity(question);
  if (tools.length === 0) return finish('I have no tool for this.', 'unknown');

  const last = steps.at(-1);
  // 4. A refusal: retry under the successor it names, or with the parameters it accepts; else give up.
  if (last && !last.ok && last.action !== null && last.args !== null) {
    const known = new Set(tools.map((t) => t.name));
    const tried = new Set(steps.map((s) => s.action));
    const named = [...last.observation.matchAll(/\(([A-Za-z_][\w.-]*)\)|\bUse ([A-Za-z_][\w.-]*)\b/g)]
      .map((m) => (m[1] ?? m[2]) as string)
      .find((n) => n !== last.action && !tried.has(n) && !known.has(n));
    const gain = prompt.reflection ? skills.reflectionPromptGain : 0;
    const adapt = (p: number) => p + (1 - p) * gain;
    if (named) {
      // pUpdate: switch to the successor the refusal names; otherwise call the stale name again.
      if (d.chance(`api:follow:${steps.length}`, adapt(skills.pUpdate)))
        return call(`The tool was renamed; I use ${named} instead.`, named, last.args);
      return call('I try the documented tool again.', last.action, last.args);
    }
    const accepted = /(?:accepted|accepts|parameters are|Accepted parameters)[^:]*:\s*([\w, -]+)/i.exec(
      last.observation,
    );
    if (accepted && d.chance(`api:repair:${steps.length}`, adapt(skills.pReflect))) {
      const keys = (accepted[1] as string)
        .split(/,\s*/)
        .map((k) => k.trim())
        .filter((k) => k !== '');
      const values = Object.values(last.args);
      const remapped: Record<string, unknown> = {};
      keys.slice(0, values.length).forEach((k, i) => {
        remapped[k] = values[i];
      });
      const already = steps.some(
        (s) => s.action === last.action && JSON.stringify(s.args) === JSON.stringify(remapped),
      );
      if (!already && keys.length > 0)
        return call('The parameters have other names; I use the accepted ones.', last.action, remapped);
    }
    return finish('The API refuses my calls; I cannot find out.', 'unknown');
  }
  if (steps.length >= MAX_CALLS) return finish('I could not get there in time.', 'unknown');

  // 1. The operation the question is about.
  const ranked = tools
    .map((t, i) => ({ t, s: score(t, query), i }))
    .filter((x) => !isSearch(x.t) || x.s > 0)
    .sort((a, b) => b.s - a.s || a.i - b.i);
  const first = ranked[0];
  if (!first || first.s === 0) return finish('No tool fits the question.', 'unknown');
  const target = ranked.length > 1 && d.chance('api:second-best', skills.noise) ? ranked[1]!.t : first.t;

  const answered = steps.filter((s) => s.ok);
  if (answered.some((s) => s.action === target.name)) {
    const own = answered.findLast((s) => s.action === target.name) as Step;
    return finish('I have what the question asks.', answerOf(own.observation));
  }
  const id = answered.map((s) => firstId(s.observation)).findLast((x) => x !== null) ?? null;
  const needsId = target.pathParams.length > 0;
  // 2. Its ids first, from the documented search of the resource it names.
  if (needsId && id === null) {
    const resource = resourceOf(target.pathParams[0] as string);
    const search =
      tools.find((t) => isSearch(t) && t.head.has(resource)) ??
      tools.find((t) => isSearch(t) && t.body.has(resource));
    if (search && entity !== null && !steps.some((s) => s.action === search.name)) {
      return call(
        `I first look up ${entity} to get the ${resource} id.`,
        search.name,
        argumentsFor(search, entity, null),
      );
    }
    return finish('I cannot find the id this needs.', 'unknown');
  }
  return call(`I call ${target.name} for the question.`, target.name, argumentsFor(target, entity, id));
}
