/**
 * Passage retrieval for RetrieveAgenda / RetrieveScirex. The original embeds the keyword with all-mpnet-base-v2
 * and returns the 3 nearest passages from a vector store; tooldrift ranks with BM25 (k1 = 1.2, b = 0.75), which is
 * deterministic, needs no model and runs in a Worker. Like the original, a search always returns k passages when
 * the corpus has that many, relevant or not (ties, including all-zero scores, go to the earlier passage).
 *
 * Terms are lower-cased Unicode letter/mark/digit runs. Numbers lose leading zeros and ordinal suffixes (`06` → `6`,
 * `3rd` → `3`) and month names become month numbers, so `2022/06/03` and `June 3rd, 2022` share the terms
 * `2022 6 3`; recognised dates additionally yield a canonical date term (`date:2022-6-3`, and the month-day term
 * `md:6-3`, also for dates without a year), which makes the exact date dominate the ranking.
 *
 * Building is the hot path (10,000 passages per world): the scanner hashes ASCII words as it reads them and
 * interns them in an open-addressing table, so a term string is allocated only the first time it is seen.
 */
import type { Passage } from './types.ts';

const K1 = 1.2;
const B = 0.75;

const MONTH_NAMES: readonly (readonly [string, number])[] = [
  ['january', 1],
  ['jan', 1],
  ['february', 2],
  ['feb', 2],
  ['march', 3],
  ['mar', 3],
  ['april', 4],
  ['apr', 4],
  ['may', 5],
  ['june', 6],
  ['jun', 6],
  ['july', 7],
  ['jul', 7],
  ['august', 8],
  ['aug', 8],
  ['september', 9],
  ['sep', 9],
  ['sept', 9],
  ['october', 10],
  ['oct', 10],
  ['november', 11],
  ['nov', 11],
  ['december', 12],
  ['dec', 12],
];
const MONTHS: ReadonlyMap<string, number> = new Map(MONTH_NAMES);
const MONTH_INITIALS: ReadonlySet<number> = new Set(MONTH_NAMES.map(([name]) => name.charCodeAt(0)));
const MONTH_TERMS = Array.from({ length: 13 }, (_, m) => String(m));

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hashString(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

const MONTH_BY_HASH: ReadonlyMap<number, number> = new Map(
  MONTH_NAMES.map(([name, m]) => [hashString(name), m]),
);

const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const wordCharCache = new Map<number, boolean>();

/** Non-ASCII BMP code unit that is a letter, mark or number. */
function isWordUnit(c: number): boolean {
  let w = wordCharCache.get(c);
  if (w === undefined) {
    w = c < 0xd800 || c > 0xdfff ? WORD_CHAR.test(String.fromCharCode(c)) : false;
    wordCharCache.set(c, w);
  }
  return w;
}

/** Receives the terms of a text: ASCII words as (lower-cased) ranges of the source, everything else as strings. */
interface TermSink {
  range(src: string, start: number, end: number, hash: number): void;
  term(t: string): void;
}

// Per-token facts for date detection, in reusable scratch arrays.
let cap = 256;
let tokNum = new Int32Array(cap); // value of a number token (digits, or digits + st/nd/rd/th), else -1
let tokDigits = new Int32Array(cap); // count of leading digits
let tokFlags = new Uint8Array(cap); // ORDINAL | OF
let tokMonth = new Uint8Array(cap); // 1..12 for month names
let tokSepStart = new Int32Array(cap); // the separator before token k is text.slice(tokSepStart[k], tokStart[k])
let tokStart = new Int32Array(cap);
const ORDINAL = 1;
const OF = 2;

function grow<T extends Int32Array | Uint8Array>(a: T, size: number): T {
  const b = (a instanceof Int32Array ? new Int32Array(size) : new Uint8Array(size)) as T;
  b.set(a);
  return b;
}

function ensureCapacity(k: number): void {
  if (k < cap) return;
  cap *= 2;
  tokNum = grow(tokNum, cap);
  tokDigits = grow(tokDigits, cap);
  tokFlags = grow(tokFlags, cap);
  tokMonth = grow(tokMonth, cap);
  tokSepStart = grow(tokSepStart, cap);
  tokStart = grow(tokStart, cap);
}

function isOrdinalSuffix(a: number, b: number): boolean {
  a |= 0x20;
  b |= 0x20;
  // st, nd, rd, th
  return (
    (a === 0x73 && b === 0x74) ||
    (a === 0x6e && b === 0x64) ||
    (a === 0x72 && b === 0x64) ||
    (a === 0x74 && b === 0x68)
  );
}

/** Scans the words of a text into the sink, leaving per-token facts in the scratch arrays; returns the count. */
function scanWords(text: string, sink: TermSink): number {
  const n = text.length;
  let count = 0;
  let i = 0;
  let prevEnd = 0;
  while (i < n) {
    const start = i;
    let digits = 0;
    let ascii = true;
    let hash = FNV_OFFSET;
    while (i < n) {
      let c = text.charCodeAt(i);
      if (c < 0x80) {
        if (c >= 0x61 && c <= 0x7a) {
          // lower-case letter: the common case
        } else if (c >= 0x30 && c <= 0x39) {
          if (digits === i - start) digits++;
        } else if (c >= 0x41 && c <= 0x5a) c |= 0x20;
        else break;
        hash = Math.imul(hash ^ c, FNV_PRIME);
        i++;
      } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        // An astral character (e.g. 𝐀) counts when the pair is a letter, mark or number.
        if (!WORD_CHAR.test(text.slice(i, i + 2))) break;
        ascii = false;
        i += 2;
      } else if (isWordUnit(c)) {
        ascii = false;
        i++;
      } else break;
    }
    if (i === start) {
      i++;
      continue;
    }
    const len = i - start;
    let num = -1;
    let flags = 0;
    let month = 0;
    if (
      digits > 0 &&
      (digits === len ||
        (len === digits + 2 && isOrdinalSuffix(text.charCodeAt(i - 2), text.charCodeAt(i - 1))))
    ) {
      let z = start;
      const end = start + digits;
      while (z < end - 1 && text.charCodeAt(z) === 0x30) z++;
      if (digits !== len) flags = ORDINAL;
      if (z !== start || flags !== 0) {
        hash = FNV_OFFSET;
        for (let k = z; k < end; k++) hash = Math.imul(hash ^ text.charCodeAt(k), FNV_PRIME);
      }
      num = 0;
      for (let k = z; k < end && num < 1e6; k++) num = num * 10 + (text.charCodeAt(k) - 0x30);
      sink.range(text, z, end, hash);
    } else if (ascii) {
      if (digits === 0 && len >= 3 && len <= 9 && MONTH_INITIALS.has(text.charCodeAt(start) | 0x20)) {
        const m = MONTH_BY_HASH.get(hash);
        if (m !== undefined && MONTHS.get(text.slice(start, i).toLowerCase()) === m) month = m;
      }
      if (month > 0) sink.term(MONTH_TERMS[month] as string);
      else {
        if (
          len === 2 &&
          (text.charCodeAt(start) | 0x20) === 0x6f &&
          (text.charCodeAt(start + 1) | 0x20) === 0x66
        ) {
          flags = OF;
        }
        sink.range(text, start, i, hash);
      }
    } else {
      sink.term(text.slice(start, i).toLowerCase());
    }
    ensureCapacity(count);
    tokNum[count] = num;
    tokDigits[count] = digits;
    tokFlags[count] = flags;
    tokMonth[count] = month;
    tokSepStart[count] = prevEnd;
    tokStart[count] = start;
    count++;
    prevEnd = i;
  }
  return count;
}

