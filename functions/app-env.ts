import type { Bindings } from './env.ts';
import type { Principal } from './http/auth.ts';
import type { Logger } from './http/log.ts';

/** Hono environment shared by every route: bindings plus per-request variables set by middleware. */
export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    log: Logger;
    principal?: Principal;
  };
}
