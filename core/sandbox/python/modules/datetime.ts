/**
 * The `datetime` module: naive `date`, `datetime`, `time` and `timedelta` with CPython 3.11's arithmetic,
 * normalisation, str/repr forms (`2:30:00`, `1 day, 0:00:00`, `datetime.datetime(2022, 1, 1, 0, 0)`), `strftime`
 * (C/glibc locale, including the `%-d` no-padding flag) and `strptime` (the `_strptime` regular expressions,
 * case-insensitive, `%I` without `%p` mapping 12 to 0). `now()`/`today()` return the sandbox's fixed clock, never
 * the host's; timestamps treat naive values as UTC.
 */

import { MONTH_NAMES } from '../../../util/calendar.ts';
import { bind, moduleFn } from '../args.ts';
import { ratioToFloat } from '../numeric.ts';
import {
  asIndex,
  type BuiltinImpl,
  isInt,
  type Kwargs,
  overflowError,
  PyBuiltin,
  PyModule,
  PyObject,
  PyTuple,
  PyType,
  type PyValue,
  type Runtime,
  toBig,
  typeError,
  typeName,
  valueError,
  zeroDivision,
} from '../objects.ts';

// ------------------------------------------------------------------------------------------------ calendar

const DAYS_IN_MONTH = [-1, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DAYS_BEFORE_MONTH = [-1, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
const MONTHS: readonly string[] = MONTH_NAMES;
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const US_PER_DAY = 86_400_000_000n;

const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const daysInMonth = (y: number, m: number) => (m === 2 && isLeap(y) ? 29 : (DAYS_IN_MONTH[m] as number));
const daysBeforeYear = (y: number) => {
  const p = y - 1;
  return p * 365 + Math.floor(p / 4) - Math.floor(p / 100) + Math.floor(p / 400);
};
const ymdToOrd = (y: number, m: number, d: number) =>
  daysBeforeYear(y) + (DAYS_BEFORE_MONTH[m] as number) + (m > 2 && isLeap(y) ? 1 : 0) + d;

const DI400Y = daysBeforeYear(401);
const DI100Y = daysBeforeYear(101);
const DI4Y = daysBeforeYear(5);

function ordToYmd(ord: number): [number, number, number] {
  let n = ord - 1;
  const n400 = Math.floor(n / DI400Y);
  n -= n400 * DI400Y;
  let year = n400 * 400 + 1;
  const n100 = Math.floor(n / DI100Y);
  n -= n100 * DI100Y;
  const n4 = Math.floor(n / DI4Y);
  n -= n4 * DI4Y;
  const n1 = Math.floor(n / 365);
  n -= n1 * 365;
  year += n100 * 100 + n4 * 4 + n1;
  if (n1 === 4 || n100 === 4) return [year - 1, 12, 31];
  const leap = n1 === 3 && (n4 !== 24 || n100 === 3);
  let month = (n + 50) >> 5;
  let preceding = (DAYS_BEFORE_MONTH[month] as number) + (month > 2 && leap ? 1 : 0);
  if (preceding > n) {
    month -= 1;
    preceding -= (DAYS_IN_MONTH[month] as number) + (month === 2 && leap ? 1 : 0);
  }
  return [year, month, n - preceding + 1];
}

const MAX_ORD = ymdToOrd(9999, 12, 31);

function intArg(v: PyValue | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v === 'number') throw typeError("'float' object cannot be interpreted as an integer");
  return Number(asIndex(v));
}

function checkDate(y: number, m: number, d: number): void {
  if (y < 1 || y > 9999) throw valueError(`year ${y} is out of range`);
  if (m < 1 || m > 12) throw valueError('month must be in 1..12');
  if (d < 1 || d > daysInMonth(y, m)) throw valueError('day is out of range for month');
}

function checkTime(h: number, mi: number, s: number, us: number): void {
  if (h < 0 || h > 23) throw valueError('hour must be in 0..23');
  if (mi < 0 || mi > 59) throw valueError('minute must be in 0..59');
  if (s < 0 || s > 59) throw valueError('second must be in 0..59');
  if (us < 0 || us > 999999) throw valueError('microsecond must be in 0..999999');
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Divides and rounds half to even (CPython's `_divide_and_round`). */
function divideAndRound(a: bigint, b: bigint): bigint {
  let q = a / b;
  let r = a % b;
  if (r !== 0n && r < 0n !== b < 0n) {
    q -= 1n;
    r += b;
  }
  const r2 = 2n * r;
  const greater = b > 0n ? r2 > b : r2 < b;
  if (greater || (r2 === b && q % 2n !== 0n)) q += 1n;
  return q;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function floatRatio(x: number): [bigint, bigint] {
  let d = 1n;
  while (!Number.isInteger(x)) {
    x *= 2;
    d *= 2n;
  }
  return [BigInt(x), d];
}

// ------------------------------------------------------------------------------------------------ strftime

function strftime(
  fmt: string,
  y: number,
  m: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  us: number,
): string {
  const ord = ymdToOrd(y, m, d);
  const wd = (ord + 6) % 7;
  const yday = ord - ymdToOrd(y, 1, 1) + 1;
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i] as string;
    if (c !== '%' || i === fmt.length - 1) {
      out += c;
      continue;
    }
    let k = fmt[++i] as string;
    let noPad = false;
    if (k === '-' && i + 1 < fmt.length) {
      noPad = true;
      k = fmt[++i] as string;
    }
    const num = (n: number, w = 2) => (noPad ? String(n) : pad(n, w));
    const h12 = h % 12 === 0 ? 12 : h % 12;
    switch (k) {
      case 'Y':
        out += noPad ? String(y) : String(y).padStart(4, '0');
        break;
      case 'y':
        out += num(y % 100);
        break;
      case 'm':
        out += num(m);
        break;
      case 'd':
        out += num(d);
        break;
      case 'e':
        out += noPad ? String(d) : String(d).padStart(2, ' ');
        break;
      case 'H':
        out += num(h);
        break;
      case 'I':
        out += num(h12);
        break;
      case 'M':
        out += num(mi);
        break;
      case 'S':
        out += num(s);
        break;
      case 'f':
        out += pad(us, 6);
        break;
      case 'p':
        out += h < 12 ? 'AM' : 'PM';
        break;
      case 'b':
      case 'h':
        out += (MONTHS[m - 1] as string).slice(0, 3);
        break;
      case 'B':
        out += MONTHS[m - 1];
        break;
      case 'a':
        out += (DAYS[wd] as string).slice(0, 3);
        break;
      case 'A':
        out += DAYS[wd];
        break;
      case 'w':
        out += String((wd + 1) % 7);
        break;
      case 'u':
        out += String(wd + 1);
        break;
      case 'j':
        out += num(yday, 3);
        break;
      case 'U': {
        const sundayWd = (wd + 1) % 7;
        out += num(Math.floor((yday + 6 - sundayWd) / 7));
        break;
      }
      case 'W':
        out += num(Math.floor((yday + 6 - wd) / 7));
        break;
      case 'c':
        out += `${(DAYS[wd] as string).slice(0, 3)} ${(MONTHS[m - 1] as string).slice(0, 3)} ${String(d).padStart(2, ' ')} ${pad(h)}:${pad(mi)}:${pad(s)} ${y}`;
        break;
      case 'x':
        out += `${pad(m)}/${pad(d)}/${pad(y % 100)}`;
        break;
      case 'X':
        out += `${pad(h)}:${pad(mi)}:${pad(s)}`;
        break;
      case 'D':
        out += `${pad(m)}/${pad(d)}/${pad(y % 100)}`;
        break;
      case 'F':
        out += `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`;
        break;
      case 'T':
        out += `${pad(h)}:${pad(mi)}:${pad(s)}`;
        break;
      case 'R':
        out += `${pad(h)}:${pad(mi)}`;
        break;
      case 'z':
      case 'Z':
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case '%':
        out += '%';
        break;
      default:
        out += `%${noPad ? '-' : ''}${k}`;
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------------ strptime

const STRPTIME_RE: Record<string, string> = {
  d: '(3[01]|[12]\\d|0[1-9]|[1-9]| [1-9])',
  f: '([0-9]{1,6})',
  H: '(2[0-3]|[0-1]\\d|\\d)',
  I: '(1[0-2]|0[1-9]|[1-9])',
  G: '(\\d\\d\\d\\d)',
  j: '(36[0-6]|3[0-5]\\d|[12]\\d\\d|0[1-9]\\d|00[1-9]|[1-9]\\d|0[1-9]|[1-9])',
  m: '(1[0-2]|0[1-9]|[1-9])',
  M: '([0-5]\\d|\\d)',
  S: '(6[0-1]|[0-5]\\d|\\d)',
  U: '(5[0-3]|[0-4]\\d|\\d)',
  w: '([0-6])',
  u: '([1-7])',
  V: '(5[0-3]|0[1-9]|[1-4]\\d|\\d)',
  y: '(\\d\\d)',
  Y: '(\\d\\d\\d\\d)',
  z: '([+-]\\d\\d:?[0-5]\\d(?::?[0-5]\\d(?:\\.\\d{1,6})?)?|Z)',
  A: `(${DAYS.join('|')})`,
  a: `(${DAYS.map((d) => d.slice(0, 3)).join('|')})`,
  B: `(${MONTHS.join('|')})`,
  b: `(${MONTHS.map((m) => m.slice(0, 3)).join('|')})`,
  p: '(am|pm)',
  Z: '(utc|gmt)',
  W: '(5[0-3]|[0-4]\\d|\\d)',
};

function strptime(data: string, fmt: string): [number, number, number, number, number, number, number] {
  const directives: string[] = [];
  let pattern = '';
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i] as string;
    if (c === '%') {
      if (i === fmt.length - 1) throw valueError(`stray % in format '${fmt}'`);
      const k = fmt[++i] as string;
      if (k === '%') {
        pattern += '%';
        continue;
      }
      const re = Object.hasOwn(STRPTIME_RE, k) ? STRPTIME_RE[k] : undefined;
      if (re === undefined) throw valueError(`'${k}' is a bad directive in format '${fmt}'`);
      directives.push(k);
      pattern += re;
    } else if (/\s/.test(c)) {
      while (i + 1 < fmt.length && /\s/.test(fmt[i + 1] as string)) i++;
      pattern += '\\s+';
    } else {
      pattern += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  const m = new RegExp(`^${pattern}`, 'i').exec(data);
  if (!m) throw valueError(`time data ${quote(data)} does not match format ${quote(fmt)}`);
  if (m[0].length !== data.length) throw valueError(`unconverted data remains: ${data.slice(m[0].length)}`);
  let year = 1900;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let us = 0;
  let julian = -1;
  let ampm = '';
  let hour12: number | null = null;
  directives.forEach((k, idx) => {
    const v = m[idx + 1] as string;
    switch (k) {
      case 'Y':
      case 'G':
        year = Number(v);
        break;
      case 'y': {
        const n = Number(v);
        year = n <= 68 ? n + 2000 : n + 1900;
        break;
      }
      case 'm':
        month = Number(v);
        break;
      case 'B':
        month = MONTHS.findIndex((x) => x.toLowerCase() === v.toLowerCase()) + 1;
        break;
      case 'b':
        month = MONTHS.findIndex((x) => x.slice(0, 3).toLowerCase() === v.toLowerCase()) + 1;
        break;
      case 'd':
        day = Number(v.trim());
        break;
      case 'H':
        hour = Number(v);
        break;
      case 'I':
        hour12 = Number(v);
        break;
      case 'M':
        minute = Number(v);
        break;
      case 'S':
        second = Number(v);
        break;
      case 'f':
        us = Number(v.padEnd(6, '0'));
        break;
      case 'p':
        ampm = v.toLowerCase();
        break;
      case 'j':
        julian = Number(v);
        break;
      case 'z':
      case 'Z':
        throw valueError('timezone-aware datetimes are not supported in this sandbox');
      default:
        break;
    }
  });
  if (hour12 !== null) {
    hour = hour12;
    if (ampm === '' || ampm === 'am') {
      if (hour === 12) hour = 0;
    } else if (hour !== 12) hour += 12;
  }
  if (second === 61 || second === 60) second = 59;
  if (julian > 0) {
    const ord = ymdToOrd(year, 1, 1) + julian - 1;
    [year, month, day] = ordToYmd(ord);
  }
  checkDate(year, month, day);
  return [year, month, day, hour, minute, second, us];
}

function quote(s: string): string {
  return s.includes("'") && !s.includes('"')
    ? `"${s}"`
    : `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

// ------------------------------------------------------------------------------------------------ value classes

type Cmp = '<' | '>' | '==' | '!=' | '<=' | '>=';

function cmpOp(op: Cmp, c: number): boolean {
  switch (op) {
    case '<':
      return c < 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '>=':
      return c >= 0;
    case '==':
      return c === 0;
    default:
      return c !== 0;
  }
}

const big = (n: number) => BigInt(n);

export class PyTimedelta extends PyObject {
  readonly days: number;
  readonly seconds: number;
  readonly micros: number;
  constructor(readonly total: bigint) {
    super();
    const us = ((total % 1000000n) + 1000000n) % 1000000n;
    const secs = floorDiv(total - us, 1000000n);
    const days = floorDiv(secs, 86400n);
    if (days > 999999999n || days < -999999999n) {
      throw overflowError(`days=${days}; must have magnitude <= 999999999`);
    }
    this.days = Number(days);
    this.seconds = Number(secs - days * 86400n);
    this.micros = Number(us);
  }
  get typeName(): string {
    return 'datetime.timedelta';
  }
  pyType(): PyType {
    return TIMEDELTA_TYPE;
  }
  pyRepr(): string {
    const parts: string[] = [];
    if (this.days) parts.push(`days=${this.days}`);
    if (this.seconds) parts.push(`seconds=${this.seconds}`);
    if (this.micros) parts.push(`microseconds=${this.micros}`);
    return `datetime.timedelta(${parts.length ? parts.join(', ') : '0'})`;
  }
  pyStr(): string {
    const mm = Math.floor(this.seconds / 60);
    const ss = this.seconds % 60;
    const hh = Math.floor(mm / 60);
    let s = `${hh}:${pad(mm % 60)}:${pad(ss)}`;
    if (this.days) s = `${this.days} day${Math.abs(this.days) !== 1 ? 's' : ''}, ${s}`;
    if (this.micros) s += `.${pad(this.micros, 6)}`;
    return s;
  }
  pyHashKey(): string {
    return `td${this.total}`;
  }
  pyTruthy(): boolean {
    return this.total !== 0n;
  }
  pyRichCompare(_rt: Runtime, op: Cmp, other: PyValue): PyValue | undefined {
    if (!(other instanceof PyTimedelta)) return op === '==' ? false : op === '!=' ? true : undefined;
    return cmpOp(op, this.total < other.total ? -1 : this.total > other.total ? 1 : 0);
  }
  pyUnary(_rt: Runtime, op: string): PyValue | undefined {
    if (op === '-') return new PyTimedelta(-this.total);
    if (op === '+') return this;
    if (op === 'abs') return this.total < 0n ? new PyTimedelta(-this.total) : this;
    return undefined;
  }
  pyBinop(_rt: Runtime, op: string, other: PyValue, reflected: boolean): PyValue | undefined {
    if (other instanceof PyTimedelta) {
      const [a, b] = reflected ? [other.total, this.total] : [this.total, other.total];
      switch (op) {
        case '+':
          return new PyTimedelta(a + b);
        case '-':
          return new PyTimedelta(a - b);
        case '/':
          if (b === 0n) throw zeroDivision('integer division or modulo by zero');
          return ratioToFloat(a, b);
        case '//':
          if (b === 0n) throw zeroDivision('integer division or modulo by zero');
          return floorDiv(a, b);
        case '%':
          if (b === 0n) throw zeroDivision('integer modulo by zero');
          return new PyTimedelta(a - floorDiv(a, b) * b);
        case 'divmod': {
          if (b === 0n) throw zeroDivision('integer division or modulo by zero');
          const q = floorDiv(a, b);
          return new PyTuple([q, new PyTimedelta(a - q * b)]);
        }
      }
      return undefined;
    }
    if (isInt(other)) {
      const n = toBig(other);
      if (op === '*') return new PyTimedelta(this.total * n);
      if (!reflected && op === '/') {
        if (n === 0n) throw zeroDivision('integer division or modulo by zero');
        return new PyTimedelta(divideAndRound(this.total, n));
      }
      if (!reflected && op === '//') {
        if (n === 0n) throw zeroDivision('integer division or modulo by zero');
        return new PyTimedelta(floorDiv(this.total, n));
      }
      return undefined;
    }
    if (typeof other === 'number') {
      if (op === '*') {
        if (!Number.isFinite(other)) throw valueError('cannot convert float NaN to integer');
        const [a, b] = floatRatio(other);
        return new PyTimedelta(divideAndRound(this.total * a, b));
      }
      if (!reflected && op === '/') {
        if (other === 0) throw zeroDivision('integer division or modulo by zero');
        const [a, b] = floatRatio(other);
        return new PyTimedelta(divideAndRound(b * this.total, a));
      }
    }
    return undefined;
  }
  pyGetAttr(_rt: Runtime, name: string): PyValue | undefined {
    switch (name) {
      case 'days':
        return big(this.days);
      case 'seconds':
        return big(this.seconds);
      case 'microseconds':
        return big(this.micros);
      case 'total_seconds':
        return method(this, name, () => ratioToFloat(this.total, 1000000n));
    }
    return undefined;
  }
}

function method(
  self: PyValue,
  name: string,
  f: (rt: Runtime, args: PyValue[], kw: Kwargs | null) => PyValue,
): PyBuiltin {
  return new PyBuiltin(name, f, { kind: 'method', self, name });
}

export class PyDate extends PyObject {
  constructor(
    readonly year: number,
    readonly month: number,
    readonly day: number,
  ) {
    super();
  }
  get typeName(): string {
    return 'datetime.date';
  }
  pyType(): PyType {
    return DATE_TYPE;
  }
  get ord(): number {
    return ymdToOrd(this.year, this.month, this.day);
  }
  isoDate(): string {
    return `${String(this.year).padStart(4, '0')}-${pad(this.month)}-${pad(this.day)}`;
  }
  pyRepr(): string {
    return `datetime.date(${this.year}, ${this.month}, ${this.day})`;
  }
  pyStr(): string {
    return this.isoDate();
  }
  pyHashKey(): string {
    return `d${this.ord}`;
  }
  pyFormat(_rt: Runtime, spec: string): string {
    return this.strftime(spec);
  }
  strftime(fmt: string): string {
    return strftime(fmt, this.year, this.month, this.day, 0, 0, 0, 0);
  }
  pyRichCompare(_rt: Runtime, op: Cmp, other: PyValue): PyValue | undefined {
    if (!(other instanceof PyDate) || other instanceof PyDatetime) {
      if (op === '==' || op === '!=') return op === '!=';
      if (other instanceof PyDatetime) throw typeError(`can't compare datetime.date to datetime.datetime`);
      return undefined;
    }
    return cmpOp(op, this.ord - other.ord);
  }
  pyBinop(_rt: Runtime, op: string, other: PyValue, reflected: boolean): PyValue | undefined {
    if (other instanceof PyTimedelta && (op === '+' || (op === '-' && !reflected))) {
      const ord = this.ord + (op === '+' ? other.days : -other.days);
      if (ord < 1 || ord > MAX_ORD) throw overflowError('date value out of range');
      return new PyDate(...ordToYmd(ord));
    }
    if (op === '-' && other instanceof PyDate && !(other instanceof PyDatetime)) {
      const d = reflected ? other.ord - this.ord : this.ord - other.ord;
      return new PyTimedelta(big(d) * US_PER_DAY);
    }
    return undefined;
  }
  pyGetAttr(_rt: Runtime, name: string): PyValue | undefined {
    switch (name) {
      case 'year':
        return big(this.year);
      case 'month':
        return big(this.month);
      case 'day':
        return big(this.day);
      case 'weekday':
        return method(this, name, () => big((this.ord + 6) % 7));
      case 'isoweekday':
        return method(this, name, () => big(((this.ord + 6) % 7) + 1));
      case 'toordinal':
        return method(this, name, () => big(this.ord));
      case 'isoformat':
        return method(this, name, () => this.isoDate());
      case 'ctime':
        return method(this, name, () => this.strftime('%c'));
      case 'strftime':
        return method(this, name, (_r, args, kw) => {
          const [f] = bind('strftime', args, kw, ['format'], 1);
          if (typeof f !== 'string')
            throw typeError(`strftime() argument 1 must be str, not ${typeName(f ?? null)}`);
          return this.strftime(f);
        });
      case 'isocalendar':
        return method(this, name, () => new PyTuple(isoCalendar(this.ord).map(big)));
      case 'replace':
        return method(this, name, (_r, args, kw) => {
          const [y, m, d] = bind('replace', args, kw, ['year', 'month', 'day'], 0);
          return makeDate(intArg(y, this.year), intArg(m, this.month), intArg(d, this.day));
        });
    }
    return undefined;
  }
}

function isoCalendar(ord: number): [number, number, number] {
  const [y] = ordToYmd(ord);
  const week1 = (yr: number) => {
    const first = ymdToOrd(yr, 1, 1);
    const wd = (first + 6) % 7;
    let start = first - wd;
    if (wd > 3) start += 7;
    return start;
  };
  let year = y;
  let start = week1(year);
  if (ord < start) {
    year -= 1;
    start = week1(year);
  } else if (ord >= week1(year + 1)) {
    year += 1;
    start = week1(year);
  }
  const week = Math.floor((ord - start) / 7) + 1;
  return [year, week, ((ord + 6) % 7) + 1];
}

export class PyDatetime extends PyDate {
  constructor(
    year: number,
    month: number,
    day: number,
    readonly hour: number,
    readonly minute: number,
    readonly second: number,
    readonly micro: number,
  ) {
    super(year, month, day);
  }
  override get typeName(): string {
    return 'datetime.datetime';
  }
  override pyType(): PyType {
    return DATETIME_TYPE;
  }
  /** Microseconds since 0001-01-01 00:00. */
  get stamp(): bigint {
    return (
      big(this.ord - 1) * US_PER_DAY +
      big(((this.hour * 60 + this.minute) * 60 + this.second) * 1000000 + this.micro)
    );
  }
  static fromStamp(us: bigint): PyDatetime {
    if (us < 0n || us >= big(MAX_ORD) * US_PER_DAY) throw overflowError('date value out of range');
    const days = Number(us / US_PER_DAY);
    let rest = Number(us % US_PER_DAY);
    const micro = rest % 1000000;
    rest = (rest - micro) / 1000000;
    const [y, m, d] = ordToYmd(days + 1);
    return new PyDatetime(y, m, d, Math.floor(rest / 3600), Math.floor(rest / 60) % 60, rest % 60, micro);
  }
  timePart(): string {
    let s = `${pad(this.hour)}:${pad(this.minute)}:${pad(this.second)}`;
    if (this.micro) s += `.${pad(this.micro, 6)}`;
    return s;
  }
  override pyRepr(): string {
    const l = [this.year, this.month, this.day, this.hour, this.minute, this.second, this.micro];
    if (l[6] === 0) l.pop();
    if (l[5] === 0 && l.length === 6) l.pop();
    return `datetime.datetime(${l.join(', ')})`;
  }
  override pyStr(): string {
    return `${this.isoDate()} ${this.timePart()}`;
  }
  override pyHashKey(): string {
    return `dt${this.stamp}`;
  }
  override strftime(fmt: string): string {
    return strftime(fmt, this.year, this.month, this.day, this.hour, this.minute, this.second, this.micro);
  }
  override pyRichCompare(_rt: Runtime, op: Cmp, other: PyValue): PyValue | undefined {
    if (!(other instanceof PyDatetime)) {
      if (op === '==' || op === '!=') return op === '!=';
      if (other instanceof PyDate) throw typeError(`can't compare datetime.datetime to datetime.date`);
      return undefined;
    }
    const a = this.stamp;
    const b = other.stamp;
    return cmpOp(op, a < b ? -1 : a > b ? 1 : 0);
  }
  override pyBinop(_rt: Runtime, op: string, other: PyValue, reflected: boolean): PyValue | undefined {
    if (other instanceof PyTimedelta && (op === '+' || (op === '-' && !reflected))) {
      return PyDatetime.fromStamp(this.stamp + (op === '+' ? other.total : -other.total));
    }
    if (op === '-' && other instanceof PyDatetime) {
      return new PyTimedelta(reflected ? other.stamp - this.stamp : this.stamp - other.stamp);
    }
    return undefined;
  }
  override pyGetAttr(rt: Runtime, name: string): PyValue | undefined {
    switch (name) {
      case 'hour':
        return big(this.hour);
      case 'minute':
        return big(this.minute);
      case 'second':
        return big(this.second);
      case 'microsecond':
        return big(this.micro);
      case 'tzinfo':
        return null;
      case 'date':
        return method(this, name, () => new PyDate(this.year, this.month, this.day));
      case 'time':
        return method(this, name, () => new PyTime(this.hour, this.minute, this.second, this.micro));
      case 'timestamp':
        return method(this, name, () => ratioToFloat(this.stamp - EPOCH_STAMP, 1000000n));
      case 'isoformat':
        return method(this, name, (_r, args, kw) => {
          const [sep] = bind('isoformat', args, kw, ['sep', 'timespec'], 0);
          const sp = typeof sep === 'string' ? sep : 'T';
          return `${this.isoDate()}${sp}${this.timePart()}`;
        });
      case 'replace':
        return method(this, name, (_r, args, kw) => {
          const [y, m, d, h, mi, s, us] = bind(
            'replace',
            args,
            kw,
            ['year', 'month', 'day', 'hour', 'minute', 'second', 'microsecond'],
            0,
          );
          return makeDatetime(
            intArg(y, this.year),
            intArg(m, this.month),
            intArg(d, this.day),
            intArg(h, this.hour),
            intArg(mi, this.minute),
            intArg(s, this.second),
            intArg(us, this.micro),
          );
        });
    }
    return super.pyGetAttr(rt, name);
  }
}

const EPOCH_STAMP = big(ymdToOrd(1970, 1, 1) - 1) * US_PER_DAY;

export class PyTime extends PyObject {
  constructor(
    readonly hour: number,
    readonly minute: number,
    readonly second: number,
    readonly micro: number,
  ) {
    super();
  }
  get typeName(): string {
    return 'datetime.time';
  }
  pyType(): PyType {
    return TIME_TYPE;
  }
  get key(): number {
    return ((this.hour * 60 + this.minute) * 60 + this.second) * 1000000 + this.micro;
  }
  iso(): string {
    let s = `${pad(this.hour)}:${pad(this.minute)}:${pad(this.second)}`;
    if (this.micro) s += `.${pad(this.micro, 6)}`;
    return s;
  }
  pyRepr(): string {
    const l = [this.hour, this.minute, this.second, this.micro];
    if (l[3] === 0) l.pop();
    if (l[2] === 0 && l.length === 3) l.pop();
    return `datetime.time(${l.join(', ')})`;
  }
  pyStr(): string {
    return this.iso();
  }
  pyHashKey(): string {
    return `tm${this.key}`;
  }
  pyTruthy(): boolean {
    return true;
  }
  pyFormat(_rt: Runtime, spec: string): string {
    return strftime(spec, 1900, 1, 1, this.hour, this.minute, this.second, this.micro);
  }
  pyRichCompare(_rt: Runtime, op: Cmp, other: PyValue): PyValue | undefined {
    if (!(other instanceof PyTime)) return op === '==' ? false : op === '!=' ? true : undefined;
    return cmpOp(op, this.key - other.key);
  }
  pyGetAttr(_rt: Runtime, name: string): PyValue | undefined {
    switch (name) {
      case 'hour':
        return big(this.hour);
      case 'minute':
        return big(this.minute);
      case 'second':
        return big(this.second);
      case 'microsecond':
        return big(this.micro);
      case 'tzinfo':
        return null;
      case 'isoformat':
        return method(this, name, () => this.iso());
      case 'strftime':
        return method(this, name, (_r, args, kw) => {
          const [f] = bind('strftime', args, kw, ['format'], 1);
          if (typeof f !== 'string')
            throw typeError(`strftime() argument 1 must be str, not ${typeName(f ?? null)}`);
          return strftime(f, 1900, 1, 1, this.hour, this.minute, this.second, this.micro);
        });
      case 'replace':
        return method(this, name, (_r, args, kw) => {
          const [h, m, s, us] = bind('replace', args, kw, ['hour', 'minute', 'second', 'microsecond'], 0);
          return makeTime(
            intArg(h, this.hour),
            intArg(m, this.minute),
            intArg(s, this.second),
            intArg(us, this.micro),
          );
        });
    }
    return undefined;
  }
}

// ------------------------------------------------------------------------------------------------ constructors

export function makeDate(y: number, m: number, d: number): PyDate {
  checkDate(y, m, d);
  return new PyDate(y, m, d);
}

export function makeDatetime(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  us: number,
): PyDatetime {
  checkDate(y, mo, d);
  checkTime(h, mi, s, us);
  return new PyDatetime(y, mo, d, h, mi, s, us);
}

export function makeTime(h: number, mi: number, s: number, us: number): PyTime {
  checkTime(h, mi, s, us);
  return new PyTime(h, mi, s, us);
}

const TD_UNITS: readonly [string, bigint][] = [
  ['days', 86400n * 1000000n],
  ['seconds', 1000000n],
  ['microseconds', 1n],
  ['milliseconds', 1000n],
  ['minutes', 60n * 1000000n],
  ['hours', 3600n * 1000000n],
  ['weeks', 7n * 86400n * 1000000n],
];

function constructTimedelta(_rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue {
  const vals = bind(
    'timedelta',
    args,
    kw,
    TD_UNITS.map((u) => u[0]),
    0,
  );
  // Exact rational sum n/d of all components, rounded half-even to whole microseconds.
  let n = 0n;
  let d = 1n;
  vals.forEach((v, i) => {
    if (v === undefined) return;
    const unit = (TD_UNITS[i] as [string, bigint])[1];
    if (isInt(v)) {
      n += toBig(v) * unit * d;
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw valueError('cannot convert float NaN to integer');
      const [a, b] = floatRatio(v);
      n = n * b + a * unit * d;
      d *= b;
    } else {
      throw typeError(
        `unsupported type for timedelta ${(TD_UNITS[i] as [string, bigint])[0]} component: ${typeName(v)}`,
      );
    }
  });
  return new PyTimedelta(divideAndRound(n, d));
}

function parseIso(s: string, withTime: boolean): PyDate {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d{1,6}))?)?)?)?$/.exec(s);
  if (!m || (!withTime && m[4] !== undefined)) throw valueError(`Invalid isoformat string: ${quote(s)}`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!withTime) return makeDate(y, mo, d);
  return makeDatetime(
    y,
    mo,
    d,
    Number(m[4] ?? 0),
    Number(m[5] ?? 0),
    Number(m[6] ?? 0),
    Number((m[7] ?? '0').padEnd(6, '0')),
  );
}

