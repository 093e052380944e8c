/**
 * The drift generator, as properties over many seeds and kind sets from every built-in base: generation is
 * deterministic, every generated surface is valid (adapter consistency, exposed names, no collisions), each kind
 * changes what it says and nothing else, and every sampled task stays solvable: its reference plan, translated
 * step by step onto the generated surface and sent as ReAct text or as {action, actionInput}, gets the same
 * observations (unwrapped when the response is wrapped) and finishes correctly.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { paramErrors, resolveCall, stepSurface, validateSurface } from '../../../core/surfaces/adapter.ts';
import {
  BUILTIN_SURFACES,
  PC_SURFACE,
  S_IN_SURFACE,
  S_OOD_ALT_SURFACE,
  S_OOD_SURFACE,
} from '../../../core/surfaces/builtin.ts';
import { mcpTools, renderToolList, toolArgumentsSchema } from '../../../core/surfaces/docs.ts';
import {
  DRIFT_KINDS,
  type DriftKind,
  describeDrift,
  driftProblems,
  EXPOSED_NAME,
  FUNCTION_CALLING_NAME,
  generateSurface,
  normalizeDriftKinds,
  PAPER_SPECIAL_CHARS,
} from '../../../core/surfaces/drift/index.ts';
import type { ParamSpec, Surface, SurfaceTool } from '../../../core/surfaces/model.ts';
import { parseSurface } from '../../../core/surfaces/schema.ts';
import { deprecationMessage } from '../../../core/surfaces/signature.ts';
import { toolForKernel, translateCall } from '../../../core/surfaces/translate.ts';
import { SYNSETS, splitWords, styleName, synonymsOf } from '../../../core/surfaces/vocab/synonyms.ts';
import { Rng } from '../../../core/util/random.ts';
import type { KernelCall, KernelToolName } from '../../../core/world/kernel/kernel.ts';
import { PARAM_ERROR_COMMAND, PARAM_ERROR_FLAG } from '../../../core/world/kernel/messages.ts';
import { initialState } from '../../../core/world/kernel/state.ts';
import { referenceDeps, runReferencePlan } from '../../../core/world/tasks/reference-plan.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import type { Gold, PlanStep } from '../../../core/world/tasks/types.ts';
import type { World } from '../../../core/world/types.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { echoDeps, jsonText, reactText } from './surface-fixtures.ts';

const SEEDS = Array.from({ length: 120 }, (_, i) => i);
const DOMAIN = (k: KernelToolName) => k !== 'Finish' && k !== 'UpdateTool';

/** A non-empty random subset of the kinds, fixed per seed. */
function kindsFor(seed: number): DriftKind[] {
  const rng = new Rng(`drift-test/kinds/${seed}`);
  const kinds = DRIFT_KINDS.filter(() => rng.chance(0.5));
  return kinds.length > 0 ? kinds : [rng.pick(DRIFT_KINDS)];
}

/** The parts of a surface that its kinds shape (not id, title, description or the drift record). */
function shape(s: Surface): string {
  return JSON.stringify({ tools: s.tools, retired: s.retired, response: s.response });
}

function tool(s: Surface, kernel: KernelToolName): SurfaceTool {
  const t = toolForKernel(s, kernel);
  if (!t) throw new Error(`${s.id} serves no ${kernel}`);
  return t;
}

function keysOf(t: SurfaceTool): string[] {
  return t.params.map((p) => (p.kind === 'numbered' ? p.prefix : p.name));
}

const BUILTIN_NAME_KERNELS = new Map<string, Set<KernelToolName>>();
for (const s of BUILTIN_SURFACES) {
  for (const n of [...s.tools, ...s.retired]) {
    const k = n.name.toLowerCase();
    BUILTIN_NAME_KERNELS.set(k, (BUILTIN_NAME_KERNELS.get(k) ?? new Set()).add(n.kernel));
  }
}

// ---------------------------------------------------------------------------------------------------------------

