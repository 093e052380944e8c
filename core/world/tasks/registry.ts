/** Every task template, grouped by dataset in a fixed order (the order fixes task ids and splits). */
import { COFFEE_TEMPLATES } from './templates/coffee.ts';
import { FLIGHTS_TEMPLATES } from './templates/flights.ts';
import type { TaskTemplate } from './types.ts';

export const TASK_TEMPLATES: readonly TaskTemplate[] = [...FLIGHTS_TEMPLATES, ...COFFEE_TEMPLATES];

export function templateById(id: string): TaskTemplate | undefined {
  return TASK_TEMPLATES.find((t) => t.id === id);
}