function classMethod(type: string, name: string, impl: BuiltinImpl): PyBuiltin {
  return moduleFn('datetime', name, impl, [type, name]);
}

export const TIMEDELTA_TYPE = new PyType(
  'timedelta',
  constructTimedelta,
  null,
  new Map(),
  { kind: 'module', module: 'datetime', path: ['timedelta'] },
  'datetime.timedelta',
);

export const DATE_TYPE = new PyType(
  'date',
  (_rt, args, kw) => {
    const [y, m, d] = bind('date', args, kw, ['year', 'month', 'day'], 3);
    return makeDate(intArg(y, 0), intArg(m, 0), intArg(d, 0));
  },
  null,
  new Map(),
  { kind: 'module', module: 'datetime', path: ['date'] },
  'datetime.date',
);

export const DATETIME_TYPE = new PyType(
  'datetime',
  (_rt, args, kw) => {
    const [y, mo, d, h, mi, s, us, tz] = bind(
      'datetime',
      args,
      kw,
      ['year', 'month', 'day', 'hour', 'minute', 'second', 'microsecond', 'tzinfo'],
      3,
    );
    if (tz !== undefined && tz !== null)
      throw valueError('timezone-aware datetimes are not supported in this sandbox');
    return makeDatetime(
      intArg(y, 0),
      intArg(mo, 0),
      intArg(d, 0),
      intArg(h, 0),
      intArg(mi, 0),
      intArg(s, 0),
      intArg(us, 0),
    );
  },
  DATE_TYPE,
  new Map(),
  { kind: 'module', module: 'datetime', path: ['datetime'] },
  'datetime.datetime',
);

