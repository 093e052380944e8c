/** Tool pools from the world's surfaces: each exposed tool as `{name, description, parameters}`. */
import { toolArgumentsSchema } from '../surfaces/docs.ts';
import type { Surface } from '../surfaces/model.ts';
import type { Tool } from './types.ts';

export function surfaceToolPool(surface: Surface): Tool[] {
  return surface.tools.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: toolArgumentsSchema(t) as Record<string, unknown>,
  }));
}
