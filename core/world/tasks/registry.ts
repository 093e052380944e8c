/** Every task template, grouped by dataset in a fixed order (the order fixes task ids and splits). */
import { AGENDA_TEMPLATES } from './templates/agenda.ts';
import { AIRBNB_TEMPLATES } from './templates/airbnb.ts';
import { COFFEE_TEMPLATES } from './templates/coffee.ts';
import { DBLP_TEMPLATES } from './templates/dblp.ts';
import { FLIGHTS_TEMPLATES } from './templates/flights.ts';
import { GSM8K_TEMPLATES } from './templates/gsm8k.ts';
import { SCIREX_TEMPLATES } from './templates/scirex.ts';
import { YELP_TEMPLATES } from './templates/yelp.ts';
import type { TaskTemplate } from './types.ts';

export const TASK_TEMPLATES: readonly TaskTemplate[] = [
  ...FLIGHTS_TEMPLATES,
  ...COFFEE_TEMPLATES,
  ...AIRBNB_TEMPLATES,
  ...YELP_TEMPLATES,
  ...AGENDA_TEMPLATES,
  ...SCIREX_TEMPLATES,
  ...DBLP_TEMPLATES,
  ...GSM8K_TEMPLATES,
];

export function templateById(id: string): TaskTemplate | undefined {
  return TASK_TEMPLATES.find((t) => t.id === id);
}