const COMMA_SPACE = /^,\s+$/;
const DOT_SPACE = /^\.\s+$/;

// The text emitDates is looking at and its token count (module state instead of closures per text).
let scanText = '';
let scanCount = 0;

function isSpace(s: string): boolean {
  return s.length > 0 && s.trim() === '';
}

function sepBefore(k: number): string {
  return scanText.slice(tokSepStart[k] as number, tokStart[k] as number);
}

function isDayToken(k: number): boolean {
  const v = tokNum[k] as number;
  return k < scanCount && v >= 1 && v <= 31 && (tokDigits[k] as number) <= 2;
}

function isYearToken(k: number): boolean {
  if (k >= scanCount || tokDigits[k] !== 4 || (tokNum[k] as number) < 0 || tokFlags[k] === ORDINAL)
    return false;
  const s = sepBefore(k);
  return isSpace(s) || COMMA_SPACE.test(s);
}

function isPlainNumber(k: number): boolean {
  return k < scanCount && (tokNum[k] as number) >= 0 && tokFlags[k] !== ORDINAL;
}

function emitDate(sink: TermSink, year: number, month: number, day: number): void {
  if (month < 1 || month > 12 || day < 1 || day > 31) return;
  sink.term(`md:${month}-${day}`);
  if (year >= 0) sink.term(`date:${year}-${month}-${day}`);
}

