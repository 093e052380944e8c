/**
 * Structured JSON logs: one line per event with the request id, so `wrangler tail` / Workers Logs can filter
 * by it. Log records never include request headers or bodies; callers pass only what is safe to keep.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** Field names whose values are never written, wherever they appear. */
const REDACTED = /authorization|api[_-]?key|secret|token|password/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = REDACTED.test(k) ? '[redacted]' : v;
  return out;
}

export function createLogger(
  level: LogLevel,
  base: Record<string, unknown> = {},
  sink: (line: string) => void = console.log,
): Logger {
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return;
    const record = {
      time: new Date().toISOString(),
      level: lvl,
      msg,
      ...redact(base),
      ...redact(fields ?? {}),
    };
    sink(JSON.stringify(record));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }, sink),
  };
}
