/**
 * The realistic failures the simulated policy makes at its `noise` rate (see skills.ts), as text transformations:
 * - `malformed` — the step cannot be parsed or decoded: the call in bracket syntax on the Action line without an
 *   Action Input, the JSON inside a code fence, or a single-quoted (Python-style) dict;
 * - `wrong-value` — one argument value is slightly wrong (a digit off, a letter dropped);
 * - `hallucinated-tool` — a plausible tool name that is not the right one (`Load_DB`, `FilterDBTool`);
 * - `deprecated-again` — the deprecated tool is called again although its replacement already worked (not when
 *   an UpdateTool line of the tool list describes the replacement: see policy.ts);
 * - `premature-finish` — Finish with a guess before the plan is complete;
 * - `wrong-finish` — the final answer slightly wrong.
 */
import { writeJsonValue } from '../prompts/react-format.ts';
import type { KernelCall } from '../world/kernel/kernel.ts';
import type { Decider } from './decider.ts';

/** A slightly wrong copy of a value: the last digit changed, else a letter of the longest word dropped. */
export function mutateText(text: string): string {
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) return `${text.slice(0, i)}${(c - 48 + 1) % 10}${text.slice(i + 1)}`;
  }
  const words = [...text.matchAll(/[A-Za-z]{3,}/g)];
  if (words.length === 0) return `${text}x`;
  const longest = words.reduce((a, b) => ((b[0] as string).length > (a[0] as string).length ? b : a));
  const at = (longest.index as number) + Math.floor((longest[0] as string).length / 2);
  return `${text.slice(0, at)}${text.slice(at + 1)}`;
}

/** The call with one string argument slightly wrong (null when it has no string argument). */
export function wrongValueCall(call: KernelCall): KernelCall | null {
  const key = Object.keys(call.args).find((k) => typeof call.args[k] === 'string' && call.args[k] !== '');
  if (key === undefined) return null;
  return { tool: call.tool, args: { ...call.args, [key]: mutateText(call.args[key] as string) } };
}

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter((w) => w !== '');
}

/** Plausible wrong names for a tool, none equal to `name` or to a name in `known`. */
export function hallucinatedNames(name: string, known: ReadonlySet<string>): string[] {
  const w = words(name);
  const pascal = w.map((x) => `${x.charAt(0).toUpperCase()}${x.slice(1)}`);
  const candidates = [
    pascal.join('_'),
    pascal.join(''),
    `${name}Tool`,
    `${pascal.join('')}V2`,
    `Call${pascal.join('')}`,
  ];
  return [...new Set(candidates)].filter((c) => c !== name && !known.has(c));
}

/** A wrong final answer close to the right one. */
export function wrongAnswer(answer: unknown): unknown {
  if (typeof answer === 'number') return Number.isInteger(answer) ? answer + 1 : answer * 1.1;
  const text = String(answer);
  if (/^yes$/i.test(text)) return 'No';
  if (/^no$/i.test(text)) return 'Yes';
  if (/\d/.test(text)) return mutateText(text);
  const parts = text.split(' ');
  if (parts.length > 1) return parts.slice(0, -1).join(' ');
  return text.length > 3 ? text.slice(0, Math.ceil(text.length / 2)) : `${text}s`;
}

/** A guess from the last observation: its last number, else its first words. */
export function guessAnswer(lastObservation: string | null): string {
  if (!lastObservation) return 'unknown';
  const numbers = lastObservation.match(/-?\d+(?:\.\d+)?/g);
  if (numbers && numbers.length > 0) return numbers[numbers.length - 1] as string;
  const firstWords = lastObservation.trim().split(/\s+/).slice(0, 3).join(' ');
  return firstWords === '' ? 'unknown' : firstWords;
}

/** The step text with a malformed call (the actionInput is the valid JSON the step should have had). */
export function malformedText(
  thought: string,
  action: string,
  args: readonly (readonly [string, unknown])[],
  actionInput: string,
  d: Decider,
): string {
  const form = d.weighted('malformed:form', ['brackets', 'fence', 'single-quotes'] as const, [1, 1, 1]);
  switch (form) {
    case 'brackets': {
      const values = args.map(([, v]) => (typeof v === 'string' ? v : writeJsonValue(v))).join(', ');
      return `Thought: ${thought}\n\nAction: ${action}[${values}]`;
    }
    case 'fence':
      return `Thought: ${thought}\n\nAction: ${action}\n\nAction Input: \`\`\`json\n${actionInput}\n\`\`\``;
    case 'single-quotes': {
      const py = args
        .map(
          ([k, v]) => `'${k}': ${typeof v === 'string' ? `'${v.replace(/\n/g, '\\n')}'` : writeJsonValue(v)}`,
        )
        .join(', ');
      return `Thought: ${thought}\n\nAction: ${action}\n\nAction Input: {${py}}`;
    }
  }
}
