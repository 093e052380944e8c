/** Per-kernel facts the drift kinds and the documentation of changed tools rely on. */
import type { KernelToolName } from '../../world/kernel/kernel.ts';

/** Kernel tools other than Finish and UpdateTool, which keep their names and parameters (as in ToolQA-D). */
export type DomainKernel = Exclude<KernelToolName, 'Finish' | 'UpdateTool'>;

export function isDomain(kernel: KernelToolName): kernel is DomainKernel {
  return kernel !== 'Finish' && kernel !== 'UpdateTool';
}

/** Kernel strings that the kernel splits itself, so that numbered keys joined again mean the same. */
export const SPLITTABLE: Partial<Record<KernelToolName, { param: string; joiner: string; item: string }>> = {
  FilterDB: {
    param: 'condition',
    joiner: ', ',
    item: 'One condition `column<op>value` (op one of >=, <=, >, <, =)',
  },
  GetValue: { param: 'column_name', joiner: ', ', item: 'One column name' },
};

/** The code parameters, with their language and whether the kernel trims the code after a prefix. */
export const CODE_LANGUAGE: Partial<Record<KernelToolName, { param: string; lang: string; trim: boolean }>> =
  {
    SQLInterpreter: { param: 'SQL', lang: 'SQL', trim: false },
    PythonInterpreter: { param: 'Python', lang: 'Python', trim: true },
  };
