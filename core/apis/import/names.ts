/**
 * Tool names for imported operations. A name must be usable as a tool name everywhere an agent meets it —
 * ReAct `Action:`, MCP `tools/call`, OpenAI-style function calling — so it matches `^[A-Za-z0-9_.-]{1,64}$`
 * (the strictest of those rules), and it is unique within its API.
 */

export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_NAME = 64;

/** Replaces what a tool name may not hold by `_` (runs collapsed) and keeps it within 64 characters. */
export function sanitizeToolName(raw: string): string {
  let name = raw
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[_.-]+|[_.-]+$/g, '');
  if (name === '') name = 'tool';
  if (name.length > MAX_NAME)
    name = `${name.slice(0, MAX_NAME - 9).replace(/[_.-]+$/, '')}_${shortHash(raw)}`;
  return name;
}

/**
 * A readable name for an operation without operationId, from its method and path:
 * `GET /movie/{movie_id}/credits` → `get_movie_movie_id_credits`, `GET /` → `get_root`.
 */
export function nameFromRoute(method: string, path: string): string {
  const rest = path
    .split('/')
    .map((segment) => segment.replace(/[{}]/g, ''))
    .filter((segment) => segment !== '')
    .join('_');
  return sanitizeToolName(`${method.toLowerCase()}_${rest === '' ? 'root' : rest}`);
}

/**
 * ToolBench's function name for an API of a RapidAPI tool: `<api>_for_<tool>`, both parts standardised, the last
 * 64 characters kept — as ToolBench's `api_json_to_openai_json` builds it (`standardize`, `change_name`), so
 * names match what models trained on ToolBench call. ToolBench's standardisation keeps CJK letters, which tool
 * names may not hold: `sanitizeToolName` then replaces them.
 */
export function toolBenchName(tool: string, api: string): string {
  return sanitizeToolName(`${changeName(standardize(api))}_for_${standardize(tool)}`.slice(-MAX_NAME));
}

/** ToolBench's `standardize`: non-word characters → `_`, runs collapsed, lower case, no edge `_`, no leading digit. */
export function standardize(text: string): string {
  let s = text
    .replace(/[^\u4e00-\u9fa5a-zA-Z0-9_]/g, '_')
    .replace(/_+/g, '_')
    .toLowerCase();
  s = s.replace(/^_+/, '').replace(/_+$/, '');
  if (s !== '' && /^[0-9]/.test(s)) s = `get_${s}`;
  return s;
}

const RESERVED = new Set(['from', 'class', 'return', 'false', 'true', 'id', 'and']);

/** ToolBench's `change_name`: Python keywords and a few common words get an `is_` prefix. */
function changeName(name: string): string {
  return RESERVED.has(name) ? `is_${name}` : name;
}

/** Hands out unique names: a taken name gets `_2`, `_3`, … (kept within 64 characters). */
export class NameRegistry {
  private readonly taken = new Set<string>();

  has(name: string): boolean {
    return this.taken.has(name);
  }

  claim(name: string): string {
    let candidate = name;
    for (let n = 2; this.taken.has(candidate); n++) {
      const suffix = `_${n}`;
      candidate = `${name.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    }
    this.taken.add(candidate);
    return candidate;
  }
}

/** 8 hex digits of FNV-1a: keeps cut names distinct. */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
