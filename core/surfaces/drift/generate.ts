/**
 * The generator: from a base surface, a seed and a set of drift kinds it derives a new surface in front of the
 * same kernel tools (see `index.ts` for what it keeps and guarantees). It drafts one tool per kernel tool, lets
 * the active kinds (`kinds/`) reshape the drafts and the response format in their `order`, then documents the
 * changed tools, translates their examples, retires the old names and checks the result (`validity.ts`).
 */
import { hash128, Rng, type Seed } from '../../util/random.ts';
import type { KernelToolName } from '../../world/kernel/kernel.ts';
import { resolveCall } from '../adapter.ts';
import { PC_SURFACE } from '../builtin.ts';
import type { ParamSpec, RetiredName, Surface, SurfaceTool } from '../model.ts';
import { deprecationMessage, toolCallText } from '../signature.ts';
import { toolForKernel, translateCall } from '../translate.ts';
import type { DriftWork, ToolDraft } from './kind.ts';
import { type DriftKind, driftKindSummary, driftSequence, normalizeDriftKinds } from './kinds/index.ts';
import type { SpecialCharSet } from './names.ts';
import { describeParam, describeTool } from './tool-docs.ts';
import { driftProblems } from './validity.ts';

export interface DriftOptions {
  seed: Seed;
  /** A set of drift kinds; order and repeats do not matter. */
  kinds: readonly string[];
  /** Default: `{base.id}-drift-{8 hex digits of a hash of base, seed and kinds}`. */
  id?: string;
  title?: string;
  /**
   * The characters of `special-chars`: `paper` (default, ToolEvo's `_ - @ % # . ? &`) or `function-calling`
   * (`-` and `_` only: names function-calling APIs take).
   */
  specialChars?: SpecialCharSet;
}

function withoutDescriptions(params: readonly ParamSpec[]): string {
  return JSON.stringify(params.map(({ description: _, ...rest }) => rest));
}

/** The kernel call a tool's example stands for (P_c's example when the tool's own does not resolve). */
function exampleCall(
  surface: Surface,
  tool: SurfaceTool,
): { tool: KernelToolName; args: Record<string, unknown> } {
  const resolved = resolveCall(
    { ...surface, tools: [{ ...tool, lifecycle: { status: 'active' } }] },
    tool.name,
    tool.example,
  );
  if (resolved.kind === 'call') return { tool: tool.kernel, args: { ...resolved.call.args } };
  const pc = PC_SURFACE.tools.find((t) => t.kernel === tool.kernel);
  return { tool: tool.kernel, args: { ...(pc?.example ?? {}) } };
}

