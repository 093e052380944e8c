/**
 * The agenda table's 12-hour → 24-hour time conversion (spec §2.5, §3.3 5): Python
 * `datetime.strptime(t, '%I:%M %p')`, falling back to `'%I %p'`, rendered as `HH:MM:SS`; a value matching neither
 * format is kept unchanged. Applied to the `start_time`/`end_time` cells when the agenda table is loaded and to
 * FilterDB values on those columns.
 */
import { PY_WS_CLASS } from './python-text.ts';

// strptime builds its regex case-insensitively: %I = 1[0-2]|0[1-9]|[1-9], %M = [0-5]\d|\d, %p = am|pm, and a
// space in the format matches any run of whitespace; the whole string must be consumed.
const WITH_MINUTES = new RegExp(`^(1[0-2]|0[1-9]|[1-9]):([0-5][0-9]|[0-9])${PY_WS_CLASS}+(am|pm)$`, 'i');
const HOUR_ONLY = new RegExp(`^(1[0-2]|0[1-9]|[1-9])${PY_WS_CLASS}+(am|pm)$`, 'i');

/** `HH:MM:SS` for a 12-hour time such as `9:00 AM` or `6 PM`, or null when strptime would reject it. */
export function convertAgendaTime(value: string): string | null {
  let hour: number;
  let minute = 0;
  let meridiem: string;
  const m = WITH_MINUTES.exec(value);
  if (m) {
    hour = Number(m[1]);
    minute = Number(m[2]);
    meridiem = m[3] as string;
  } else {
    const h = HOUR_ONLY.exec(value);
    if (!h) return null;
    hour = Number(h[1]);
    meridiem = h[2] as string;
  }
  const pm = meridiem.toLowerCase() === 'pm';
  const hour24 = (hour % 12) + (pm ? 12 : 0);
  return `${String(hour24).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00`;
}