/** Emits `md:M-D` and `date:Y-M-D` terms for the dates among the tokens scanWords left in the scratch arrays. */
function emitDates(text: string, count: number, sink: TermSink): void {
  scanText = text;
  scanCount = count;
  for (let i = 0; i < count; i++) {
    const month = tokMonth[i] as number;
    if ((tokNum[i] as number) < 0 && month === 0) continue;
    if (isPlainNumber(i) && isPlainNumber(i + 1) && isPlainNumber(i + 2)) {
      const s = sepBefore(i + 1);
      if ((s === '/' || s === '-' || s === '.') && sepBefore(i + 2) === s) {
        const da = tokDigits[i] as number;
        const db = tokDigits[i + 1] as number;
        const dc = tokDigits[i + 2] as number;
        if (da === 4 && db <= 2 && dc <= 2) {
          // 2022/06/03, 2022-06-03
          emitDate(sink, tokNum[i] as number, tokNum[i + 1] as number, tokNum[i + 2] as number);
          continue;
        }
        if (s === '/' && da <= 2 && db <= 2 && dc === 4) {
          // 6/3/2022
          emitDate(sink, tokNum[i + 2] as number, tokNum[i] as number, tokNum[i + 1] as number);
          continue;
        }
      }
    }
    if (month > 0) {
      // June 3rd, 2022 / Sept. 9 2022 / March 7th
      const s = sepBefore(i + 1);
      if (isDayToken(i + 1) && (isSpace(s) || DOT_SPACE.test(s))) {
        emitDate(sink, isYearToken(i + 2) ? (tokNum[i + 2] as number) : -1, month, tokNum[i + 1] as number);
      }
      continue;
    }
    // 5th of March, 2022 / 3 June 2022
    if (isDayToken(i) && i + 1 < count && isSpace(sepBefore(i + 1))) {
      let m = i + 1;
      if (tokFlags[m] === OF && m + 1 < count && isSpace(sepBefore(m + 1))) m++;
      const mm = tokMonth[m] as number;
      if (mm > 0)
        emitDate(sink, isYearToken(m + 1) ? (tokNum[m + 1] as number) : -1, mm, tokNum[i] as number);
    }
  }
  scanText = '';
}

function scanTerms(text: string, sink: TermSink): void {
  emitDates(text, scanWords(text, sink), sink);
}

/** The index terms of a text (also used for queries). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  scanTerms(text, {
    range: (src, start, end) => {
      out.push(src.slice(start, end).toLowerCase());
    },
    term: (t) => {
      out.push(t);
    },
  });
  return out;
}

/** Term → id, keyed by FNV-1a hash of the lower-cased term, comparing candidates in place. */
class TermTable {
  readonly terms: string[] = [];
  private hashes = new Int32Array(1 << 11);
  private slots = new Int32Array(1 << 12).fill(-1);
  private mask = (1 << 12) - 1;

  private matches(id: number, src: string, start: number, end: number): boolean {
    const t = this.terms[id] as string;
    if (t.length !== end - start) return false;
    for (let k = 0; k < t.length; k++) {
      let c = src.charCodeAt(start + k);
      if (c >= 0x41 && c <= 0x5a) c |= 0x20;
      if (c !== t.charCodeAt(k)) return false;
    }
    return true;
  }

  /** The id of the lower-cased ASCII range, or -1. */
  findRange(src: string, start: number, end: number, hash: number): number {
    for (let s = hash & this.mask; ; s = (s + 1) & this.mask) {
      const id = this.slots[s] as number;
      if (id < 0) return -1;
      if (this.hashes[id] === hash && this.matches(id, src, start, end)) return id;
    }
  }

  find(term: string): number {
    return this.findRange(term, 0, term.length, hashString(term));
  }