export const TIME_TYPE = new PyType(
  'time',
  (_rt, args, kw) => {
    const [h, mi, s, us] = bind('time', args, kw, ['hour', 'minute', 'second', 'microsecond', 'tzinfo'], 0);
    return makeTime(intArg(h, 0), intArg(mi, 0), intArg(s, 0), intArg(us, 0));
  },
  null,
  new Map(),
  { kind: 'module', module: 'datetime', path: ['time'] },
  'datetime.time',
);

function strArg(fname: string, v: PyValue | undefined, pos: number): string {
  if (typeof v !== 'string')
    throw typeError(`${fname}() argument ${pos} must be str, not ${typeName(v ?? null)}`);
  return v;
}

function initTypes(): void {
  const nowDt = (rt: Runtime) => PyDatetime.fromStamp(rt.now.epochMicros);
  DATETIME_TYPE.attrs.set(
    'strptime',
    classMethod('datetime', 'strptime', (_rt, args, kw) => {
      const [s, f] = bind('strptime', args, kw, ['date_string', 'format'], 2);
      const parts = strptime(strArg('strptime', s, 1), strArg('strptime', f, 2));
      return new PyDatetime(...parts);
    }),
  );
  DATETIME_TYPE.attrs.set(
    'now',
    classMethod('datetime', 'now', (rt) => nowDt(rt)),
  );
  DATETIME_TYPE.attrs.set(
    'today',
    classMethod('datetime', 'today', (rt) => nowDt(rt)),
  );
  DATETIME_TYPE.attrs.set(
    'utcnow',
    classMethod('datetime', 'utcnow', (rt) => nowDt(rt)),
  );
  DATETIME_TYPE.attrs.set(
    'combine',
    classMethod('datetime', 'combine', (_rt, args, kw) => {
      const [d, t] = bind('combine', args, kw, ['date', 'time'], 2);
      if (!(d instanceof PyDate))
        throw typeError(`combine() argument 1 must be datetime.date, not ${typeName(d ?? null)}`);
      if (!(t instanceof PyTime))
        throw typeError(`combine() argument 2 must be datetime.time, not ${typeName(t ?? null)}`);
      return new PyDatetime(d.year, d.month, d.day, t.hour, t.minute, t.second, t.micro);
    }),
  );
  DATETIME_TYPE.attrs.set(
    'fromisoformat',
    classMethod('datetime', 'fromisoformat', (_rt, args) =>
      parseIso(strArg('fromisoformat', args[0], 1), true),
    ),
  );
  DATETIME_TYPE.attrs.set(
    'fromtimestamp',
    classMethod('datetime', 'fromtimestamp', (_rt, args) => {
      const v = args[0];
      if (typeof v !== 'number' && !isInt(v ?? null))
        throw typeError(`'${typeName(v ?? null)}' object cannot be interpreted as an integer`);
      const us = typeof v === 'number' ? BigInt(Math.round(v * 1e6)) : toBig(v as bigint) * 1000000n;
      return PyDatetime.fromStamp(EPOCH_STAMP + us);
    }),
  );
  DATETIME_TYPE.attrs.set(
    'fromordinal',
    classMethod('datetime', 'fromordinal', (_rt, args) => {
      const n = intArg(args[0], 1);
      if (n < 1 || n > MAX_ORD) throw valueError(`ordinal must be >= 1`);
      const [y, m, d] = ordToYmd(n);
      return new PyDatetime(y, m, d, 0, 0, 0, 0);
    }),
  );
  DATE_TYPE.attrs.set(
    'today',
    classMethod('date', 'today', (rt) => {
      const dt = nowDt(rt);
      return new PyDate(dt.year, dt.month, dt.day);
    }),
  );
  DATE_TYPE.attrs.set(
    'fromisoformat',
    classMethod('date', 'fromisoformat', (_rt, args) => parseIso(strArg('fromisoformat', args[0], 1), false)),
  );
  DATE_TYPE.attrs.set(
    'fromordinal',
    classMethod('date', 'fromordinal', (_rt, args) => {
      const n = intArg(args[0], 1);
      if (n < 1 || n > MAX_ORD) throw valueError(`ordinal must be >= 1`);
      return new PyDate(...ordToYmd(n));
    }),
  );
  DATE_TYPE.attrs.set('min', new PyDate(1, 1, 1));
  DATE_TYPE.attrs.set('max', new PyDate(9999, 12, 31));
  DATETIME_TYPE.attrs.set('min', new PyDatetime(1, 1, 1, 0, 0, 0, 0));
  DATETIME_TYPE.attrs.set('max', new PyDatetime(9999, 12, 31, 23, 59, 59, 999999));
  TIMEDELTA_TYPE.attrs.set('min', new PyTimedelta(-999999999n * US_PER_DAY));
  TIMEDELTA_TYPE.attrs.set('max', new PyTimedelta(1000000000n * US_PER_DAY - 1n));
  TIMEDELTA_TYPE.attrs.set('resolution', new PyTimedelta(1n));
  TIME_TYPE.attrs.set('min', new PyTime(0, 0, 0, 0));
  TIME_TYPE.attrs.set('max', new PyTime(23, 59, 59, 999999));
}
initTypes();

export function createDatetimeModule(): PyModule {
  const attrs = new Map<string, PyValue>([
    ['date', DATE_TYPE],
    ['datetime', DATETIME_TYPE],
    ['time', TIME_TYPE],
    ['timedelta', TIMEDELTA_TYPE],
    ['MINYEAR', 1n],
    ['MAXYEAR', 9999n],
  ]);
  return new PyModule('datetime', attrs);
}

/** For snapshots: rebuild values from their fields. */
export function restoreDatetimeValue(kind: string, v: readonly number[] | string): PyValue {
  if (kind === 'timedelta') return new PyTimedelta(BigInt(v as string));
  const n = v as readonly number[];
  if (kind === 'date') return new PyDate(n[0] as number, n[1] as number, n[2] as number);
  if (kind === 'time') return new PyTime(n[0] as number, n[1] as number, n[2] as number, n[3] as number);
  return new PyDatetime(
    n[0] as number,
    n[1] as number,
    n[2] as number,
    n[3] as number,
    n[4] as number,
    n[5] as number,
    n[6] as number,
  );
}
