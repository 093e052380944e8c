/** Argument binding for builtins, with CPython-style messages. */

import {
  type BuiltinImpl,
  type BuiltinRef,
  type Kwargs,
  PyBuiltin,
  type PyValue,
  type Runtime,
  typeError,
} from './objects.ts';

/**
 * Binds positional and keyword arguments to `params`; the first `required` are mandatory. Returns one slot per
 * parameter (undefined when omitted).
 */
export function bind(
  fname: string,
  args: readonly PyValue[],
  kwargs: Kwargs | null,
  params: readonly string[],
  required: number,
  options: { positionalOnly?: number; keywords?: boolean } = {},
): (PyValue | undefined)[] {
  const positionalOnly = options.positionalOnly ?? 0;
  if (args.length > params.length) {
    if (params.length === 0) throw typeError(`${fname}() takes no arguments (${args.length} given)`);
    if (params.length === 1 && required === 1) {
      throw typeError(`${fname}() takes exactly one argument (${args.length} given)`);
    }
    if (required === params.length) {
      throw typeError(`${fname}() takes exactly ${params.length} arguments (${args.length} given)`);
    }
    throw typeError(`${fname}() takes at most ${params.length} arguments (${args.length} given)`);
  }
  const out: (PyValue | undefined)[] = params.map((_, i) => args[i]);
  if (kwargs?.size) {
    if (options.keywords === false) throw typeError(`${fname}() takes no keyword arguments`);
    for (const [k, v] of kwargs) {
      const i = params.indexOf(k);
      if (i < 0 || i < positionalOnly) {
        throw typeError(`${fname}() got an unexpected keyword argument '${k}'`);
      }
      if (out[i] !== undefined) {
        throw typeError(`argument for ${fname}() given by name ('${k}') and position (${i + 1})`);
      }
      out[i] = v;
    }
  }
  for (let i = 0; i < required; i++) {
    if (out[i] === undefined) {
      if (params.length === 1 && required === 1 && !kwargs?.size) {
        throw typeError(`${fname}() takes exactly one argument (0 given)`);
      }
      throw typeError(`${fname}() missing required argument '${params[i]}' (pos ${i + 1})`);
    }
  }
  return out;
}

export function noKwargs(fname: string, kwargs: Kwargs | null): void {
  if (kwargs?.size) throw typeError(`${fname}() takes no keyword arguments`);
}

/** A builtin function value exposed under a builtin name. */
export function builtin(name: string, impl: BuiltinImpl): PyBuiltin {
  return new PyBuiltin(name, impl, { kind: 'builtin', name });
}

/** A module-level function value. */
export function moduleFn(
  module: string,
  name: string,
  impl: BuiltinImpl,
  path: readonly string[] = [name],
): PyBuiltin {
  const ref: BuiltinRef = { kind: 'module', module, path };
  return new PyBuiltin(name, impl, ref);
}

export type MethodImpl = (rt: Runtime, self: PyValue, args: PyValue[], kwargs: Kwargs | null) => PyValue;

/** A method bound to `self`. */
export function boundMethod(self: PyValue, name: string, impl: MethodImpl): PyBuiltin {
  return new PyBuiltin(name, (rt, args, kwargs) => impl(rt, self, args, kwargs), {
    kind: 'method',
    self,
    name,
  });
}
