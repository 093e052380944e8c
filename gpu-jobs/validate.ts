/**
 * Validation of the training exports (`GET /v1/exports/sft.jsonl`, `GET /v1/exports/dpo.jsonl`; record shapes in
 * core/search/trajectories.ts) before they go to a GPU: every line checked for the shape the trainers need, a
 * token-length estimate against the training max length, and duplicates by content. The checks are pure and
 * deterministic (same bytes in → same report out); only `main` at the bottom touches files.
 *
 * Defects (the record cannot be trained on as is; the report names the 1-based line): invalid JSON, a line that
 * is not an object, a missing or wrong-shaped field, a wrong role or role order, an empty or non-string content,
 * a user message that does not start with `Question: ` (how every export phrases it), a DPO pair whose chosen and
 * rejected texts are equal, a blank line, and a last line without its newline (a cut-off download).
 * Warnings (trainable, but the user should decide): records estimated over the max length, duplicates.
 *
 * Token estimate (conservative, not a tokenizer): per message ceil(UTF-8 bytes / 3) plus 8 tokens of chat
 * template per message, plus 1 (BOS). Calibrated against the Llama-3 tokenizer (llama3-tokenizer-js 1.2.0, used
 * once for measurement, not a dependency) on 353 distinct texts of SFT and DPO records from simulated searches:
 * real text averages 4.0 bytes/token, and per record the estimate was 1.04–1.42× the real count, never under it
 * (a single short numeric text can be under by up to 15%; a whole record was not). The exact count is the
 * trainer's: gpu-jobs/python/train_*.py count tokens with the model's own chat template before training.
 *
 * The max length defaults to the training recipe's (`SEED_SETTINGS.maxLength`, recipes/settings.ts: 4096), the one
 * source of truth for it, so the warning is measured against the length the trainer is rendered with (issue 25
 * item 11); `--max-length N` measures against another.
 *
 * Usage (over files): npx tsx gpu-jobs/validate.ts [--sft FILE] [--dpo FILE] [--max-length 4096]
 *   [--drop-over-length] [--drop-duplicates] [--write DIR] [--json]
 * Exit codes: 0 valid (warnings allowed), 1 defects found, 2 usage error.
 */
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runIfScript } from './cli.ts';
import { SEED_SETTINGS } from './recipes/settings.ts';

export type RecordKind = 'sft' | 'dpo';

export type DefectKind =
  | 'blank-line'
  | 'invalid-json'
  | 'not-object'
  | 'missing-field'
  | 'bad-shape'
  | 'bad-role'
  | 'empty-content'
  | 'bad-question'
  | 'identical-pair'
  | 'no-final-newline';

export interface Defect {
  /** 1-based line number in the file. */
  line: number;
  kind: DefectKind;
  message: string;
}

export interface OverLength {
  line: number;
  estimatedTokens: number;
}

export interface Duplicate {
  line: number;
  /** The line whose content it repeats. */
  firstLine: number;
}

export interface ValidationOptions {
  /** Training max length in tokens (default DEFAULT_MAX_LENGTH: the training recipe's). */
  maxLength?: number;
}

export interface ValidationReport {
  kind: RecordKind;
  /** Lines seen (a final newline does not start a line). */
  lines: number;
  /** Lines without defects. */
  valid: number;
  defects: Defect[];
  duplicates: Duplicate[];
  overLength: OverLength[];
  maxLength: number;
  /** Estimated tokens over valid records (0s when there are none). */
  tokens: { min: number; max: number; mean: number; p50: number; p95: number };
}

/** Per-message chat-template overhead, generous for Llama-3 (5 tokens) and Qwen2 (5) templates. */
export const TEMPLATE_TOKENS_PER_MESSAGE = 8;
/** The training recipe's max length (recipes/settings.ts), the default the estimates are measured against. */
export const DEFAULT_MAX_LENGTH = SEED_SETTINGS.maxLength;

export const TOKEN_ESTIMATOR =
  'ceil(utf8Bytes/3) per message + 8 per message (chat template) + 1; conservative: 1.04-1.42x the Llama-3 tokenizer per record on a measured sample';

const encoder = new TextEncoder();

/** Conservative token estimate of one text: ceil(UTF-8 bytes / 3). */
export function estimateTokens(text: string): number {
  return Math.ceil(encoder.encode(text).length / 3);
}

