/**
 * `describeDrift`: what changed between any two surfaces (served as `GET /v1/surfaces/:id/diff?against=pc`),
 * generated or not.
 */
import type { KernelToolName } from '../../world/kernel/kernel.ts';
import type { Lifecycle, ResponseFormat, RetiredName, Surface, SurfaceTool } from '../model.ts';
import { toolForKernel } from '../translate.ts';

/** How one kernel parameter is sent. */
export type ParamCarrier =
  | { kind: 'key'; key: string }
  | { kind: 'numbered'; prefix: string; joiner: string; singleKey?: string }
  | { kind: 'structured'; key: string; label: string; labels: string[] }
  | { kind: 'prefixed'; key: string; prefix: string; trim: boolean };

export interface FlagInfo {
  name: string;
  accepted: (string | boolean)[];
  optional: boolean;
}

export interface ToolDrift {
  kernel: KernelToolName;
  /** The name on the base and on the other surface (null when that surface does not serve the kernel tool). */
  from: string | null;
  to: string | null;
  renamed: boolean;
  /** Kernel parameters sent differently (a different key, shape, label or prefix). */
  params: { kernelParam: string; from: ParamCarrier | null; to: ParamCarrier | null }[];
  flags: { added: FlagInfo[]; removed: FlagInfo[] };
  /** Required parameters whose value is ignored (`return_num`). */
  ignored: { added: string[]; removed: string[] };
  /** Literal prefixes of code parameters that appeared, changed or went away. */
  prefixes: { kernelParam: string; from: string | null; to: string | null }[];
  keyMismatch: { from: SurfaceTool['keyMismatch']; to: SurfaceTool['keyMismatch'] } | null;
}

export interface RetiredRef {
  name: string;
  kernel: KernelToolName;
  successor: string;
}

export interface SurfaceDrift {
  base: string;
  surface: string;
  /** The generator's record of the other surface, when it was generated. */
  drift: { seed: string; kinds: string[] } | null;
  renamedTools: { kernel: KernelToolName; from: string; to: string }[];
  /** Every kernel tool whose tool differs in any of the ways ToolDrift lists, in kernel order of the base. */
  tools: ToolDrift[];
  response: { from: ResponseFormat; to: ResponseFormat } | null;
  lifecycle: {
    /** Names retired on the other surface that the base did not have retired. */
    retired: RetiredRef[];
    /** Names retired on the base that the other surface no longer has retired. */
    unretired: RetiredRef[];
    /** Retired on both, with another successor. */
    redirected: { name: string; from: string; to: string }[];
    /** Served tools (matched by kernel tool) whose lifecycle differs. */
    tools: { kernel: KernelToolName; name: string; from: Lifecycle; to: Lifecycle }[];
  };
}

function carriers(tool: SurfaceTool | undefined): Map<string, ParamCarrier> {
  const out = new Map<string, ParamCarrier>();
  for (const p of tool?.params ?? []) {
    switch (p.kind) {
      case 'rename':
        out.set(p.kernel, { kind: 'key', key: p.name });
        break;
      case 'numbered': {
        const c: ParamCarrier = { kind: 'numbered', prefix: p.prefix, joiner: p.joiner };
        if (p.singleKey !== undefined) c.singleKey = p.singleKey;
        out.set(p.kernel, c);
        break;
      }
      case 'structured':
        for (const s of p.slots) {
          out.set(s.kernel, {
            kind: 'structured',
            key: p.name,
            label: s.label,
            labels: p.slots.map((x) => x.label),
          });
        }
        break;
      case 'prefixed':
        out.set(p.kernel, { kind: 'prefixed', key: p.name, prefix: p.prefix, trim: p.trim });
        break;
      default:
        break;
    }
  }
  return out;
}

function flagsOf(tool: SurfaceTool | undefined): FlagInfo[] {
  return (tool?.params ?? []).flatMap((p) =>
    p.kind === 'flag' ? [{ name: p.name, accepted: [...p.accepted], optional: p.optional }] : [],
  );
}

