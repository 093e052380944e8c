/**
 * The simulated policy under STE's test protocol (`ste/test`, core/ste/evaluation.ts): from the prompt alone it
 * writes one call — the allowed name sharing most words with the query (the only one, in STE's test set) and
 * arguments for the keys the documentation's argument schema lists (`{"date" : string, "days" : integer}`): a number
 * of the query for a numeric key, a date of the query for a date key, else the entity the query names (quoted text
 * or capitalised words). Keys it cannot fill are left out; with probability `noise` it leaves out one more. It never
 * sees the gold call.
 */
import { STE_QUERY_LABEL } from '../prompts/ste.ts';
import { wordTokens } from '../retrieval/text.ts';
import { questionEntity } from './api-agent.ts';
import type { Decider } from './decider.ts';
import type { SimSkills } from './skills.ts';

const NAMES_LINE = /The only names allowed after "Action:" are: (.*)/;

function schemaKeys(docs: string): { key: string; type: string }[] {
  const schema = /args json schema\):\s*\{\{?([\s\S]*?)\}\}?/.exec(docs)?.[1] ?? '';
  return [...schema.matchAll(/"([^"]+)"\s*:\s*([A-Za-z]+)/g)].map((m) => ({
    key: m[1] as string,
    type: (m[2] as string).toLowerCase(),
  }));
}

/** The simulator's reply to an `ste/test` prompt. */
export function steTestReply(prompt: string, skills: SimSkills, d: Decider): string {
  const names = (NAMES_LINE.exec(prompt)?.[1] ?? '').split(', ').filter((n) => n !== '');
  const query = prompt.slice(prompt.lastIndexOf(STE_QUERY_LABEL) + STE_QUERY_LABEL.length).trim();
  if (names.length === 0) return `Final Answer: I have no API for this.`;
  const q = new Set(wordTokens(query));
  const name =
    names
      .map((n, i) => ({ n, i, s: wordTokens(n).filter((w) => q.has(w)).length }))
      .sort((a, b) => b.s - a.s || a.i - b.i)[0]?.n ?? (names[0] as string);
  const numbers = [...query.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => m[0]);
  const dates = [...query.matchAll(/\d{4}-\d{2}-\d{2}/g)].map((m) => m[0]);
  const entity = questionEntity(query);
  const args: Record<string, unknown> = {};
  let n = 0;
  for (const { key, type } of schemaKeys(prompt)) {
    if (/date|day$|time/i.test(key) && type === 'string' && dates[0]) args[key] = dates[0];
    else if (type === 'integer' || type === 'number') {
      const v = numbers.filter((x) => !dates.some((dt) => dt.includes(x)))[n++];
      if (v !== undefined) args[key] = Number(v);
    } else if (entity !== null && !Object.values(args).includes(entity)) args[key] = entity;
  }
  const keys = Object.keys(args);
  if (keys.length > 0 && d.chance('ste-test:drop', skills.noise)) delete args[keys.at(-1) as string];
  return `Action: ${name}\nAction Input: ${JSON.stringify(args)}`;
}