interface Message {
  role: string;
  content: string;
}

/** Tokens of a conversation as a trainer sees it (content + template overhead + BOS). */
export function estimateConversationTokens(messages: readonly Message[]): number {
  let total = 1;
  for (const m of messages) total += estimateTokens(m.content) + TEMPLATE_TOKENS_PER_MESSAGE;
  return total;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Problem = Omit<Defect, 'line'>;

/** Checks `value[field]` is an array of messages with exactly the given roles; returns the messages. */
function checkMessages(
  record: Record<string, unknown>,
  field: string,
  roles: readonly string[],
  problems: Problem[],
): Message[] | null {
  if (!(field in record)) {
    problems.push({ kind: 'missing-field', message: `missing field "${field}"` });
    return null;
  }
  const list = record[field];
  if (!Array.isArray(list) || list.length !== roles.length) {
    const got = Array.isArray(list) ? `${list.length} messages` : typeof list;
    problems.push({
      kind: 'bad-shape',
      message: `"${field}" must be a list of ${roles.length} message(s) (${roles.join(', ')}), got ${got}`,
    });
    return null;
  }
  const out: Message[] = [];
  let ok = true;
  list.forEach((m: unknown, i) => {
    const where = `${field}[${i}]`;
    if (!isObject(m)) {
      problems.push({ kind: 'bad-shape', message: `${where} is not an object` });
      ok = false;
      return;
    }
    if (m.role !== roles[i]) {
      problems.push({
        kind: 'bad-role',
        message: `${where}.role must be "${roles[i]}", got ${JSON.stringify(m.role ?? null)}`,
      });
      ok = false;
    }
    if (typeof m.content !== 'string' || m.content.trim() === '') {
      problems.push({ kind: 'empty-content', message: `${where}.content must be a non-empty string` });
      ok = false;
      return;
    }
    out.push({ role: String(m.role), content: m.content });
  });
  return ok ? out : null;
}

function checkQuestion(user: Message | undefined, where: string, problems: Problem[]): void {
  if (user && !user.content.startsWith('Question: '))
    problems.push({ kind: 'bad-question', message: `${where}.content must start with "Question: "` });
}

function checkMeta(record: Record<string, unknown>, problems: Problem[]): void {
  if ('meta' in record && !isObject(record.meta))
    problems.push({ kind: 'bad-shape', message: '"meta" must be an object when present' });
}

export interface CheckedRecord {
  problems: Problem[];
  /** What training sees, for duplicate hashing and length (null when defective). */
  messages: Message[] | null;
  /** Tokens of the longest training sequence the record makes. */
  tokens: number;
}

/**
 * The roles an SFT record of `length` messages must have: single-turn `[system, user, assistant]`, or multi-turn
 * `[system, user, assistant, user, assistant, …]` (odd length, an assistant turn per step, a user turn per
 * observation between them). Any other length gets the single-turn roles (reported as a bad shape).
 */
export function sftRoles(length: number): string[] {
  if (length < 3 || length % 2 === 0) return ['system', 'user', 'assistant'];
  return [
    'system',
    'user',
    ...Array.from({ length: length - 2 }, (_, i) => (i % 2 === 0 ? 'assistant' : 'user')),
  ];
}

/** Multi-turn observation turns (user messages after the question) must read `Observation: …`. */
function checkObservations(messages: readonly Message[] | null, problems: Problem[]): void {
  messages?.forEach((m, i) => {
    if (i > 1 && m.role === 'user' && !m.content.startsWith('Observation: '))
      problems.push({ kind: 'bad-shape', message: `messages[${i}].content must start with "Observation: "` });
  });
}

/**
 * `{"messages": [system, user, assistant], "meta"?: {...}}` (single-turn) or
 * `{"messages": [system, user, assistant, user ("Observation: …"), assistant, …], "meta"?: {...}}` (multi-turn).
 */
export function checkSftRecord(value: unknown): CheckedRecord {
  const problems: Problem[] = [];
  if (!isObject(value))
    return { problems: [{ kind: 'not-object', message: 'not a JSON object' }], messages: null, tokens: 0 };
  const list = value.messages;
  const roles = sftRoles(Array.isArray(list) ? list.length : 0);
  const messages = checkMessages(value, 'messages', roles, problems);
  checkQuestion(messages?.[1], 'messages[1]', problems);
  checkObservations(messages, problems);
  checkMeta(value, problems);
  if (problems.length > 0 || !messages) return { problems, messages: null, tokens: 0 };
  return { problems, messages, tokens: estimateConversationTokens(messages) };
}

/** `{"prompt": [system, user], "chosen": [assistant], "rejected": [assistant], "meta"?: {...}}` */
export function checkDpoRecord(value: unknown): CheckedRecord {
  const problems: Problem[] = [];
  if (!isObject(value))
    return { problems: [{ kind: 'not-object', message: 'not a JSON object' }], messages: null, tokens: 0 };
  const prompt = checkMessages(value, 'prompt', ['system', 'user'], problems);
  const chosen = checkMessages(value, 'chosen', ['assistant'], problems);
  const rejected = checkMessages(value, 'rejected', ['assistant'], problems);
  checkQuestion(prompt?.[1], 'prompt[1]', problems);
  checkMeta(value, problems);
  const c = chosen?.[0];
  const r = rejected?.[0];
  if (c && r && c.content.trim() === r.content.trim())
    problems.push({ kind: 'identical-pair', message: 'chosen and rejected have the same content' });
  if (problems.length > 0 || !prompt || !c || !r) return { problems, messages: null, tokens: 0 };
  // A DPO sequence is the prompt plus one of the answers; the longer one bounds it.
  const tokens = Math.max(
    estimateConversationTokens([...prompt, c]),
    estimateConversationTokens([...prompt, r]),
  );
  return { problems, messages: [...prompt, c, r], tokens };
}

/** Content hash of what training sees (meta ignored: equal texts from two trees are one example twice). */
export function contentHash(messages: readonly Message[]): string {
  const h = createHash('sha256');
  for (const m of messages) h.update(JSON.stringify([m.role, m.content]));
  return h.digest('hex');
}

export interface LineVerdict {
  line: number;
  defective: boolean;
  overLength: boolean;
  duplicate: boolean;
}

/**
 * Line-by-line validation, so a download can be checked while it streams: feed every line without its newline
 * (`hasNewline: false` for a last line that had none), then read the report.
 */
export class JsonlValidator {
  readonly kind: RecordKind;
  readonly maxLength: number;
  #line = 0;
  #valid = 0;
  readonly #defects: Defect[] = [];
  readonly #duplicates: Duplicate[] = [];
  readonly #over: OverLength[] = [];
  readonly #seen = new Map<string, number>();
  readonly #tokens: number[] = [];

  constructor(kind: RecordKind, options: ValidationOptions = {}) {
    const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
    if (!Number.isInteger(maxLength) || maxLength < 1)
      throw new RangeError(`max length must be a positive integer`);
    this.kind = kind;
    this.maxLength = maxLength;
  }

  line(text: string, hasNewline = true): LineVerdict {
    const line = ++this.#line;
    const defect = (kind: DefectKind, message: string): LineVerdict => {
      this.#defects.push({ line, kind, message });
      return { line, defective: true, overLength: false, duplicate: false };
    };
    if (text.trim() === '') return defect('blank-line', 'blank line');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return hasNewline
        ? defect('invalid-json', `invalid JSON: ${why}`)
        : defect(
            'no-final-newline',
            `last line has no newline and is not valid JSON (cut-off download?): ${why}`,
          );
    }
    const checked = this.kind === 'sft' ? checkSftRecord(value) : checkDpoRecord(value);
    if (!hasNewline) checked.problems.push({ kind: 'no-final-newline', message: 'last line has no newline' });
    if (checked.problems.length > 0 || !checked.messages) {
      for (const p of checked.problems) this.#defects.push({ line, ...p });
      return { line, defective: true, overLength: false, duplicate: false };
    }
    this.#valid++;
    this.#tokens.push(checked.tokens);
    const overLength = checked.tokens > this.maxLength;
    if (overLength) this.#over.push({ line, estimatedTokens: checked.tokens });
    const hash = contentHash(checked.messages);
    const first = this.#seen.get(hash);
    if (first === undefined) this.#seen.set(hash, line);
    else this.#duplicates.push({ line, firstLine: first });
    return { line, defective: false, overLength, duplicate: first !== undefined };
  }

  report(): ValidationReport {
    const sorted = [...this.#tokens].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
    const sum = sorted.reduce((s, t) => s + t, 0);
    return {
      kind: this.kind,
      lines: this.#line,
      valid: this.#valid,
      defects: [...this.#defects],
      duplicates: [...this.#duplicates],
      overLength: [...this.#over],
      maxLength: this.maxLength,
      tokens: {
        min: sorted[0] ?? 0,
        max: sorted.at(-1) ?? 0,
        mean: sorted.length === 0 ? 0 : Math.round(sum / sorted.length),
        p50: at(0.5),
        p95: at(0.95),
      },
    };
  }
}

/** Splits JSONL text into lines, noting whether the last one ended with a newline. */
export function jsonlLines(text: string): { text: string; hasNewline: boolean }[] {
  if (text === '') return [];
  const parts = text.split('\n');
  const last = parts.pop() as string;
  const lines = parts.map((t) => ({ text: t.endsWith('\r') ? t.slice(0, -1) : t, hasNewline: true }));
  if (last !== '') lines.push({ text: last, hasNewline: false });
  return lines;
}

/** Validates a whole JSONL text. */
export function validateJsonl(
  kind: RecordKind,
  text: string,
  options: ValidationOptions = {},
): ValidationReport {
  const v = new JsonlValidator(kind, options);
  for (const l of jsonlLines(text)) v.line(l.text, l.hasNewline);
  return v.report();
}

export interface CleanOptions extends ValidationOptions {
  dropOverLength?: boolean;
  dropDuplicates?: boolean;
}

/** The lines to keep for training: defects always dropped; over-length and duplicates on request. */
export function cleanJsonl(
  kind: RecordKind,
  text: string,
  options: CleanOptions = {},
): { text: string; kept: number; dropped: { defective: number; overLength: number; duplicate: number } } {
  const v = new JsonlValidator(kind, options);
  const out: string[] = [];
  const dropped = { defective: 0, overLength: 0, duplicate: 0 };
  for (const l of jsonlLines(text)) {
    const verdict = v.line(l.text, l.hasNewline);
    if (verdict.defective) dropped.defective++;
    else if (verdict.overLength && options.dropOverLength) dropped.overLength++;
    else if (verdict.duplicate && options.dropDuplicates) dropped.duplicate++;
    else out.push(`${l.text}\n`);
  }
  return { text: out.join(''), kept: out.length, dropped };
}

/** Reads a JSONL file line by line (never the whole file in memory) through a validator. */
export async function validateFile(
  kind: RecordKind,
  path: string,
  options: ValidationOptions = {},
): Promise<ValidationReport> {
  const v = new JsonlValidator(kind, options);
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  for await (const chunk of createReadStream(path)) {
    rest += decoder.decode(chunk as Buffer, { stream: true });
    let nl = rest.indexOf('\n');
    while (nl >= 0) {
      const line = rest.slice(0, nl);
      v.line(line.endsWith('\r') ? line.slice(0, -1) : line);
      rest = rest.slice(nl + 1);
      nl = rest.indexOf('\n');
    }
  }
  rest += decoder.decode();
  if (rest !== '') v.line(rest, false);
  return v.report();
}

const SHOWN = 20;

export interface ReportSummary {
  lines: number;
  valid: number;
  defects: number;
  duplicates: number;
  overLength: number;
  maxLength: number;
  tokens: ValidationReport['tokens'];
  /** The first 20 defects. */
  firstDefects: Defect[];
}

/** The compact form stored in manifests. */
export function summarizeReport(r: ValidationReport): ReportSummary {
  return {
    lines: r.lines,
    valid: r.valid,
    defects: r.defects.length,
    duplicates: r.duplicates.length,
    overLength: r.overLength.length,
    maxLength: r.maxLength,
    tokens: r.tokens,
    firstDefects: r.defects.slice(0, SHOWN),
  };
}

/** The over-length warning of a summary, or null when nothing is over. */
export function overLengthWarning(name: string, r: ReportSummary): string | null {
  if (r.overLength === 0) return null;
  const share = r.valid === 0 ? 0 : Math.round((100 * r.overLength) / r.valid);
  return (
    `${name}: ${r.overLength} record(s) (${share}% of valid) estimated over max length ${r.maxLength} tokens; ` +
    'a trainer rendered with that max length truncates them (render with a larger maxLength, or drop them with --drop-over-length)'
  );
}

/** A human summary: counts, token estimates, the first defects, the over-length warning. */
export function formatSummary(name: string, r: ReportSummary): string {
  const out = [
    `${name}: ${r.lines} line(s), ${r.valid} valid, ${r.defects} defect(s), ${r.duplicates} duplicate(s), ` +
      `${r.overLength} over ${r.maxLength} tokens (estimated tokens: min ${r.tokens.min}, p50 ${r.tokens.p50}, ` +
      `p95 ${r.tokens.p95}, max ${r.tokens.max})`,
  ];
  for (const d of r.firstDefects) out.push(`  line ${d.line}: ${d.kind}: ${d.message}`);
  if (r.defects > r.firstDefects.length) out.push(`  … ${r.defects - r.firstDefects.length} more defect(s)`);
  const warning = overLengthWarning(name, r);
  if (warning) out.push(`  warning: ${warning}`);
  return out.join('\n');
}

/** `formatSummary` plus the first 20 duplicates with the line each repeats. */
export function formatReport(name: string, r: ValidationReport): string {
  const out = [formatSummary(name, summarizeReport(r))];
  for (const d of r.duplicates.slice(0, SHOWN))
    out.push(`  line ${d.line}: duplicate of line ${d.firstLine}`);
  if (r.duplicates.length > SHOWN) out.push(`  … ${r.duplicates.length - SHOWN} more duplicate(s)`);
  return out.join('\n');
}

export function parseMaxLength(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_MAX_LENGTH;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--max-length must be a positive integer, got ${raw}`);
  return n;
}

export class UsageError extends Error {}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

export const PROCESS_IO: Io = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
};

const parseValidateArgs = (a: string[]) =>
  parseArgs({
    args: a,
    options: {
      sft: { type: 'string' },
      dpo: { type: 'string' },
      'max-length': { type: 'string' },
      'drop-over-length': { type: 'boolean', default: false },
      'drop-duplicates': { type: 'boolean', default: false },
      write: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });

export async function main(argv: string[], io: Io = PROCESS_IO): Promise<number> {
  let args: ReturnType<typeof parseValidateArgs>;
  let maxLength: number;
  try {
    args = parseValidateArgs(argv);
    maxLength = parseMaxLength(args.values['max-length']);
    if (!args.values.sft && !args.values.dpo) throw new UsageError('give --sft FILE and/or --dpo FILE');
  } catch (error) {
    io.err(`validate: ${error instanceof Error ? error.message : String(error)}`);
    io.err(
      'usage: npx tsx gpu-jobs/validate.ts [--sft FILE] [--dpo FILE] [--max-length N] [--drop-over-length] [--drop-duplicates] [--write DIR] [--json]',
    );
    return 2;
  }
  const { values } = args;
  const files: [RecordKind, string][] = [];
  if (values.sft) files.push(['sft', values.sft]);
  if (values.dpo) files.push(['dpo', values.dpo]);
  let defects = 0;
  const reports: Record<string, ValidationReport> = {};
  for (const [kind, file] of files) {
    const report = await validateFile(kind, file, { maxLength });
    reports[kind] = report;
    defects += report.defects.length;
    if (!values.json) io.out(formatReport(file, report));
    if (values.write) {
      const cleaned = cleanJsonl(kind, readFileSync(file, 'utf8'), {
        maxLength,
        dropOverLength: values['drop-over-length'],
        dropDuplicates: values['drop-duplicates'],
      });
      mkdirSync(values.write, { recursive: true });
      const target = join(values.write, basename(file));
      if (resolve(target) === resolve(file)) {
        io.err(`validate: --write ${values.write} would overwrite ${file}; choose another folder`);
        return 2;
      }
      writeFileSync(target, cleaned.text);
      io.out(
        `wrote ${target}: ${cleaned.kept} kept; dropped ${cleaned.dropped.defective} defective, ` +
          `${cleaned.dropped.overLength} over length, ${cleaned.dropped.duplicate} duplicate`,
      );
      if (cleaned.kept === 0)
        io.err(`validate: warning: ${target} is empty (is --max-length ${maxLength} too small?)`);
    }
  }
  if (values.json) io.out(JSON.stringify(reports, null, 2));
  return defects > 0 ? 1 : 0;
}

runIfScript(import.meta.url, 'validate', (argv) => main(argv));
