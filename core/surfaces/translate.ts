/**
 * The inverse of the adapter: a P_c call `{tool, args}` (kernel names) written as the equivalent call on another
 * surface, such that `resolveCall(surface, name, args)` yields the original kernel call again. It is what shows
 * that every task stays solvable on a surface, and what a scripted agent uses once it knows the surface.
 *
 * Per parameter kind: a renamed argument moves to its new key unchanged; a numbered parameter gets the kernel
 * string split at its joiner (`"a, b"` → `{"condition1": "a", "condition2": "b"}`) and comes first, so that the
 * numbering matches the positions; a flag gets its first accepted value; an ignored parameter its example; a
 * prefixed string the prefix, then a space when the adapter trims (`The Python code is as follows: <code>`) or
 * nothing when it does not (so that the SQL reaching the kernel is byte for byte the original); a structured
 * string `FirstNode[a], SecondNode[b]`. Of several optional flags only the first is written.
 *
 * Some kernel calls have no exact equivalent: a value that is not a string where the surface needs text, a
 * structured slot containing `]`, a line break or surrounding whitespace, a trimmed prefixed value with
 * surrounding whitespace. Those translate to `{ok: false}` with the reason; every translation that succeeds has
 * been checked against `resolveCall`.
 */
import { type PyRenderable, pyRepr } from '../util/python-format.ts';
import { toPython } from '../world/answer-match.ts';
import type { KernelCall } from '../world/kernel/kernel.ts';
import { pyStrip } from '../world/kernel/python-text.ts';
import { type ResolveOptions, resolveCall, toolStatus } from './adapter.ts';
import type { ParamSpec, Surface, SurfaceTool } from './model.ts';

export type Translation =
  | { ok: true; tool: string; args: Record<string, unknown> }
  | { ok: false; reason: string };

/** The tool that serves a kernel tool on the surface: the first active one, else the first deprecated one. */
export function toolForKernel(
  surface: Surface,
  kernel: KernelCall['tool'],
  now?: Date,
): SurfaceTool | undefined {
  const candidates = surface.tools.filter((t) => t.kernel === kernel);
  return (
    candidates.find((t) => toolStatus(t, now) === 'active') ??
    candidates.find((t) => toolStatus(t, now) === 'deprecated')
  );
}

function has(args: Readonly<Record<string, unknown>>, key: string): boolean {
  return Object.hasOwn(args, key);
}

/** Writes one parameter; returns the reason when the kernel value cannot be expressed. */
function writeParam(
  spec: ParamSpec,
  args: Readonly<Record<string, unknown>>,
  out: Record<string, unknown>,
): string | null {
  switch (spec.kind) {
    case 'rename':
      if (!has(args, spec.kernel)) return `the call has no ${spec.kernel}`;
      out[spec.name] = args[spec.kernel];
      return null;
    case 'ignored':
      out[spec.name] = spec.example;
      return null;
    case 'flag':
      out[spec.name] = spec.accepted[0];
      return null;
    case 'numbered': {
      const value = args[spec.kernel];
      if (typeof value !== 'string') return `${spec.kernel} is not a string`;
      value.split(spec.joiner).forEach((part, i) => {
        out[`${spec.prefix}${i + 1}`] = part;
      });
      return null;
    }
    case 'prefixed': {
      const value = args[spec.kernel];
      if (typeof value !== 'string') return `${spec.kernel} is not a string`;
      if (spec.trim && value !== pyStrip(value))
        return `${spec.kernel} has surrounding whitespace, which is trimmed`;
      out[spec.name] = spec.trim ? `${spec.prefix} ${value}` : `${spec.prefix}${value}`;
      return null;
    }
    case 'structured': {
      const parts: string[] = [];
      for (const slot of spec.slots) {
        const value = args[slot.kernel];
        if (typeof value !== 'string') return `${slot.kernel} is not a string`;
        if (value.includes(']') || value.includes('\n') || value !== pyStrip(value)) {
          return `${slot.kernel} cannot be written inside ${slot.label}[…]`;
        }
        parts.push(`${slot.label}[${value}]`);
      }
      out[spec.name] = parts.join(', ');
      return null;
    }
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return pyRepr(toPython(a) as PyRenderable) === pyRepr(toPython(b) as PyRenderable);
}

function sameCall(a: KernelCall, b: KernelCall): boolean {
  const ka = Object.keys(a.args).sort();
  const kb = Object.keys(b.args).sort();
  return (
    a.tool === b.tool &&
    ka.length === kb.length &&
    ka.every((k, i) => k === kb[i] && sameValue(a.args[k], b.args[k]))
  );
}

/** The call on `surface` equivalent to the P_c call (see the module header). */
export function translateCall(surface: Surface, call: KernelCall, opts: ResolveOptions = {}): Translation {
  const tool = toolForKernel(surface, call.tool, opts.now);
  if (!tool) return { ok: false, reason: `${surface.id} serves no tool for ${call.tool}` };
  const args = call.args;
  const out: Record<string, unknown> = {};
  // The numbered parameter first: its keys must sit at positions 1, 2, … Of several optional flags (P_s_OOD-alt's
  // ReturnValue and ReturnResult) only the first is written, as the examples do.
  const firstOptional = tool.params.find((p) => p.kind === 'flag' && p.optional);
  const written = tool.params.filter((p) => !(p.kind === 'flag' && p.optional) || p === firstOptional);
  const ordered = [
    ...written.filter((p) => p.kind === 'numbered'),
    ...written.filter((p) => p.kind !== 'numbered'),
  ];
  for (const spec of ordered) {
    const problem = writeParam(spec, args, out);
    if (problem) return { ok: false, reason: `${tool.name}: ${problem}` };
  }
  const resolved = resolveCall(surface, tool.name, out, opts);
  if (resolved.kind !== 'call' || !sameCall(resolved.call, { tool: call.tool, args })) {
    return { ok: false, reason: `${tool.name}: the translation does not resolve to the same kernel call` };
  }
  return { ok: true, tool: tool.name, args: out };
}
