/**
 * List and export filters that name a stored resource (`resourceFilter`, http/filters.ts): an id that names none —
 * or another key's — is a 404 like the resource's own path, never an empty page. One per kind of resource, so every
 * list filters by it the same way.
 */
import { TASK_TEMPLATES } from '../../core/world/tasks/registry.ts';
import { findApi } from '../../edge/stores/apis.ts';
import { scheduleHasRuns } from '../../edge/stores/evaluations.ts';
import { getSchedule } from '../../edge/stores/schedules.ts';
import { sessionKnown } from '../../edge/stores/sessions.ts';
import { findSteRun } from '../../edge/stores/ste.ts';
import { findApiSurface, findSurface } from '../../edge/stores/surfaces.ts';
import { getTask } from '../../edge/stores/tasks.ts';
import { explorationKnown } from '../../edge/stores/trajectories.ts';
import { resourceFilter } from '../http/filters.ts';

const owned = <T>(owner: T | null) => owner ?? undefined;

/**
 * A kernel surface, or — on a keyed route — a surface of an imported API the key can see (a drifted version, or
 * the API as imported, whose id its base surface has).
 */
export const surfaceFilter = (description?: string) =>
  resourceFilter(
    100,
    'surface',
    async (env, id, owner) =>
      (await findSurface(env, id)) !== null ||
      (owner !== null &&
        ((await findApiSurface(env, id, owner)) !== null || (await findApi(env, id, owner)) !== null)),
    description,
  );

export const explorationFilter = (description?: string) =>
  resourceFilter(
    200,
    'exploration',
    (env, id, owner) => explorationKnown(env, id, owned(owner)),
    description,
  );

export const steRunFilter = (description?: string) =>
  resourceFilter(
    100,
    'STE run',
    async (env, id, owner) => (await findSteRun(env.DB, id, owned(owner))) !== null,
    description,
  );

/** A schedule, or one deleted since that launched evaluations (its runs are kept). */
export const scheduleFilter = (description?: string) =>
  resourceFilter(
    100,
    'schedule',
    async (env, id, owner) =>
      (await getSchedule(env, id, owned(owner))) !== null || scheduleHasRuns(env, id, owned(owner)),
    description,
  );

export const taskFilter = (description?: string) =>
  resourceFilter(200, 'task', async (env, id) => (await getTask(env, id)) !== null, description);

export const templateFilter = (description?: string) =>
  resourceFilter(
    100,
    'task template',
    async (_env, id) => TASK_TEMPLATES.some((t) => t.id === id),
    description,
  );

export const sessionFilter = (description?: string) =>
  resourceFilter(100, 'session', (env, id, owner) => sessionKnown(env, id, owned(owner)), description);