describe('the vocabulary', () => {
  it('knows synonyms for every word of the built-in tool names and parameter keys', () => {
    const words = new Set<string>();
    for (const s of BUILTIN_SURFACES) {
      for (const t of s.tools.filter((x) => DOMAIN(x.kernel))) {
        for (const n of [t.name, ...keysOf(t)]) for (const w of splitWords(n)) words.add(w);
        for (const p of t.params) {
          if (p.kind === 'structured')
            for (const l of p.slots) for (const w of splitWords(l.label)) words.add(w);
        }
      }
    }
    const missing = [...words].filter((w) => !/^[0-9]+$/.test(w) && synonymsOf(w).length === 0);
    expect(missing).toEqual([]);
    expect(synonymsOf('Load')).toEqual(expect.arrayContaining(['Init', 'Open', 'Import', 'Mount', 'Attach']));
    expect(synonymsOf('get')).toEqual(expect.arrayContaining(['Fetch', 'Read', 'Extract', 'Obtain']));
    expect(synonymsOf('Check')).toEqual(expect.arrayContaining(['Inspect', 'Verify', 'Validate', 'Probe']));
    expect(synonymsOf('Check')).not.toContain('Check');
  });

  it('puts every word in one group only, once, as an identifier', () => {
    const all = SYNSETS.flat().map((w) => w.toLowerCase());
    expect(all.length).toBe(new Set(all).size);
    for (const group of SYNSETS) {
      expect(group.length).toBeGreaterThanOrEqual(3);
      for (const w of group) expect(w).toMatch(/^[A-Z][A-Za-z0-9]*$/);
    }
  });

  it('splits names into words and writes them in the name styles', () => {
    expect(splitWords('FetchValue_ByKey')).toEqual(['Fetch', 'Value', 'By', 'Key']);
    expect(splitWords('SQLInterpreter')).toEqual(['SQL', 'Interpreter']);
    expect(splitWords('python_execute_Code')).toEqual(['python', 'execute', 'Code']);
    expect(splitWords('DBName')).toEqual(['DB', 'Name']);
    expect(splitWords('Vertex1')).toEqual(['Vertex', '1']);
    const rng = new Rng('styles');
    const words = ['Apply', 'Database', 'Filters'];
    expect(styleName(words, 'PascalCase', rng)).toBe('ApplyDatabaseFilters');
    expect(styleName(words, 'camelCase', rng)).toBe('applyDatabaseFilters');
    expect(styleName(words, 'snake_case', rng)).toBe('apply_database_filters');
    expect(styleName(words, 'Pascal_Snake', rng)).toBe('Apply_Database_Filters');
    expect(styleName(['Execute', 'SQL', 'Query'], 'camelCase', rng)).toBe('executeSQLQuery');
    expect(styleName(['Vertex', '1'], 'snake_case', rng)).toBe('vertex1');
    expect(styleName(words, 'Pascal_Mixed', rng)).toMatch(/^Apply_?Database_?Filters$/);
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('generateSurface', () => {
  it('is deterministic: same base, seed and kinds → deep-equal plain JSON', () => {
    for (const base of BUILTIN_SURFACES) {
      for (const seed of SEEDS) {
        const kinds = kindsFor(seed);
        const a = generateSurface(base, { seed, kinds });
        const b = generateSurface(base, { seed, kinds: [...kinds].reverse().concat(kinds) });
        expect(b).toEqual(a);
        expect(JSON.parse(JSON.stringify(a))).toEqual(a);
        expect(a.drift).toEqual({ seed: String(seed), kinds });
        expect(a.derivedFrom).toBe(base.id);
      }
    }
  });

  it('differs from seed to seed', () => {
    for (const base of BUILTIN_SURFACES) {
      const shapes = SEEDS.map((seed) => shape(generateSurface(base, { seed, kinds: DRIFT_KINDS })));
      expect(new Set(shapes).size).toBe(SEEDS.length);
      const ids = SEEDS.map((seed) => generateSurface(base, { seed, kinds: ['flags'] }).id);
      expect(new Set(ids).size).toBe(SEEDS.length);
      for (const id of ids) expect(id).toMatch(new RegExp(`^${base.id}-drift-[0-9a-f]{8}$`));
    }
    // Each kind alone varies with the seed, even the ones with few choices.
    const minimumVariety: Record<DriftKind, number> = {
      'rename-tool': 100,
      'special-chars': 100,
      'rename-params': 100,
      'split-params': 3,
      'merge-params': 20,
      'structured-params': 20,
      flags: 100,
      prefixes: 50,
      'wrap-response': 50,
    };
    for (const kind of DRIFT_KINDS) {
      const shapes = new Set(
        SEEDS.map((seed) => shape(generateSurface(PC_SURFACE, { seed, kinds: [kind] }))),
      );
      expect(shapes.size, kind).toBeGreaterThanOrEqual(minimumVariety[kind]);
    }
  });

  it('keeps what a kind chose when other kinds are added', () => {
    for (const seed of SEEDS.slice(0, 30)) {
      const names = generateSurface(S_OOD_SURFACE, { seed, kinds: ['rename-tool'] }).tools.map((t) => t.name);
      const more = generateSurface(S_OOD_SURFACE, {
        seed,
        kinds: ['rename-tool', 'wrap-response', 'prefixes'],
      });
      expect(more.tools.map((t) => t.name)).toEqual(names);
      const wrap = generateSurface(S_OOD_SURFACE, { seed, kinds: ['wrap-response'] }).response;
      expect(more.response).toEqual(wrap);
    }
  });

  it('rejects unknown kinds and takes the kinds as a set', () => {
    expect(() => generateSurface(PC_SURFACE, { seed: 1, kinds: ['rename-tools'] })).toThrow(
      /unknown drift kind "rename-tools"/,
    );
    expect(normalizeDriftKinds(['wrap-response', 'flags', 'wrap-response', 'rename-tool'])).toEqual([
      'rename-tool',
      'flags',
      'wrap-response',
    ]);
    const plain = generateSurface(S_IN_SURFACE, { seed: 'x', kinds: [], id: 'same', title: 'Same' });
    expect(plain).toMatchObject({ id: 'same', title: 'Same', drift: { seed: 'x', kinds: [] } });
    expect(plain.tools).toEqual(S_IN_SURFACE.tools);
    expect(plain.retired).toEqual(S_IN_SURFACE.retired);
  });

  it('makes valid surfaces: no adapter problems, exposed names, no collisions', () => {
    for (const base of BUILTIN_SURFACES) {
      for (const seed of SEEDS) {
        const s = generateSurface(base, { seed, kinds: kindsFor(seed) });
        expect(validateSurface(s)).toEqual([]);
        expect(driftProblems(s)).toEqual([]);
        const names = [...s.tools, ...s.retired].map((n) => n.name);
        expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
        for (const n of [...s.tools, ...s.retired]) {
          expect(n.name).toMatch(EXPOSED_NAME);
          const kernels = BUILTIN_NAME_KERNELS.get(n.name.toLowerCase());
          if (kernels) expect([...kernels]).toEqual([n.kernel]);
        }
        for (const t of s.tools) {
          for (const k of keysOf(t)) expect(k).toMatch(EXPOSED_NAME);
          expect(resolveCall(s, t.name, t.example)).toMatchObject({ kind: 'call', call: { tool: t.kernel } });
        }
        expect(s.tools.map((t) => t.kernel)).toEqual(base.tools.map((t) => t.kernel));
      }
    }
    // The built-in surfaces pass the same checks.
    for (const base of BUILTIN_SURFACES) expect(driftProblems(base)).toEqual([]);
  });

  it('keeps Finish and UpdateTool, and retires every renamed name with a §4.6-style message', async () => {
    const world = {} as World;
    for (const base of BUILTIN_SURFACES) {
      for (const seed of SEEDS.slice(0, 25)) {
        const s = generateSurface(base, { seed, kinds: kindsFor(seed) });
        expect(tool(s, 'Finish')).toEqual(tool(base, 'Finish'));
        expect(tool(s, 'UpdateTool').params).toEqual(tool(base, 'UpdateTool').params);
        for (const b of base.tools) {
          const t = tool(s, b.kernel);
          if (t.name === b.name) {
            expect(s.retired.some((r) => r.name === b.name)).toBe(false);
            continue;
          }
          const r = s.retired.find((x) => x.name === b.name);
          expect(r).toEqual({
            name: b.name,
            kernel: b.kernel,
            successor: t.name,
            message: deprecationMessage(b, t),
          });
          const got = await stepSurface(
            world,
            s,
            initialState(),
            { action: b.name, actionInput: '{}' },
            echoDeps,
          );
          const seen =
            s.response.kind === 'wrapped'
              ? JSON.parse(got.observation)[s.response.messageKey]
              : got.observation;
          expect(seen).toBe(r?.message);
          expect(got.outcome).toEqual({ kind: 'rejected', reason: 'retired' });
        }
        // The base's retired names follow their successor.
        for (const old of base.retired) {
          const r = s.retired.find((x) => x.name === old.name);
          expect(r?.successor).toBe(tool(s, old.kernel).name);
          expect(r?.message).toMatch(
            /^Error: \S+\[.*?\] is deprecated and will be removed in future releases\. Use /,
          );
          expect(r?.message).toContain(` Use ${tool(s, old.kernel).name}[`);
        }
      }
    }
  });

  it('renders documentation for every tool', () => {
    for (const base of BUILTIN_SURFACES) {
      for (const seed of SEEDS.slice(0, 40)) {
        const s = generateSurface(base, { seed, kinds: kindsFor(seed) });
        const lines = renderToolList(s).split('\n');
        expect(lines).toHaveLength(s.tools.length);
        for (const [i, t] of s.tools.entries()) {
          expect(lines[i]?.startsWith(`(${i + 1}) ${t.name}[`)).toBe(true);
          expect(t.description).toMatch(/^which /);
          for (const p of t.params) expect(p.description.length).toBeGreaterThan(0);
          const schema = toolArgumentsSchema(t) as { properties: Record<string, { pattern?: string }> };
          for (const [key, value] of Object.entries(t.example)) {
            const pattern = schema.properties[key]?.pattern;
            if (pattern !== undefined) expect(value).toMatch(new RegExp(pattern));
          }
        }
        expect(mcpTools(s).map((m) => m.name)).toEqual(s.tools.map((t) => t.name));
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('each drift kind alone', () => {
  const alone = (base: Surface, kind: DriftKind, seed: number) =>
    generateSurface(base, { seed, kinds: [kind] });
  const domainTools = (s: Surface) => s.tools.filter((t) => DOMAIN(t.kernel));

  it('rename-tool renames every domain tool and nothing else', () => {
    for (const base of BUILTIN_SURFACES) {
      for (const seed of SEEDS.slice(0, 40)) {
        const s = alone(base, 'rename-tool', seed);
        for (const t of domainTools(s)) {
          const b = tool(base, t.kernel);
          expect(t.name).not.toBe(b.name);
          expect(splitWords(t.name).map((w) => w.toLowerCase())).not.toEqual(
            splitWords(b.name).map((w) => w.toLowerCase()),
          );
          expect(t.params).toEqual(b.params);
          expect(t.example).toEqual(b.example);
          expect(t.keyMismatch).toBe('param-error');
        }
        expect(s.retired).toHaveLength(base.retired.length + 11);
        expect(s.response).toEqual(base.response);
      }
    }
  });

  it("special-chars joins the words of names and keys with ToolEvo's characters _ - @ % # . ? & (App. B.2)", () => {
    const used = new Set<string>();
    for (const base of BUILTIN_SURFACES) {
      for (const seed of SEEDS.slice(0, 40)) {
        const s = alone(base, 'special-chars', seed);
        expect(driftProblems(s)).toEqual([]);
        for (const t of domainTools(s)) {
          const b = tool(base, t.kernel);
          expect(splitWords(t.name)).toEqual(splitWords(b.name));
          // One character per gap, not all of them `_` (never plain snake case).
          const seps = t.name.split(/[A-Za-z0-9]+/).filter((x) => x !== '');
          expect(seps.every((x) => PAPER_SPECIAL_CHARS.includes(x))).toBe(true);
          expect(seps.some((x) => x !== '_')).toBe(true);
          for (const x of seps) used.add(x);
          keysOf(t).forEach((k, i) => {
            const old = keysOf(b)[i] as string;
            expect(splitWords(k)).toEqual(splitWords(old));
            if (splitWords(old).filter((w) => !/^[0-9]+$/.test(w)).length > 1) expect(k).toMatch(/[-@%#.?&]/);
            else expect(k).toBe(old);
          });
        }
      }
    }
    expect([...used].sort()).toEqual([...PAPER_SPECIAL_CHARS].sort());
  });

  it("special-chars with specialChars 'function-calling' keeps to - and _ (at least one -): function-calling names", () => {
    for (const base of BUILTIN_SURFACES) {
      for (const seed of SEEDS.slice(0, 40)) {
        const s = generateSurface(base, { seed, kinds: ['special-chars'], specialChars: 'function-calling' });
        expect(s.id).not.toBe(alone(base, 'special-chars', seed).id);
        for (const t of domainTools(s)) {
          const b = tool(base, t.kernel);
          expect(splitWords(t.name)).toEqual(splitWords(b.name));
          expect(t.name).toMatch(FUNCTION_CALLING_NAME);
          expect(t.name).toContain('-');
          expect(t.name).not.toMatch(/__|[./]/);
          for (const k of keysOf(t)) expect(k).toMatch(FUNCTION_CALLING_NAME);
        }
      }
    }
  });

  it('serves a name with every special character in ReAct text and JSON keys', async () => {
    // A hand-built surface: LoadDB as `Load@Data%Base#Now.Or?Never&Ever` with the key `db_name-@%#.?&`.
    const pc = tool(PC_SURFACE, 'LoadDB');
    const name = 'Load@Data%Base#Now.Or?Never&Ever';
    const key = 'db_name-@%#.?&';
    const special: Surface = {
      ...PC_SURFACE,
      id: 'special-hand',
      tools: PC_SURFACE.tools.map((t) =>
        t.kernel === 'LoadDB'
          ? {
              ...pc,
              name,
              params: [{ kind: 'rename', name: key, kernel: 'DBName', description: 'The database.' }],
              example: { [key]: 'coffee' },
            }
          : t,
      ),
    };
    expect(validateSurface(special)).toEqual([]);
    expect(driftProblems(special)).toEqual([]);
    expect(parseSurface(special).ok).toBe(true);
    expect(renderToolList(special)).toContain(`(3) ${name}[${key}], `);
    const world = generateWorld({ seed: 'special', scale: 0.02 });
    const step = await stepSurface(
      world,
      special,
      initialState(),
      reactText(name, JSON.stringify({ [key]: 'coffee' })),
      echoDeps,
    );
    expect(step.outcome).toEqual({ kind: 'ok' });
    expect(step.observation).toMatch(/^We have successfully loaded the coffee database/);
    expect(mcpTools(special).find((t) => t.name === name)?.inputSchema).toMatchObject({
      required: [key],
    });
  });

  it('rename-params renames every domain key consistently and keeps the shapes', () => {
    for (const base of BUILTIN_SURFACES) {
      for (const seed of SEEDS.slice(0, 40)) {
        const s = alone(base, 'rename-params', seed);
        const renamed = new Map<string, string>();
        for (const t of domainTools(s)) {
          const b = tool(base, t.kernel);
          expect(t.name).toBe(b.name);
          expect(t.params.map((p) => p.kind)).toEqual(b.params.map((p) => p.kind));
          keysOf(t).forEach((k, i) => {
            const old = keysOf(b)[i] as string;
            expect(k.toLowerCase()).not.toBe(old.toLowerCase());
            // One word map for the whole surface: a key is renamed the same way in every tool.
            expect(renamed.get(old) ?? k).toBe(k);
            renamed.set(old, k);
          });
        }
      }
    }
    const pc = alone(PC_SURFACE, 'rename-params', 3);
    expect(splitWords(keysOf(tool(pc, 'SQLInterpreter'))[0] as string)).toHaveLength(2);
  });

  it('split-params numbers FilterDB conditions and GetValue columns only', () => {
    let filters = 0;
    let values = 0;
    for (const seed of SEEDS) {
      const s = alone(PC_SURFACE, 'split-params', seed);
      for (const t of s.tools) {
        const numbered = t.params.filter((p) => p.kind === 'numbered');
        if (t.kernel !== 'FilterDB' && t.kernel !== 'GetValue') expect(t).toEqual(tool(PC_SURFACE, t.kernel));
        else if (numbered.length > 0) {
          if (t.kernel === 'FilterDB') filters++;
          else values++;
          expect(numbered[0]).toMatchObject({ joiner: ', ' });
        }
      }
      expect(s.tools.some((t) => t.params.some((p) => p.kind === 'numbered'))).toBe(true);
    }
    expect(filters).toBeGreaterThan(60);
    expect(values).toBeGreaterThan(60);
    // Numbered keys join into the string the kernel splits again: conditions at ", ", columns at ",".
    const both = SEEDS.map((seed) => alone(PC_SURFACE, 'split-params', seed)).find((x) =>
      ['FilterDB', 'GetValue'].every((k) => tool(x, k as KernelToolName).params[0]?.kind === 'numbered'),
    ) as Surface;
    const filter = tool(both, 'FilterDB');
    expect(resolveCall(both, filter.name, { condition1: 'a>1', condition2: 'b=2' })).toMatchObject({
      kind: 'call',
      call: { tool: 'FilterDB', args: { condition: 'a>1, b=2' } },
    });
    expect(resolveCall(both, filter.name, { condition: 'a>1, b=2' })).toMatchObject({ kind: 'call' });
    expect(resolveCall(both, filter.name, { condition2: 'b=2', condition1: 'a>1' })).toMatchObject({
      kind: 'rejected',
      observation: paramErrors('FilterDB').keys,
    });
    expect(
      resolveCall(both, tool(both, 'GetValue').name, { column_name1: 'price', column_name2: 'NAME' }),
    ).toMatchObject({ kind: 'call', call: { tool: 'GetValue', args: { column_name: 'price, NAME' } } });
    // With a mandatory flag, the unnumbered form takes the flag along (like ToolQA-D's {"column", "ReturnResult"}).
    for (const seed of SEEDS) {
      const s = generateSurface(PC_SURFACE, { seed, kinds: ['split-params', 'flags'] });
      const getValue = tool(s, 'GetValue');
      const numbered = getValue.params.find((p) => p.kind === 'numbered');
      const flag = getValue.params.find((p) => p.kind === 'flag');
      if (numbered?.kind !== 'numbered' || flag?.kind !== 'flag') continue;
      expect(numbered.singleKeyWith).toEqual([flag.name]);
      const args = { [numbered.prefix]: 'price, NAME', [flag.name]: flag.accepted[0] };
      expect(resolveCall(s, getValue.name, args)).toMatchObject({
        call: { args: { column_name: 'price, NAME' } },
      });
      return;
    }
    throw new Error('no seed split GetValue and flagged it');
  });

  it('merge-params carries graph parameters in one structured string', () => {
    for (const seed of SEEDS.slice(0, 60)) {
      const s = alone(PC_SURFACE, 'merge-params', seed);
      const merged = s.tools.filter((t) => t.params.some((p) => p.kind === 'structured'));
      expect(merged.length).toBeGreaterThan(0);
      for (const t of merged) {
        expect(['NeighbourCheck', 'NodeCheck', 'EdgeCheck']).toContain(t.kernel);
        const spec = t.params.find((p) => p.kind === 'structured') as Extract<
          ParamSpec,
          { kind: 'structured' }
        >;
        expect(spec.slots.length).toBeGreaterThanOrEqual(2);
        expect(spec.description).toContain('(no space before the last "[")');
      }
    }
    // s-in's edge tool has a structured node pair beside a plain graph key: the graph moves in.
    const sIn = SEEDS.map((seed) => alone(S_IN_SURFACE, 'merge-params', seed));
    const extended = sIn
      .map((s) => tool(s, 'EdgeCheck'))
      .filter((t) => t.params.length === 1 && t.params[0]?.kind === 'structured');
    expect(extended.length).toBeGreaterThan(0);
    for (const t of extended) {
      const spec = t.params[0] as Extract<ParamSpec, { kind: 'structured' }>;
      expect(spec.slots.map((x) => x.kernel)).toEqual(['GraphName', 'Node1', 'Node2']);
      expect(spec.name).toBe('NodeInfos');
    }
  });

  it('structured-params exchanges strings and structured strings', () => {
    for (const seed of SEEDS.slice(0, 40)) {
      const pc = alone(PC_SURFACE, 'structured-params', seed);
      const wrapped = pc.tools.filter((t) => t.params.some((p) => p.kind === 'structured'));
      expect(wrapped.length).toBeGreaterThan(0);
      for (const t of wrapped) {
        expect(['LoadDB', 'LoadGraph', 'GetValue']).toContain(t.kernel);
        expect(t.params).toHaveLength(1);
      }
      for (const base of [S_IN_SURFACE, S_OOD_SURFACE]) {
        const edge = tool(alone(base, 'structured-params', seed), 'EdgeCheck');
        expect(edge.params.map((p) => p.kind)).toEqual(['rename', 'rename', 'rename']);
      }
    }
    const edge = tool(alone(S_OOD_SURFACE, 'structured-params', 1), 'EdgeCheck');
    expect(edge.params.map((p) => (p.kind === 'rename' ? [p.name, p.kernel] : null))).toEqual([
      ['Graph', 'GraphName'],
      ['Vertex1', 'Node1'],
      ['Vertex2', 'Node2'],
    ]);
  });

  it('flags adds mandatory flags that are checked like ReturnResult', () => {
    for (const seed of SEEDS.slice(0, 40)) {
      const s = alone(PC_SURFACE, 'flags', seed);
      const flagged = s.tools.filter((t) => t.params.some((p) => p.kind === 'flag'));
      expect(flagged.length).toBeGreaterThan(0);
      for (const t of flagged) {
        expect(DOMAIN(t.kernel)).toBe(true);
        const flag = t.params.find((p) => p.kind === 'flag') as Extract<ParamSpec, { kind: 'flag' }>;
        expect(flag.optional).toBe(false);
        expect(t.description).toContain(`${flag.name} must be `);
        const { [flag.name]: _, ...withoutFlag } = t.example;
        // The agent sees the family's message; a REST client also learns which parameter it was.
        expect(resolveCall(s, t.name, withoutFlag)).toEqual({
          kind: 'rejected',
          reason: 'param-error',
          observation: paramErrors(t.kernel).keys,
          kernel: t.kernel,
          param: { field: flag.name, message: expect.stringContaining('required parameter missing') },
        });
        expect(resolveCall(s, t.name, { ...t.example, [flag.name]: 'nope' })).toEqual({
          kind: 'rejected',
          reason: 'param-error',
          observation: paramErrors(t.kernel).value,
          kernel: t.kernel,
          param: { field: flag.name, message: expect.stringContaining('expected one of') },
        });
      }
    }
    // A generic tool answers a bad flag value like ToolQA-D's neighbour tool does.
    const s = SEEDS.map((seed) => alone(PC_SURFACE, 'flags', seed)).find((x) =>
      tool(x, 'LoadDB').params.some((p) => p.kind === 'flag'),
    ) as Surface;
    const loadDb = tool(s, 'LoadDB');
    const flag = loadDb.params.find((p) => p.kind === 'flag') as Extract<ParamSpec, { kind: 'flag' }>;
    expect(resolveCall(s, loadDb.name, { ...loadDb.example, [flag.name]: 'nope' })).toMatchObject({
      observation: PARAM_ERROR_FLAG,
    });
    expect(resolveCall(s, loadDb.name, { DBName: 'flights' })).toMatchObject({
      observation: PARAM_ERROR_COMMAND,
    });
  });

  it('prefixes puts a new literal prefix in front of SQL and Python code', () => {
    for (const base of BUILTIN_SURFACES) {
      for (const seed of SEEDS.slice(0, 40)) {
        const s = alone(base, 'prefixes', seed);
        for (const kernel of ['SQLInterpreter', 'PythonInterpreter'] as const) {
          const p = tool(s, kernel).params[0];
          const b = tool(base, kernel).params[0];
          expect(p?.kind).toBe('prefixed');
          if (p?.kind !== 'prefixed') continue;
          expect(p.prefix).not.toBe(b?.kind === 'prefixed' ? b.prefix : undefined);
          expect(p.trim).toBe(kernel === 'PythonInterpreter');
          expect(p.prefix).toContain(kernel === 'SQLInterpreter' ? 'SQL' : 'Python');
        }
        expect(s.tools.filter((t) => !t.kernel.endsWith('Interpreter'))).toEqual(
          base.tools.filter((t) => !t.kernel.endsWith('Interpreter')),
        );
      }
    }
  });

  it('wrap-response wraps observations in a JSON object with generated keys', async () => {
    const world = {} as World;
    for (const base of BUILTIN_SURFACES) {
      for (const seed of SEEDS.slice(0, 20)) {
        const s = alone(base, 'wrap-response', seed);
        expect(s.tools).toEqual(base.tools);
        const r = s.response;
        if (r.kind !== 'wrapped') throw new Error('not wrapped');
        expect(r.stateKey.toLowerCase()).not.toBe(r.messageKey.toLowerCase());
        const twice = generateSurface(s, { seed, kinds: ['wrap-response'] }).response;
        expect(twice).not.toEqual(r);
        const got = await stepSurface(
          world,
          s,
          initialState(),
          { action: 'Nope', actionInput: '{}' },
          echoDeps,
        );
        expect(JSON.parse(got.observation)).toEqual({
          [r.stateKey]: r.failure,
          [r.messageKey]: s.messages.invalidAction,
        });
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe('describeDrift', () => {
  it('lists what P_s_in changed from P_c', () => {
    const d = describeDrift(PC_SURFACE, S_IN_SURFACE);
    expect(d.base).toBe('pc');
    expect(d.surface).toBe('s-in');
    expect(d.drift).toBeNull();
    expect(d.renamedTools).toHaveLength(11);
    expect(d.renamedTools[2]).toEqual({ kernel: 'LoadDB', from: 'LoadDB', to: 'InitializeDatabase' });
    const byKernel = (k: KernelToolName) => d.tools.find((t) => t.kernel === k);
    expect(byKernel('FilterDB')?.params).toEqual([
      {
        kernelParam: 'condition',
        from: { kind: 'key', key: 'condition' },
        to: { kind: 'numbered', prefix: 'condition', joiner: ', ', singleKey: 'condition' },
      },
    ]);
    expect(byKernel('EdgeCheck')?.params).toEqual([
      {
        kernelParam: 'GraphName',
        from: { kind: 'key', key: 'GraphName' },
        to: { kind: 'key', key: 'Graph_Name' },
      },
      {
        kernelParam: 'Node1',
        from: { kind: 'key', key: 'Node1' },
        to: { kind: 'structured', key: 'NodeInfos', label: 'FirstNode', labels: ['FirstNode', 'SecondNode'] },
      },
      {
        kernelParam: 'Node2',
        from: { kind: 'key', key: 'Node2' },
        to: {
          kind: 'structured',
          key: 'NodeInfos',
          label: 'SecondNode',
          labels: ['FirstNode', 'SecondNode'],
        },
      },
    ]);
    expect(byKernel('NeighbourCheck')?.flags).toEqual({
      added: [{ name: 'ReturnResult', accepted: ['True', 'true', true], optional: false }],
      removed: [],
    });
    expect(byKernel('GetValue')?.flags.added).toEqual([
      { name: 'ReturnResult', accepted: ['True', 'true', true], optional: true },
    ]);
    expect(byKernel('RetrieveAgenda')?.ignored).toEqual({ added: ['return_num'], removed: [] });
    expect(byKernel('SQLInterpreter')?.prefixes).toEqual([
      { kernelParam: 'SQL', from: null, to: 'The SQL code is as follows:' },
    ]);
    // Finish keeps its name and key; only the answer to a wrong key set differs (§4.2 vs §4.8).
    expect(byKernel('Finish')).toMatchObject({
      renamed: false,
      params: [],
      keyMismatch: { from: 'invalid-action', to: 'param-error' },
    });
    expect(d.response).toBeNull();
    expect(d.lifecycle.retired.map((r) => r.name)).toEqual(PC_SURFACE.tools.slice(0, 11).map((t) => t.name));
    expect(d.lifecycle).toMatchObject({ unretired: [], redirected: [], tools: [] });
  });

  it('is empty between a surface and itself, and redirects retired names between drifted surfaces', () => {
    for (const s of BUILTIN_SURFACES) {
      expect(describeDrift(s, s)).toMatchObject({
        renamedTools: [],
        tools: [],
        response: null,
        lifecycle: { retired: [], unretired: [], redirected: [], tools: [] },
      });
    }
    const d = describeDrift(S_OOD_SURFACE, S_OOD_ALT_SURFACE);
    expect(d.renamedTools.map((r) => r.kernel)).toEqual([
      'RetrieveAgenda',
      'RetrieveScirex',
      'LoadDB',
      'GetValue',
      'LoadGraph',
      'NeighbourCheck',
    ]);
    expect(d.lifecycle.redirected).toContainEqual({ name: 'LoadDB', from: 'Init_DB', to: 'Init_LocalDB' });
  });

  it('reports on a generated surface exactly the kinds it was made with', () => {
    for (const base of BUILTIN_SURFACES) {
      for (const seed of SEEDS.slice(0, 60)) {
        const kinds = kindsFor(seed);
        const s = generateSurface(base, { seed, kinds });
        const d = describeDrift(base, s);
        expect(JSON.parse(JSON.stringify(d))).toEqual(d);
        expect(d.drift).toEqual({ seed: String(seed), kinds });
        const renames = kinds.includes('rename-tool') || kinds.includes('special-chars');
        expect(d.renamedTools.length).toBe(renames ? 11 : 0);
        expect(d.lifecycle.retired.map((r) => r.name).sort()).toEqual(
          renames
            ? base.tools
                .filter((t) => DOMAIN(t.kernel))
                .map((t) => t.name)
                .sort()
            : [],
        );
        expect(d.response !== null).toBe(kinds.includes('wrap-response'));
        // Renamed flags show as removed and added; new mandatory flags as added only.
        expect(d.tools.some((t) => t.flags.added.length > t.flags.removed.length)).toBe(
          kinds.includes('flags'),
        );
        expect(d.tools.filter((t) => t.prefixes.length > 0).map((t) => t.kernel)).toEqual(
          kinds.includes('prefixes') ? ['SQLInterpreter', 'PythonInterpreter'] : [],
        );
        expect(d.tools.some((t) => !DOMAIN(t.kernel))).toBe(false);
        // split-params finds nothing to split on the drifted bases: their filter and value tools are numbered.
        const keepShape = ['rename-tool', 'wrap-response', ...(base === PC_SURFACE ? [] : ['split-params'])];
        const reshaped = kinds.some((k) => !keepShape.includes(k));
        expect(d.tools.some((t) => t.params.length > 0 || t.flags.added.length > 0)).toBe(reshaped);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Solvability: reference plans through generated surfaces

interface SampledTask {
  templateId: string;
  dataset: string;
  gold: Gold;
  steps: PlanStep[];
}

const world = generateWorld({ seed: 'surfaces-drift', scale: 1 });

/** One solvable task per template, across every dataset. */
async function sampleTasks(): Promise<SampledTask[]> {
  const out: SampledTask[] = [];
  for (const template of TASK_TEMPLATES) {
    const rng = new Rng(`drift/${template.id}`);
    for (let draw = 0; draw < 60; draw++) {
      const sampled = template.sample({ rng, world });
      if (!sampled) continue;
      const run = await runReferencePlan(world, template, sampled.slots, sampled.gold);
      if (!run.correct) continue;
      out.push({ templateId: template.id, dataset: template.dataset, gold: sampled.gold, steps: run.steps });
      break;
    }
  }
  return out;
}

/** Runs a task's plan on the surface; returns what went wrong, or null. */
async function replay(surface: Surface, task: SampledTask, react: boolean): Promise<string | null> {
  let state = initialState();
  const deps = referenceDeps(task.gold);
  for (const [i, planStep] of task.steps.entries()) {
    const where = `${surface.id} ${task.templateId} step ${i} (${planStep.tool})`;
    const call: KernelCall = { tool: planStep.tool, args: planStep.args };
    const t = translateCall(surface, call);
    if (!t.ok) return `${where}: ${t.reason}`;
    const input = react ? reactText(t.tool, jsonText(t.args)) : { action: t.tool, actionInput: t.args };
    const got = await stepSurface(world, surface, state, input, deps);
    let observation = got.observation;
    if (surface.response.kind === 'wrapped') {
      const parsed = JSON.parse(got.observation) as Record<string, string>;
      expect(Object.keys(parsed)).toEqual([surface.response.stateKey, surface.response.messageKey]);
      const ok = got.outcome.kind !== 'error' && got.outcome.kind !== 'rejected';
      if (parsed[surface.response.stateKey] !== (ok ? surface.response.success : surface.response.failure)) {
        return `${where}: state ${parsed[surface.response.stateKey]}`;
      }
      observation = parsed[surface.response.messageKey] as string;
    }
    if (observation !== planStep.observation) {
      return `${where}: observation ${JSON.stringify(observation.slice(0, 200))} != ${JSON.stringify(planStep.observation.slice(0, 200))}`;
    }
    state = got.state;
  }
  if (!state.finished || !state.correct) return `${surface.id} ${task.templateId}: not finished correctly`;
  if (state.steps !== task.steps.length) return `${surface.id} ${task.templateId}: ${state.steps} steps`;
  return null;
}

describe('every sampled task stays solvable through generated surfaces', () => {
  let tasks: SampledTask[] = [];
  let groups: SampledTask[][] = [];

  beforeAll(async () => {
    tasks = await sampleTasks();
    const table = tasks.filter((t) => ['flights', 'coffee', 'airbnb', 'yelp'].includes(t.dataset));
    const graph = tasks.filter((t) => t.dataset === 'dblp');
    const other = tasks.filter((t) => ['agenda', 'scirex', 'gsm8k'].includes(t.dataset));
    groups = [table, graph, other];
  }, 60_000);

  it('samples tasks of every dataset, using every domain tool but SQL', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(TASK_TEMPLATES.length - 5);
    expect(new Set(tasks.map((t) => t.dataset)).size).toBe(8);
    const used = new Set(tasks.flatMap((t) => t.steps.map((s) => s.tool)));
    for (const k of PC_SURFACE.tools.map((t) => t.kernel)) {
      if (k !== 'SQLInterpreter' && k !== 'UpdateTool') expect(used.has(k), k).toBe(true);
    }
  });

  it(`${SEEDS.length} seeds × random kinds × every base: a table, a graph and a text/Python task each`, async () => {
    const failures: string[] = [];
    for (const base of BUILTIN_SURFACES) {
      for (const seed of SEEDS) {
        const surface = generateSurface(base, { seed, kinds: kindsFor(seed) });
        const rng = new Rng(`drift-test/tasks/${base.id}/${seed}`);
        for (const [g, group] of groups.entries()) {
          const problem = await replay(surface, rng.pick(group), (seed + g) % 2 === 0);
          if (problem) failures.push(problem);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it('each kind alone, from every base', async () => {
    const failures: string[] = [];
    for (const base of BUILTIN_SURFACES) {
      for (const kind of DRIFT_KINDS) {
        for (const seed of [1, 2]) {
          const surface = generateSurface(base, { seed, kinds: [kind] });
          const rng = new Rng(`drift-test/alone/${base.id}/${kind}/${seed}`);
          for (const group of groups) {
            const problem = await replay(surface, rng.pick(group), seed === 1);
            if (problem) failures.push(problem);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it('every task, for a few seeds with every kind (and drifted twice)', async () => {
    const failures: string[] = [];
    for (const [i, base] of BUILTIN_SURFACES.entries()) {
      const once = generateSurface(base, { seed: `full-${i}`, kinds: DRIFT_KINDS });
      const surfaces =
        i === 0 ? [once, generateSurface(once, { seed: 'again', kinds: DRIFT_KINDS })] : [once];
      for (const surface of surfaces) {
        expect(driftProblems(surface)).toEqual([]);
        for (const [j, task] of tasks.entries()) {
          const problem = await replay(surface, task, j % 2 === 0);
          if (problem) failures.push(problem);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

describe('resolution of translated calls', () => {
  it('maps every kernel tool example back onto the same kernel call', () => {
    for (const base of BUILTIN_SURFACES) {
      for (const seed of SEEDS.slice(0, 30)) {
        const s = generateSurface(base, { seed, kinds: kindsFor(seed) });
        for (const pc of PC_SURFACE.tools) {
          const call: KernelCall = { tool: pc.kernel, args: pc.example };
          const t = translateCall(s, call);
          if (!t.ok) throw new Error(t.reason);
          expect(resolveCall(s, t.tool, t.args)).toMatchObject({ kind: 'call', call });
        }
      }
    }
  });
});
