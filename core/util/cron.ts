/**
 * Cron expressions for evaluation schedules: five fields (minute hour day-of-month month day-of-week), UTC,
 * the same dialect as Cloudflare's cron triggers. Parsing and next-time arithmetic come from `croner`
 * (dependency-free, runs in workerd and Node); this module only pins the dialect and the questions asked.
 */
import { Cron } from 'croner';
import { z } from 'zod';

export type CronCheck = { ok: true } | { ok: false; message: string };

function compile(expr: string): Cron {
  return new Cron(expr, { timezone: 'UTC', paused: true });
}

/** Whether `expr` is a valid five-field UTC cron expression; the message says what is wrong. */
export function checkCron(expr: string): CronCheck {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) {
    return {
      ok: false,
      message: `a cron expression has five fields (minute hour day-of-month month day-of-week), got ${fields.length}`,
    };
  }
  try {
    compile(expr);
    return { ok: true };
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    return { ok: false, message: text.replace(/^CronPattern:\s*/, '') };
  }
}

/** The first due time strictly after `after` (ms since the epoch), or null when there is none. */
export function nextDue(expr: string, after: number): number | null {
  const next = compile(expr).nextRun(new Date(after));
  return next ? next.getTime() : null;
}

/** The latest due time in (after, until], or null when none falls in that window. */
export function latestDueIn(expr: string, after: number, until: number): number | null {
  const cron = compile(expr);
  let latest: number | null = null;
  for (let t = cron.nextRun(new Date(after)); t && t.getTime() <= until; t = cron.nextRun(t)) {
    latest = t.getTime();
  }
  return latest;
}

/**
 * A five-field UTC cron expression as a zod string (at most 100 characters), refused with `checkCron`'s message.
 * A function, so each caller gets its own schema (routes add their OpenAPI description to theirs).
 */
export function cronExpression() {
  return z
    .string()
    .min(1)
    .max(100)
    .superRefine((expr, ctx) => {
      const check = checkCron(expr);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message });
    });
}
