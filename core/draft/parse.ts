/**
 * Reading the roles' answers. Models wrap JSON in prose or code fences, so the outermost `{ … }` of the text is
 * decoded; an answer without a readable object degrades the way the authors' loop does — the explorer's text
 * becomes the query with no parameters, the analyzer's text one suggestion, the rewriter's text the new
 * description (name and parameters kept), the summary's text the description.
 */
import type { DocParam, ToolDoc } from './docset.ts';

function objectIn(text: string): Record<string, unknown> | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const v: unknown = JSON.parse(text.slice(start, end + 1));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v.trim() : null;
}

function plainObject(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

export interface ExploreCall {
  tool: string;
  parameters: Record<string, unknown>;
}

export interface ExploreAnswer {
  query: string;
  setup: ExploreCall[];
  parameters: Record<string, unknown>;
  /** False when the answer held no readable JSON object. */
  wellFormed: boolean;
}

export function parseExploreAnswer(text: string, maxSetup: number): ExploreAnswer {
  const o = objectIn(text);
  if (!o) return { query: text.trim(), setup: [], parameters: {}, wellFormed: false };
  const setup: ExploreCall[] = [];
  if (Array.isArray(o.setup)) {
    for (const s of o.setup) {
      const call = plainObject(s);
      const tool = str(call?.tool);
      if (!call || !tool) continue;
      setup.push({ tool, parameters: plainObject(call.parameters) ?? {} });
    }
  }
  return {
    query: str(o.query) ?? '',
    setup: setup.slice(0, maxSetup),
    parameters: plainObject(o.parameters) ?? {},
    wellFormed: true,
  };
}

export function parseAnalyzeAnswer(text: string): string[] {
  const o = objectIn(text);
  if (o && Array.isArray(o.suggestions)) {
    return o.suggestions
      .map((s) => (typeof s === 'string' ? s.trim() : JSON.stringify(s)))
      .filter((s) => s !== '');
  }
  const t = text.trim();
  return t === '' ? [] : [t];
}

export interface RewriteAnswer {
  doc: ToolDoc;
  exploreNext: string;
}

function parseParams(v: unknown): DocParam[] | null {
  if (!Array.isArray(v)) return null;
  const out: DocParam[] = [];
  for (const item of v) {
    if (typeof item === 'string' && item.trim() !== '') {
      out.push({ name: item.trim(), required: true });
      continue;
    }
    const o = plainObject(item);
    const name = str(o?.name);
    if (!o || !name) continue;
    const p: DocParam = { name, required: o.required !== false };
    const d = str(o.description);
    if (d) p.description = d;
    out.push(p);
  }
  return out;
}

/** The rewriter's answer applied to the current document (missing fields keep their current value). */
export function parseRewriteAnswer(text: string, current: ToolDoc): RewriteAnswer {
  const o = objectIn(text);
  if (!o) {
    const t = text.trim();
    return { doc: { ...current, description: t === '' ? current.description : t }, exploreNext: '' };
  }
  const doc: ToolDoc = {
    name: str(o.name) || current.name,
    params: parseParams(o.parameters) ?? current.params,
    description: str(o.description) || current.description,
  };
  if (current.example) doc.example = current.example;
  // An operation's route is what the server serves, not documentation the rewriter may change.
  if (current.route) doc.route = current.route;
  return { doc, exploreNext: str(o.explore_next) ?? '' };
}

export function parseSummaryAnswer(text: string): string {
  const o = objectIn(text);
  return (o ? str(o.description) : null) ?? text.trim();
}
