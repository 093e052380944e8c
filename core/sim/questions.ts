/**
 * The simulated policy knows the world's task templates the way a model fine-tuned on them would: it recognises
 * a question by its template's wording and reads the slot values back. Each pattern becomes an anchored regex
 * whose slots are lazy `(.+?)` groups (the contract template authors write their patterns for); when several
 * templates match, the one with the most literal text wins. Slot values come back as the text of the question
 * (solvers only interpolate them into tool calls and code).
 */
import { TASK_TEMPLATES } from '../world/tasks/registry.ts';
import { patternSlots, type Slots, type TaskTemplate } from '../world/tasks/types.ts';

interface CompiledTemplate {
  template: TaskTemplate;
  regex: RegExp;
  slots: string[];
  literalLength: number;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

let compiled: CompiledTemplate[] | null = null;

function compiledTemplates(): CompiledTemplate[] {
  if (!compiled) {
    compiled = TASK_TEMPLATES.map((template) => {
      const parts = template.question.split(/\{\w+\}/);
      return {
        template,
        regex: new RegExp(`^${parts.map(escapeRegex).join('(.+?)')}$`, 's'),
        slots: patternSlots(template.question),
        literalLength: parts.join('').length,
      };
    }).sort((a, b) => b.literalLength - a.literalLength);
  }
  return compiled;
}

export interface QuestionMatch {
  template: TaskTemplate;
  slots: Slots;
}

/** The template a question was written from, with its slot values; null for a question of no template. */
export function matchQuestion(question: string): QuestionMatch | null {
  const q = question.trim();
  for (const c of compiledTemplates()) {
    const m = c.regex.exec(q);
    if (!m) continue;
    const slots: Slots = {};
    c.slots.forEach((name, i) => {
      slots[name] = m[i + 1] as string;
    });
    return { template: c.template, slots };
  }
  return null;
}
