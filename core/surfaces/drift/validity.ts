/**
 * Validity of a generated surface (`driftProblems`, which the generator checks before returning): `validateSurface`
 * finds nothing; tool names, retired names and parameter keys are exposed names (letters, digits and ToolEvo's
 * special characters `_ - @ % # . ? &`, at most 64; `EXPOSED_NAME`); no two names of the
 * surface are equal ignoring case; no name is a name that a built-in surface uses for a different kernel tool.
 */
import type { KernelToolName } from '../../world/kernel/kernel.ts';
import { validateSurface } from '../adapter.ts';
import { BUILTIN_SURFACES } from '../builtin.ts';
import type { ParamSpec, Surface } from '../model.ts';

/**
 * A surface's tool names, retired names and parameter keys: letters, digits and the special characters ToolEvo
 * studies (§5.3, App. B.2: `_ - @ % # . ? &`), at most 64. Function-calling APIs take only
 * `^[a-zA-Z0-9_-]{1,64}$` (FUNCTION_CALLING_NAME; the `specialChars: 'function-calling'` generator stays in it).
 */
export const EXPOSED_NAME = /^[A-Za-z0-9_.@%#?&-]{1,64}$/;

/** The names function-calling APIs accept. */
export const FUNCTION_CALLING_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Names the built-in surfaces use, with the kernel tool behind each (served and retired names). */
const BUILTIN_NAMES: ReadonlyMap<string, ReadonlySet<KernelToolName>> = (() => {
  const map = new Map<string, Set<KernelToolName>>();
  for (const s of BUILTIN_SURFACES) {
    for (const n of [...s.tools, ...s.retired]) {
      const key = n.name.toLowerCase();
      map.set(key, (map.get(key) ?? new Set()).add(n.kernel));
    }
  }
  return map;
})();

/** Whether a built-in surface uses `name` (ignoring case) for a kernel tool other than `kernel`. */
export function builtinClash(name: string, kernel: KernelToolName): boolean {
  const kernels = BUILTIN_NAMES.get(name.toLowerCase());
  return kernels !== undefined && [...kernels].some((k) => k !== kernel);
}

/**
 * Everything that makes a generated surface unusable (empty when it is fine): `validateSurface`'s problems,
 * names or keys that are not exposed-name identifiers, names equal ignoring case, and names a built-in surface
 * uses for another kernel tool.
 */
export function driftProblems(surface: Surface): string[] {
  const problems = validateSurface(surface);
  const seen = new Map<string, string>();
  for (const n of [...surface.tools, ...surface.retired]) {
    if (!EXPOSED_NAME.test(n.name)) problems.push(`name ${JSON.stringify(n.name)} is not an exposed name`);
    const other = seen.get(n.name.toLowerCase());
    if (other !== undefined && other !== n.name)
      problems.push(`names ${other} and ${n.name} differ only in case`);
    seen.set(n.name.toLowerCase(), n.name);
    if (builtinClash(n.name, n.kernel)) {
      problems.push(`name ${n.name} (${n.kernel}) is a built-in name of another kernel tool`);
    }
  }
  for (const tool of surface.tools) {
    for (const key of exposedKeys(tool.params)) {
      if (!EXPOSED_NAME.test(key))
        problems.push(`${tool.name}: key ${JSON.stringify(key)} is not an exposed name`);
    }
  }
  return problems;
}

/** The keys a tool's parameters are sent under (a numbered parameter by its first key). */
function exposedKeys(params: readonly ParamSpec[]): string[] {
  return params.flatMap((p) =>
    p.kind === 'numbered' ? [`${p.prefix}1`, ...(p.singleKey !== undefined ? [p.singleKey] : [])] : [p.name],
  );
}