/** An old signature (`FilterDB[condition]`) as a tool shell that deprecationMessage writes back unchanged. */
function signatureShell(signature: string, kernel: KernelToolName): SurfaceTool {
  const m = /^([^[]*)\[(.*)\]$/s.exec(signature);
  const name = m ? (m[1] as string) : signature;
  const inner = m ? (m[2] as string) : '';
  const params: ParamSpec[] = (inner === '' ? [] : inner.split(', ')).map((n) => ({
    kind: 'rename',
    name: n,
    kernel: n,
    description: '',
  }));
  return {
    kernel,
    name,
    params,
    keyMismatch: 'param-error',
    description: '',
    example: {},
    lifecycle: { status: 'active' },
  };
}

/** The tool a retired name's message names as deprecated: from the message, else P_c's tool of that name. */
function retiredShell(entry: RetiredName): SurfaceTool {
  const m = /^Error: ([^\n]*?) is deprecated and will be removed in future releases\. Use /.exec(
    entry.message,
  );
  if (m) return signatureShell(m[1] as string, entry.kernel);
  const pc = PC_SURFACE.tools.find((t) => t.name === entry.name && t.kernel === entry.kernel);
  return pc ?? signatureShell(entry.name, entry.kernel);
}

/** The default id: `{base}-drift-{hash}` (a lower-case slug); the special characters count when not the paper's. */
export function driftSurfaceId(
  base: Surface,
  seed: Seed,
  kinds: readonly DriftKind[],
  specialChars: SpecialCharSet = 'paper',
): string {
  const set = specialChars === 'paper' ? '' : `\u0000${specialChars}`;
  const [h] = hash128(`${base.id}\u0000${String(seed)}\u0000${kinds.join(',')}${set}`);
  return `${base.id}-drift-${h.toString(16).padStart(8, '0')}`;
}

/** Derives a drifted surface from `base` (see the module header). */
export function generateSurface(base: Surface, options: DriftOptions): Surface {
  const kinds = normalizeDriftKinds(options.kinds);
  const root = new Rng(`surface-drift/${String(options.seed)}`);

  // One tool per kernel tool: the one the base serves it with; the base's other tools for it are retired.
  const primaries: SurfaceTool[] = [];
  const others: SurfaceTool[] = [];
  for (const t of base.tools) {
    if (toolForKernel(base, t.kernel) === t) primaries.push(t);
    else others.push(t);
  }
  const drafts: ToolDraft[] = primaries.map((t) => ({
    base: t,
    kernel: t.kernel,
    name: t.name,
    params: structuredClone(t.params),
  }));

  const specialChars = options.specialChars ?? 'paper';
  const work: DriftWork = { base, kinds, root, tools: drafts, response: base.response, specialChars };
  for (const kind of driftSequence(kinds)) kind.apply(work);

  // Tools, with placeholder examples for the changed ones (filled in below by translation).
  const changedParams = new Set<KernelToolName>();
  const tools: SurfaceTool[] = drafts.map((d) => {
    const reshaped = withoutDescriptions(d.params) !== withoutDescriptions(d.base.params);
    const renamed = d.name !== d.base.name;
    if (reshaped) changedParams.add(d.kernel);
    const params = reshaped
      ? d.params.map((p) => describeParam(d.kernel, p))
      : structuredClone(d.base.params);
    return {
      kernel: d.kernel,
      name: d.name,
      params,
      keyMismatch: reshaped || renamed ? 'param-error' : d.base.keyMismatch,
      description: reshaped ? describeTool(d.kernel, params, d.base.description) : d.base.description,
      example: structuredClone(d.base.example),
      lifecycle: { status: 'active' },
    };
  });

  const id = options.id ?? driftSurfaceId(base, options.seed, kinds, specialChars);
  const surface: Surface = {
    id,
    title: options.title ?? `${base.title}, drifted (seed ${String(options.seed)})`,
    description: `Generated from ${base.id} with seed ${String(options.seed)}: ${
      kinds.length > 0 ? kinds.map(driftKindSummary).join('; ') : 'no drift'
    }.`,
    derivedFrom: base.id,
    drift: { seed: String(options.seed), kinds: [...kinds] },
    tools,
    retired: [],
    response: structuredClone(work.response),
    messages: { ...base.messages },
  };

  for (const tool of tools) {
    if (!changedParams.has(tool.kernel)) continue;
    const baseTool = primaries.find((t) => t.kernel === tool.kernel) as SurfaceTool;
    const call = exampleCall(base, baseTool);
    // Untrimmed code after a prefix reads better with a space (the kernel gets the space, which SQL ignores).
    for (const p of tool.params) {
      if (p.kind !== 'prefixed' || p.trim) continue;
      const code = call.args[p.kernel];
      if (typeof code === 'string' && !/^\s/.test(code)) call.args[p.kernel] = ` ${code}`;
    }
    const translated = translateCall(surface, call);
    if (!translated.ok) throw new Error(`drift: example of ${tool.name}: ${translated.reason}`);
    tool.example = translated.args;
  }

  // UpdateTool's example introduces the database loader; keep it pointing at the served one.
  const loadDb = tools.find((t) => t.kernel === 'LoadDB');
  const updateTool = tools.find((t) => t.kernel === 'UpdateTool');
  const baseLoadDb = primaries.find((t) => t.kernel === 'LoadDB');
  if (
    loadDb &&
    updateTool &&
    baseLoadDb &&
    (loadDb.name !== baseLoadDb.name || changedParams.has('LoadDB'))
  ) {
    const key = updateTool.params.find((p) => p.kind === 'rename')?.name;
    if (key !== undefined) {
      updateTool.example = {
        [key]: `${toolCallText(loadDb)}, which is an updated version of ${baseLoadDb.name} and loads a database.`,
      };
    }
  }

  // Lifecycle: renamed tools and the base's duplicates retire; the base's retired names follow their successor.
  const served = (kernel: KernelToolName) => tools.find((t) => t.kernel === kernel);
  const retired: RetiredName[] = [];
  for (const entry of base.retired) {
    const successor = served(entry.kernel);
    if (!successor) continue;
    const before = base.tools.find((t) => t.name === entry.successor);
    const unchanged =
      before !== undefined &&
      before.name === successor.name &&
      JSON.stringify(before.params) === JSON.stringify(successor.params) &&
      JSON.stringify(before.example) === JSON.stringify(successor.example);
    retired.push(
      unchanged
        ? { ...entry }
        : {
            name: entry.name,
            kernel: entry.kernel,
            successor: successor.name,
            message: deprecationMessage(retiredShell(entry), successor),
          },
    );
  }
  for (const old of [...primaries, ...others]) {
    const successor = served(old.kernel);
    if (!successor || successor.name === old.name) continue;
    retired.push({
      name: old.name,
      kernel: old.kernel,
      successor: successor.name,
      message: deprecationMessage(old, successor),
    });
  }
  surface.retired = retired;

  const problems = driftProblems(surface);
  if (problems.length > 0)
    throw new Error(`drift: generated surface ${id} is invalid: ${problems.join('; ')}`);
  return surface;
}
