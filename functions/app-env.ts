import type { Bindings } from '../edge/env.ts';
import type { Logger } from '../edge/log.ts';
import type { Principal } from './http/auth.ts';

/** Hono environment shared by every route: bindings plus per-request variables set by middleware. */
export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    log: Logger;
    principal?: Principal;
  };
}
