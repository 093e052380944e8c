/**
 * Regular expressions an imported document carries (`pattern`, `patternProperties`) run inside the Worker on
 * every request and answer the mock validates, with the JavaScript engine's backtracking matcher. A pattern
 * such as `^(a+)+$` takes exponential time on a crafted input, so one imported document could stall a Worker
 * that many keys share. At import, such patterns are dropped from the catalog (with a warning naming where),
 * which only loosens validation; the stored document keeps them.
 *
 * The test is conservative (it may flag a safe pattern, never the reverse for the classic shapes): a quantified
 * group whose body holds a quantifier or an alternation (star height above one, or alternatives a repetition can
 * split ambiguously), a back-reference, or a pattern longer than 1,000 characters.
 */
import type { ApiCatalog, ImportWarning, JsonSchema } from '../types.ts';

const MAX_PATTERN = 1_000;

/** Whether a pattern may backtrack catastrophically (see the module header). */
export function riskyPattern(pattern: string): boolean {
  if (pattern.length > MAX_PATTERN) return true;
  // Per open group: whether its body so far holds a quantifier or an alternation.
  const stack: { inner: boolean }[] = [];
  let lastGroupInner = false;
  let afterGroup = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') {
      if (/[1-9k]/.test(pattern[i + 1] ?? '')) return true;
      i++;
      afterGroup = false;
      continue;
    }
    if (c === '[') {
      // Skip a character class.
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
      afterGroup = false;
      continue;
    }
    if (c === '(') {
      stack.push({ inner: false });
      afterGroup = false;
      continue;
    }
    if (c === ')') {
      const group = stack.pop();
      lastGroupInner = group?.inner ?? false;
      afterGroup = true;
      continue;
    }
    const quantifier =
      c === '*' || c === '+' || (c === '{' && /^\{\d*,\d*\}|^\{\d{2,}\}/.test(pattern.slice(i)));
    if (quantifier || c === '?') {
      if (quantifier && afterGroup && lastGroupInner) return true;
      if (quantifier || c === '?') for (const g of stack) g.inner = g.inner || quantifier;
      afterGroup = false;
      continue;
    }
    if (c === '|') for (const g of stack) g.inner = true;
    afterGroup = false;
  }
  return false;
}

/**
 * The catalog with its risky patterns removed from every schema (parameters, bodies, arguments, responses), and a
 * warning for each place.
 */
export function defusePatterns(catalog: ApiCatalog): ApiCatalog {
  const seen = new WeakSet<object>();
  const warnings: ImportWarning[] = [];
  const walk = (schema: JsonSchema | undefined, where: string, operation: string) => {
    if (schema === undefined || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    const s = schema as Record<string, unknown>;
    if (typeof s.pattern === 'string' && riskyPattern(s.pattern)) {
      warnings.push({
        pointer: where,
        operation,
        message: `pattern ${JSON.stringify(s.pattern.slice(0, 80))} dropped: it may backtrack catastrophically`,
      });
      delete s.pattern;
    }
    if (s.patternProperties && typeof s.patternProperties === 'object') {
      for (const key of Object.keys(s.patternProperties)) {
        if (riskyPattern(key)) {
          warnings.push({
            pointer: where,
            operation,
            message: `patternProperties ${JSON.stringify(key.slice(0, 80))} dropped: it may backtrack catastrophically`,
          });
          delete (s.patternProperties as Record<string, unknown>)[key];
        }
      }
    }
    for (const [k, v] of Object.entries(s)) {
      if (k === 'examples' || k === 'example' || k === 'default' || k === 'enum' || k === 'const') continue;
      if (Array.isArray(v)) for (const item of v) walk(item as JsonSchema, `${where}/${k}`, operation);
      else if (v && typeof v === 'object') walk(v as JsonSchema, `${where}/${k}`, operation);
    }
  };
  for (const op of catalog.operations) {
    for (const p of op.params) walk(p.schema, `/operations/${op.name}/params/${p.name}`, op.name);
    if (op.body) walk(op.body.schema, `/operations/${op.name}/body`, op.name);
    walk(op.argumentsSchema, `/operations/${op.name}/arguments`, op.name);
    for (const r of op.responses) walk(r.schema, `/operations/${op.name}/responses/${r.status}`, op.name);
  }
  return warnings.length === 0 ? catalog : { ...catalog, warnings: [...catalog.warnings, ...warnings] };
}