function toolDrift(
  kernel: KernelToolName,
  a: SurfaceTool | undefined,
  b: SurfaceTool | undefined,
): ToolDrift {
  const ca = carriers(a);
  const cb = carriers(b);
  const kernelParams = [...new Set([...ca.keys(), ...cb.keys()])];
  const params = kernelParams
    .map((k) => ({ kernelParam: k, from: ca.get(k) ?? null, to: cb.get(k) ?? null }))
    .filter((c) => JSON.stringify(c.from) !== JSON.stringify(c.to));
  const prefixes = kernelParams
    .map((k) => {
      const pa = ca.get(k);
      const pb = cb.get(k);
      return {
        kernelParam: k,
        from: pa?.kind === 'prefixed' ? pa.prefix : null,
        to: pb?.kind === 'prefixed' ? pb.prefix : null,
      };
    })
    .filter((p) => p.from !== p.to);
  const fa = flagsOf(a);
  const fb = flagsOf(b);
  const sameFlag = (x: FlagInfo) => (y: FlagInfo) => JSON.stringify(x) === JSON.stringify(y);
  const ignoredOf = (t: SurfaceTool | undefined) =>
    (t?.params ?? []).flatMap((p) => (p.kind === 'ignored' ? [p.name] : []));
  const ia = ignoredOf(a);
  const ib = ignoredOf(b);
  return {
    kernel,
    from: a?.name ?? null,
    to: b?.name ?? null,
    renamed: a !== undefined && b !== undefined && a.name !== b.name,
    params,
    flags: {
      added: fb.filter((f) => !fa.some(sameFlag(f))),
      removed: fa.filter((f) => !fb.some(sameFlag(f))),
    },
    ignored: { added: ib.filter((n) => !ia.includes(n)), removed: ia.filter((n) => !ib.includes(n)) },
    prefixes,
    keyMismatch:
      a && b && a.keyMismatch !== b.keyMismatch ? { from: a.keyMismatch, to: b.keyMismatch } : null,
  };
}

function isEmptyDrift(d: ToolDrift): boolean {
  return (
    d.from === d.to &&
    d.params.length === 0 &&
    d.flags.added.length === 0 &&
    d.flags.removed.length === 0 &&
    d.ignored.added.length === 0 &&
    d.ignored.removed.length === 0 &&
    d.prefixes.length === 0 &&
    d.keyMismatch === null
  );
}

/**
 * What changed from `base` to `other` (any two surfaces; the API serves it as
 * `GET /v1/surfaces/:id/diff?against=pc`): tools are matched by kernel tool (the tool that serves it, as
 * translateCall picks it), then their names, the way each kernel parameter is sent, flags, ignored parameters,
 * prefixes and key-mismatch answers are compared; plus the response format and the lifecycle (retired names and
 * tool lifecycles).
 */
export function describeDrift(base: Surface, other: Surface): SurfaceDrift {
  const kernels: KernelToolName[] = [];
  for (const t of [...base.tools, ...other.tools]) if (!kernels.includes(t.kernel)) kernels.push(t.kernel);
  const tools = kernels
    .map((k) => toolDrift(k, toolForKernel(base, k), toolForKernel(other, k)))
    .filter((d) => !isEmptyDrift(d));
  const ref = (r: RetiredName): RetiredRef => ({ name: r.name, kernel: r.kernel, successor: r.successor });
  const lifecycleTools: SurfaceDrift['lifecycle']['tools'] = [];
  for (const k of kernels) {
    const a = toolForKernel(base, k);
    const b = toolForKernel(other, k);
    if (a && b && JSON.stringify(a.lifecycle) !== JSON.stringify(b.lifecycle)) {
      lifecycleTools.push({ kernel: k, name: b.name, from: { ...a.lifecycle }, to: { ...b.lifecycle } });
    }
  }
  return {
    base: base.id,
    surface: other.id,
    drift: other.drift ? { seed: other.drift.seed, kinds: [...other.drift.kinds] } : null,
    renamedTools: tools.flatMap((d) =>
      d.renamed ? [{ kernel: d.kernel, from: d.from as string, to: d.to as string }] : [],
    ),
    tools,
    response:
      JSON.stringify(base.response) === JSON.stringify(other.response)
        ? null
        : { from: structuredClone(base.response), to: structuredClone(other.response) },
    lifecycle: {
      retired: other.retired.filter((r) => !base.retired.some((x) => x.name === r.name)).map(ref),
      unretired: base.retired.filter((r) => !other.retired.some((x) => x.name === r.name)).map(ref),
      redirected: other.retired.flatMap((r) => {
        const was = base.retired.find((x) => x.name === r.name);
        return was && was.successor !== r.successor
          ? [{ name: r.name, from: was.successor, to: r.successor }]
          : [];
      }),
      tools: lifecycleTools,
    },
  };
}