  add(term: string, hash: number): number {
    const id = this.terms.length;
    this.terms.push(term);
    if (id === this.hashes.length) {
      const bigger = new Int32Array(this.hashes.length * 2);
      bigger.set(this.hashes);
      this.hashes = bigger;
    }
    this.hashes[id] = hash;
    if (this.terms.length * 2 > this.slots.length) this.rehash();
    else this.place(id);
    return id;
  }

  private place(id: number): void {
    let s = (this.hashes[id] as number) & this.mask;
    while ((this.slots[s] as number) >= 0) s = (s + 1) & this.mask;
    this.slots[s] = id;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    this.mask = this.slots.length - 1;
    for (let id = 0; id < this.terms.length; id++) this.place(id);
  }
}

export interface PassageIndex {
  readonly size: number;
  /** The k best passages for the query (fewer only when the corpus is smaller). */
  search(query: string, k?: number): Passage[];
}

export function createPassageIndex(passages: readonly Passage[]): PassageIndex {
  const n = passages.length;
  const table = new TermTable();
  const postingDocs: number[][] = [];
  const postingTfs: number[][] = [];
  const docLength = new Float64Array(n);
  let totalLength = 0;

  // Term frequencies of the current document, without a Map per document.
  const lastDoc: number[] = [];
  const tfScratch: number[] = [];
  const docTerms: number[] = [];
  let d = 0;
  let length = 0;
  const count = (id: number): void => {
    length++;
    if (lastDoc[id] === d) tfScratch[id] = (tfScratch[id] as number) + 1;
    else {
      lastDoc[id] = d;
      tfScratch[id] = 1;
      docTerms.push(id);
    }
  };
  const newTerm = (term: string, hash: number): number => {
    const id = table.add(term, hash);
    postingDocs.push([]);
    postingTfs.push([]);
    lastDoc.push(-1);
    tfScratch.push(0);
    return id;
  };
  const sink: TermSink = {
    range: (src, start, end, hash) => {
      const id = table.findRange(src, start, end, hash);
      count(id >= 0 ? id : newTerm(src.slice(start, end).toLowerCase(), hash));
    },
    term: (t) => {
      const id = table.find(t);
      count(id >= 0 ? id : newTerm(t, hashString(t)));
    },
  };
  for (; d < n; d++) {
    length = 0;
    docTerms.length = 0;
    scanTerms((passages[d] as Passage).text, sink);
    docLength[d] = length;
    totalLength += length;
    for (const id of docTerms) {
      (postingDocs[id] as number[]).push(d);
      (postingTfs[id] as number[]).push(tfScratch[id] as number);
    }
  }

  const avgLength = n > 0 ? totalLength / n : 0;
  // Per-document length normalisation, precomputed: k1 · (1 − b + b · |d| / avgdl).
  const lengthNorm = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    lengthNorm[k] = K1 * (1 - B + (avgLength > 0 ? (B * (docLength[k] as number)) / avgLength : 0));
  }

  return {
    size: n,
    search(query: string, k = 3): Passage[] {
      const want = Math.min(k, n);
      if (want <= 0) return [];
      const scores = new Float64Array(n);
      const seen = new Set<number>();
      for (const t of tokenize(query)) {
        const id = table.find(t);
        if (id < 0 || seen.has(id)) continue;
        seen.add(id);
        const pd = postingDocs[id] as number[];
        const pt = postingTfs[id] as number[];
        const idf = Math.log(1 + (n - pd.length + 0.5) / (pd.length + 0.5));
        for (let j = 0; j < pd.length; j++) {
          const doc = pd[j] as number;
          const f = pt[j] as number;
          scores[doc] = (scores[doc] as number) + (idf * f * (K1 + 1)) / (f + (lengthNorm[doc] as number));
        }
      }
      // Top-k by score, earlier passage first on ties: insertion into a small sorted array.
      const top: number[] = [];
      for (let doc = 0; doc < n; doc++) {
        const s = scores[doc] as number;
        if (top.length === want && s <= (scores[top[want - 1] as number] as number)) continue;
        let i = top.length;
        while (i > 0 && s > (scores[top[i - 1] as number] as number)) i--;
        top.splice(i, 0, doc);
        if (top.length > want) top.pop();
      }
      return top.map((doc) => passages[doc] as Passage);
    },
  };
}
