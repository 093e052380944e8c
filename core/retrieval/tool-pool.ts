/**
 * The `toolPool` aid (core/aids; issue 14 item 7, cotools.md): a surface's tools hidden in a pool of distractor
 * tools, and an agent whose prompt documents only the tools retrieved from that pool.
 *
 * - **Pool** (`buildToolPool`): the tools of one or more surfaces (by default the documentation surface), without
 *   the control actions `Finish` and `UpdateTool` (they are not tools to look up: every prompt lists them), placed
 *   at seeded positions among distractors (the synthetic catalog, or any toolset), `size` tools in all.
 * - **Retrieval per step** (`ToolPoolRetriever.docsFor`): before each step the Tool Judge (spec eq. 3–5) reads the
 *   text so far (the question and the steps taken) and says whether this step needs a tool; when it does, the
 *   top-k tools for the step's query join the documented tools. The query of the first step is the question
 *   (cotools.md: the query side reads the question); of a later step, the question and the previous step's text
 *   (its Thought, Action and Action Input — the text generated so far, as CoTools' h is the hidden state of the
 *   text so far; the observation is left out, it can be a whole table). After a deprecation error
 *   (`X[...] is deprecated ... Use Y[...]`), the top-k candidates (X itself left out) for the retired tool's
 *   description and the deprecation text join as well — re-retrieval from the retired tool — whatever the judge
 *   says.
 * - **Documented tools accumulate**: a tool retrieved at one step stays in the prompt for the following steps
 *   (the transcript keeps growing; dropping a tool the agent already used would contradict its own history).
 *   They are listed in retrieval order, then the control actions.
 * - **Judge**: without a trained judge the gate is "always retrieve" (`judge: 'always'`), and says so.
 * - **No leak through the examples**: the documentation is marked `retrieved`, so the prompt's worked examples
 *   show only calls of documented tools (an example that needs a tool retrieval did not find is left out, see
 *   core/prompts/few-shots.ts) — a model cannot learn an undocumented tool's name from them.
 *
 * `docsFor` is a pure function of the question and the steps (results are cached by query), so a tree search can
 * call it for every node's path. Everything is seeded; core stays free of stores (the edge builds the pool from
 * D1 through AidContext, scripts from the catalog).
 */
import type { ParamSpec, Surface, SurfaceTool } from '../surfaces/model.ts';
import { Rng, type Seed } from '../util/random.ts';
import type { Ranker, Tool } from './types.ts';

/** Actions every prompt lists: they end or annotate a trajectory, they are not tools to look up. */
export const CONTROL_TOOLS: readonly string[] = ['Finish', 'UpdateTool'];

/** One pool entry: what rankers read (`name`, `description`) and how the prompt documents it (`doc`). */
export interface PoolTool extends Tool {
  /** The surface the tool comes from, or null for a distractor. */
  surface: string | null;
  doc: SurfaceTool;
}

/**
 * A distractor as a documentation-only surface tool: `(n) name[param, …], description`. It never reaches a server
 * (the server surface is separate); `kernel: 'UpdateTool'` is a placeholder no translation reads (few-shot
 * examples translate only data-tool calls, core/prompts/few-shots.ts).
 */
export function distractorDoc(tool: Tool): SurfaceTool {
  const props = (tool.parameters?.properties ?? {}) as Record<string, { description?: unknown }>;
  const params: ParamSpec[] = Object.entries(props).map(([name, p]) => ({
    kind: 'rename',
    name,
    kernel: name,
    description: typeof p?.description === 'string' ? p.description : name,
  }));
  return {
    kernel: 'UpdateTool',
    name: tool.name,
    params,
    keyMismatch: 'invalid-action',
    description: tool.description,
    example: {},
    lifecycle: { status: 'active' },
  };
}

export interface ToolPoolInput {
  /** Surfaces whose tools are hidden in the pool (first one wins a name two of them share). */
  surfaces: readonly Surface[];
  distractors: readonly Tool[];
  /** Tools in the pool in all (surface tools included); default every distractor plus the surface tools. */
  size?: number;
  /** Where the surface tools sit among the distractors. */
  seed: Seed;
}

/** The pool: the surfaces' tools (no control actions) at seeded positions among the first distractors. */
export function buildToolPool(input: ToolPoolInput): PoolTool[] {
  const own: PoolTool[] = [];
  const names = new Set<string>();
  for (const surface of input.surfaces)
    for (const t of surface.tools) {
      if (CONTROL_TOOLS.includes(t.kernel) || names.has(t.name) || t.lifecycle.status === 'sunset') continue;
      names.add(t.name);
      own.push({ name: t.name, description: t.description, surface: surface.id, doc: t });
    }
  const room = Math.max(0, (input.size ?? own.length + input.distractors.length) - own.length);
  const pool: PoolTool[] = [];
  for (const d of input.distractors) {
    if (pool.length >= room) break;
    if (names.has(d.name)) continue;
    pool.push({ ...d, surface: null, doc: distractorDoc(d) });
  }
  const rng = new Rng(input.seed).fork('tool-pool/positions');
  for (const t of own) pool.splice(rng.int(0, pool.length), 0, t);
  return pool;
}

/** The gate of a step: whether it needs a tool (the Tool Judge, eq. 4 > 0.5). */
export interface ToolGate {
  /** `always` (no trained judge: every step retrieves) or a trained judge's label. */
  readonly id: string;
  needsTool(text: string): Promise<boolean>;
}

export const ALWAYS_RETRIEVE: ToolGate = { id: 'always', needsTool: async () => true };

