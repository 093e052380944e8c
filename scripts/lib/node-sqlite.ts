/**
 * The world's SQL mirror in an in-memory node:sqlite database, for benchmarks and Node-side checks of
 * SQLInterpreter (the Worker uses D1 with the same statements).
 */
import { DatabaseSync } from 'node:sqlite';
import type { SqlExecutor } from '../../core/sandbox/sql/run.ts';
import type { World } from '../../core/world/types.ts';
import { mirrorStatements } from '../../db/world-seed.ts';

export function nodeSqliteMirror(world: World): { db: DatabaseSync; executor: SqlExecutor } {
  const db = new DatabaseSync(':memory:');
  for (const statement of mirrorStatements(world)) db.exec(statement);
  return {
    db,
    executor: {
      async all(sql) {
        return db.prepare(sql).all() as Record<string, unknown>[];
      },
    },
  };
}
