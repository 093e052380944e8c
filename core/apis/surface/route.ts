/**
 * Route templates (`/movie/{movie_id}/credits`): their parameters, their shape, filling them with values and
 * matching concrete request paths against them.
 *
 * - A template is cut at `/`; a segment is literal text with any number of `{name}` placeholders in it
 *   (`/files/{name}.json` works). A placeholder matches one or more characters other than `/`.
 * - Concrete paths are compared segment by segment, without the query string; one trailing `/` is ignored.
 *   Captured values are percent-decoded (a malformed escape is reported, not thrown).
 * - When several templates match a path, the most specific wins: at the first segment where they differ, a
 *   literal segment beats a segment with a placeholder (`/movie/latest` before `/movie/{movie_id}`).
 * - The *shape* of a template is the template with every placeholder emptied (`/movie/{}/credits`): two
 *   templates with the same shape are the same route for HTTP (OpenAPI calls them identical).
 */
import type { HttpMethod } from '../types.ts';

const PLACEHOLDER = /\{([^{}/]+)\}/g;

/** The placeholder names of a template, in order. */
export function templateParams(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
}

/** The template with every placeholder emptied. */
export function routeShape(template: string): string {
  return normalisePath(template).replace(PLACEHOLDER, '{}');
}

/** `GET /movie/{movie_id}` */
export function routeText(method: HttpMethod | string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

/** The path without query string or fragment, with one leading `/` and no trailing `/` (except the root). */
export function normalisePath(path: string): string {
  let p = path.split(/[?#]/, 1)[0] as string;
  if (!p.startsWith('/')) p = `/${p}`;
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

interface CompiledSegment {
  literal: boolean;
  regex: RegExp;
  names: string[];
}

const compiled = new Map<string, CompiledSegment[]>();

function compile(template: string): CompiledSegment[] {
  let segments = compiled.get(template);
  if (!segments) {
    segments = normalisePath(template)
      .split('/')
      .slice(1)
      .map((seg) => {
        const names = templateParams(seg);
        const source = seg
          .split(PLACEHOLDER)
          .map((part, i) => (i % 2 === 1 ? '([^/]+?)' : escapeRegex(part)))
          .join('');
        return { literal: names.length === 0, regex: new RegExp(`^${source}$`), names };
      });
    compiled.set(template, segments);
  }
  return segments;
}

export type TemplateMatch =
  | { ok: true; params: Record<string, string>; specificity: boolean[] }
  | { ok: false; param: string };

/**
 * Matches a concrete path against a template: the decoded placeholder values, or null when the path does not
 * fit; `{ok: false, param}` when it fits but a value is not valid percent-encoding.
 */
export function matchTemplate(template: string, concretePath: string): TemplateMatch | null {
  const segments = compile(template);
  const parts = normalisePath(concretePath).split('/').slice(1);
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const seg = segments[i] as CompiledSegment;
    const m = seg.regex.exec(parts[i] as string);
    if (!m) return null;
    for (let j = 0; j < seg.names.length; j++) {
      const name = seg.names[j] as string;
      try {
        params[name] = decodeURIComponent(m[j + 1] as string);
      } catch {
        return { ok: false, param: name };
      }
    }
  }
  return { ok: true, params, specificity: segments.map((s) => s.literal) };
}

/** Negative when `a` is more specific than `b` (a literal segment first, see the module header). */
export function compareSpecificity(a: readonly boolean[], b: readonly boolean[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] ? -1 : 1;
  }
  return 0;
}

/** The template with its placeholders replaced by percent-encoded values (all of them must be given). */
export function fillTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const v = values[name];
    if (v === undefined || v === null) throw new RangeError(`fillTemplate: no value for {${name}}`);
    return encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));
  });
}

/** The template's literal segments (no placeholder in them), in order. */
export function literalSegments(template: string): string[] {
  return normalisePath(template)
    .split('/')
    .slice(1)
    .filter((s) => s !== '' && templateParams(s).length === 0);
}
