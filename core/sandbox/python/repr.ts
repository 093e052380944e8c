/** Python `repr()` / `str()` of sandbox values, following CPython 3.11's formats (spec §2.9). */

import { pyFloatRepr, pyStrRepr } from '../../util/python-format.ts';
import {
  PyBuiltin,
  PyDict,
  PyDictView,
  PyException,
  PyFunction,
  PyIterator,
  PyList,
  PyModule,
  PyObject,
  PyRange,
  PyTuple,
  PyType,
  type PyValue,
  pyErr,
  type Runtime,
  valueError,
} from './objects.ts';
import { PySet } from './pyset.ts';

/** Objects defined in other modules (datetime values, numpy arrays) render themselves. */
export interface CustomRepr {
  pyRepr(r: (v: PyValue) => string): string;
  pyStr?(r: (v: PyValue) => string): string;
}

function hasCustomRepr(v: PyObject): v is PyObject & CustomRepr {
  return typeof (v as Partial<CustomRepr>).pyRepr === 'function';
}

const MAX_INT_DIGITS = 4300;
const MAX_REPR_DEPTH = 500;

const TEN_4299 = 10n ** 4299n;

/** str(int), with CPython 3.11's 4300-digit conversion limit. */
export function intToStr(n: bigint): string {
  if (n > TEN_4299 || n < -TEN_4299) {
    const s = n.toString();
    if (s.replace('-', '').length > MAX_INT_DIGITS) {
      throw valueError(
        'Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit',
      );
    }
    return s;
  }
  return n.toString();
}

export class Repr {
  private readonly active = new Set<object>();
  private depth = 0;

  constructor(private readonly rt: Runtime) {}

  repr = (v: PyValue): string => {
    switch (typeof v) {
      case 'string':
        return pyStrRepr(v);
      case 'bigint':
        return intToStr(v);
      case 'number':
        return pyFloatRepr(v);
      case 'boolean':
        return v ? 'True' : 'False';
    }
    if (v === null) return 'None';
    return this.object(v);
  };

  str = (v: PyValue): string => {
    if (typeof v === 'string') return v;
    if (v instanceof PyException) return excStr(v, this.str, this.repr);
    if (v instanceof PyObject && hasCustomRepr(v) && v.pyStr) return v.pyStr(this.repr);
    return this.repr(v);
  };

  private object(v: PyObject): string {
    if (v instanceof PyList || v instanceof PyTuple || v instanceof PyDict || v instanceof PySet) {
      if (this.active.has(v)) {
        return v instanceof PyList ? '[...]' : v instanceof PyDict || v instanceof PySet ? '{...}' : '(...)';
      }
      if (++this.depth > MAX_REPR_DEPTH) {
        this.depth = 0;
        this.active.clear();
        throw pyErr('RecursionError', 'maximum recursion depth exceeded while getting the repr of an object');
      }
      this.active.add(v);
      try {
        this.rt.step(1);
        return this.container(v);
      } finally {
        this.active.delete(v);
        this.depth--;
      }
    }
    if (hasCustomRepr(v)) return v.pyRepr(this.repr);
    if (v instanceof PyRange) {
      return v.step === 1n ? `range(${v.start}, ${v.stop})` : `range(${v.start}, ${v.stop}, ${v.step})`;
    }
    if (v instanceof PyDictView) {
      return `${v.typeName}(${this.repr(new PyList(v.items()))})`;
    }
    if (v instanceof PyType) return `<class '${v.qualname}'>`;
    if (v instanceof PyFunction) return `<function ${v.name} at ${this.rt.addressOf(v)}>`;
    if (v instanceof PyBuiltin) {
      if (v.ref.kind === 'method') {
        const self = v.ref.self;
        const owner = self instanceof PyModule ? `module object` : `${typeNameOf(self)} object`;
        return `<built-in method ${v.name} of ${owner} at ${this.rt.addressOf(v)}>`;
      }
      if (v.ref.kind === 'unbound') return `<method '${v.name}' of '${v.ref.type}' objects>`;
      return `<built-in function ${v.name}>`;
    }
    if (v instanceof PyModule) return `<module '${v.name}' (built-in)>`;
    if (v instanceof PyException) {
      const args = v.args.length === 1 ? this.repr(v.args[0] as PyValue) : v.args.map(this.repr).join(', ');
      return `${v.cls.name}(${args})`;
    }
    if (v instanceof PyIterator) {
      const name = v.typeName === 'generator' ? 'generator object <genexpr>' : `${v.typeName} object`;
      return `<${name} at ${this.rt.addressOf(v)}>`;
    }
    return `<${v.typeName} object at ${this.rt.addressOf(v)}>`;
  }

  private container(v: PyList | PyTuple | PyDict | PySet): string {
    if (v instanceof PyList) return `[${v.items.map(this.repr).join(', ')}]`;
    if (v instanceof PyTuple) {
      if (v.items.length === 1) return `(${this.repr(v.items[0] as PyValue)},)`;
      return `(${v.items.map(this.repr).join(', ')})`;
    }
    if (v instanceof PyDict) {
      return `{${v
        .entries()
        .map(([k, x]) => `${this.repr(k)}: ${this.repr(x)}`)
        .join(', ')}}`;
    }
    const items = v.items();
    if (v.frozen) return items.length ? `frozenset({${items.map(this.repr).join(', ')}})` : 'frozenset()';
    return items.length ? `{${items.map(this.repr).join(', ')}}` : 'set()';
  }
}

function typeNameOf(v: PyValue): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'float';
  if (typeof v === 'boolean') return 'bool';
  return v.typeName;
}

/** str(exception): the single argument's str, the args tuple's repr, or ''; KeyError uses repr of its key. */
export function excStr(e: PyException, str: (v: PyValue) => string, repr: (v: PyValue) => string): string {
  if (e.args.length === 0) return '';
  if (e.args.length === 1) {
    const a = e.args[0] as PyValue;
    return e.cls.name === 'KeyError' ? repr(a) : str(a);
  }
  return repr(new PyTuple(e.args));
}