/** A step as the retriever reads it (the agent's text and the observation it got). */
export interface PoolStep {
  text: string;
  observation: string;
}

/** The retired tool a deprecation message names (ToolQA-D's `Error: X[...] is deprecated ...`), if any. */
export function deprecatedToolName(observation: string): string | null {
  const m = /([A-Za-z_][\w.-]*)\[[^\]]*\] is deprecated/.exec(observation);
  return m ? (m[1] as string) : null;
}

export interface RetrievalTrace {
  /** The step (0-based) before which the query ran. */
  step: number;
  kind: 'step' | 'deprecation';
  query: string;
  tools: string[];
}

export interface PoolRetrievalOptions<T extends Tool> {
  pool: readonly T[];
  ranker: Ranker;
  topK: number;
  gate?: ToolGate;
  /** The retired tool a deprecation observation names (default: ToolQA-D's `X[...] is deprecated`). */
  retiredName?: (observation: string) => string | null;
}

export interface ToolPoolRetrieverOptions extends PoolRetrievalOptions<PoolTool> {
  /** The documentation surface: its control actions, response format and messages frame the documented tools. */
  base: Surface;
}

/**
 * Retrieval per step over any pool of tools (see the module header): which tools are documented before the step
 * after `steps`. The kernel's pool documents surface tools (`ToolPoolRetriever`); an imported API's documents
 * its operations (core/aids/api-pool.ts).
 */
export class PoolRetrieval<T extends Tool> {
  readonly #pool: readonly T[];
  readonly #ranker: Ranker;
  readonly #gate: ToolGate;
  readonly #retiredName: (observation: string) => string | null;
  readonly #byName = new Map<string, T>();
  readonly #hits = new Map<string, Promise<T[]>>();
  readonly #gates = new Map<string, Promise<boolean>>();
  readonly topK: number;

  constructor(o: PoolRetrievalOptions<T>) {
    this.#pool = o.pool;
    this.#ranker = o.ranker;
    this.#gate = o.gate ?? ALWAYS_RETRIEVE;
    this.#retiredName = o.retiredName ?? deprecatedToolName;
    this.topK = o.topK;
    for (const t of o.pool) if (!this.#byName.has(t.name)) this.#byName.set(t.name, t);
  }

  get size(): number {
    return this.#pool.length;
  }

  get gate(): string {
    return this.#gate.id;
  }

  /** The top-k pool tools for a query (cached), leaving out the tool named `exclude` (a retired one). */
  retrieve(query: string, exclude?: string): Promise<T[]> {
    const key = `${exclude ?? ''}\u0000${query}`;
    let hit = this.#hits.get(key);
    if (!hit) {
      const k = this.topK + (exclude === undefined ? 0 : 1);
      hit = this.#ranker.rank([query], k).then(([hits = []]) =>
        hits
          .map((h) => this.#pool[h.index] as T)
          .filter((t) => t.name !== exclude)
          .slice(0, this.topK),
      );
      this.#hits.set(key, hit);
    }
    return hit;
  }

  #needsTool(text: string): Promise<boolean> {
    let g = this.#gates.get(text);
    if (!g) {
      g = this.#gate.needsTool(text);
      this.#gates.set(text, g);
    }
    return g;
  }

  /** What retrieval documents before the step after `steps` (see the module header), with its trace. */
  async retrieveFor(
    question: string,
    steps: readonly PoolStep[],
  ): Promise<{ tools: T[]; trace: RetrievalTrace[] }> {
    const tools: T[] = [];
    const seen = new Set<string>();
    const trace: RetrievalTrace[] = [];
    const add = (found: readonly T[]) => {
      for (const t of found) {
        if (seen.has(t.name)) continue;
        seen.add(t.name);
        tools.push(t);
      }
    };
    let soFar = question;
    for (let i = 0; i <= steps.length; i++) {
      const prev = i > 0 ? (steps[i - 1] as PoolStep) : null;
      if (prev) {
        soFar = `${soFar}\n${prev.text}\nObservation: ${prev.observation}`;
        const retired = this.#retiredName(prev.observation);
        if (retired !== null) {
          const described = tools.find((t) => t.name === retired) ?? this.#byName.get(retired);
          const query = `${described ? `${retired}: ${described.description}\n` : ''}${prev.observation}`;
          const found = await this.retrieve(query, retired);
          trace.push({ step: i, kind: 'deprecation', query, tools: found.map((t) => t.name) });
          add(found);
        }
      }
      if (!(await this.#needsTool(soFar))) continue;
      const query = prev ? `${question}\n${prev.text}` : question;
      const found = await this.retrieve(query);
      trace.push({ step: i, kind: 'step', query, tools: found.map((t) => t.name) });
      add(found);
    }
    return { tools, trace };
  }
}

export class ToolPoolRetriever extends PoolRetrieval<PoolTool> {
  readonly base: Surface;

  constructor(o: ToolPoolRetrieverOptions) {
    super(o);
    this.base = o.base;
  }

  /** The documentation surface of the next step: the retrieved tools, then the base's control actions. */
  async docsFor(question: string, steps: readonly PoolStep[]): Promise<Surface> {
    const { tools } = await this.retrieveFor(question, steps);
    return {
      ...this.base,
      id: `${this.base.id}+pool`,
      title: `${this.base.title} (tools retrieved from a pool of ${this.size})`,
      retrieved: { pool: this.size },
      tools: [...tools.map((t) => t.doc), ...this.base.tools.filter((t) => CONTROL_TOOLS.includes(t.kernel))],
    };
  }
}
