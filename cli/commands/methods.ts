/** `tooldrift methods`: the agent methods and aid slots of the instance (GET /v1/methods). */
import { CONNECTION_HELP, command, printResult } from '../context.ts';
import { renderTable } from '../table.ts';

export const METHODS_HELP = `Usage:
  tooldrift methods        agent methods (id, summary, options, memory, aids), aid slots and presets

${CONNECTION_HELP}`;

/** The body of GET /v1/methods (functions/routes/methods.ts). */
export interface MethodCatalog {
  items: { id: string; summary: string; options: JsonSchema; carriesMemory: boolean; aids: string[] }[];
  aids: { slot: string; summary: string; available: boolean; options: JsonSchema }[];
  /** Named configurations: a method with a set of aids (absent from servers before presets existed). */
  presets?: { id: string; summary: string; method: string; aids: string[]; carriesMemory: boolean }[];
}

interface JsonSchema {
  properties?: Record<string, { default?: unknown }>;
}

/** `name=default` per option of a JSON Schema (just `name` without a default). */
export function optionsCell(schema: JsonSchema): string {
  return Object.entries(schema.properties ?? {})
    .map(([name, p]) => (p.default === undefined ? name : `${name}=${JSON.stringify(p.default)}`))
    .join(' ');
}

export function methodsTables(catalog: MethodCatalog): string {
  const methods = renderTable({
    header: [['method', 'memory', 'aids', 'options', 'summary'].map((text) => ({ text }))],
    align: ['left', 'left', 'left', 'left', 'left'],
    rows: catalog.items.map((m) => [
      m.id,
      m.carriesMemory ? 'yes' : '',
      m.aids.join(','),
      optionsCell(m.options),
      m.summary,
    ]),
  });
  const aids = renderTable({
    header: [['aid', 'available', 'options', 'summary'].map((text) => ({ text }))],
    align: ['left', 'left', 'left', 'left'],
    rows: catalog.aids.map((a) => [
      a.slot,
      a.available ? 'yes' : 'not yet',
      optionsCell(a.options),
      a.summary,
    ]),
  });
  if (!catalog.presets?.length) return `${methods}\n${aids}`;
  const presets = renderTable({
    header: [['preset', 'method', 'aids', 'summary'].map((text) => ({ text }))],
    align: ['left', 'left', 'left', 'left'],
    rows: catalog.presets.map((p) => [p.id, p.method, p.aids.join(','), p.summary]),
  });
  return `${methods}\n${aids}\n${presets}`;
}

export const methodsCommand = command({
  name: 'methods',
  help: METHODS_HELP,
  options: {},
  // It takes none; an argument is answered with what it does rather than with parseArgs' error.
  positionals: 'any',
  helpWhen: (positionals) => positionals.length > 0,
  async run(values, _positionals, connect, io) {
    const catalog = await connect().get<MethodCatalog>('/v1/methods');
    printResult(io, values, catalog, methodsTables);
    return 0;
  },
});
