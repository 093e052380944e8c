/**
 * An evaluation suite over an imported API's query set (issue 23 §4): `{"api": id, "queryset": id}` instead of
 * ToolQA-D datasets, with methods × surfaces (the API as imported and drifted versions) × documentation × aids.
 *
 * - `docs` (`ApiDocsChoice`): `imported` — the API's own documentation as imported (stale on a drifted surface);
 *   `surface` — the served surface's own; `{docset: id}` — a DRAFT documentation set of the API
 *   (core/aids/api-docs.ts `docsetApiDocs`: its current tools under the names the served surface answers);
 *   `{description: id}` — an uploaded description file of the API (DRAFT's `TMDB_Initial.json` /
 *   `TMDB_DRAFT.json` format, `POST /v1/apis/{id}/descriptions`): its descriptions over the imported docs.
 * - `aids` (`ApiAidsChoice`, one row of results each; default `[{}]`: no aid): `{toolPool: {pool, k, ranker}}` —
 *   the prompt documents only the `k` operations retrieved per step (core/aids/api-pool.ts) from RestBench's two
 *   settings: `candidates` — the item's candidate APIs (DRAFT's test file: 5 per query, always holding the gold
 *   ones; the query set's `meta.candidates`), `all` — every operation of the API.
 * - Method options: one member per method with options, named by its id, as in ToolQA-D suites (e.g.
 *   `mcts: {simulations, k, maxDepth}`; `greedy: {prompt, fewShots, driftHint}`), read with `suiteMethodOptions`.
 *
 * The zod schema checks the shape, the methods (a method without an API run is refused, named) and that every
 * method uses the aids asked for; `checkApiSuite` checks it against what the API has — its query sets, its
 * surfaces, the documentation sets and description files, candidate lists for the `candidates` pool — and that
 * every gold operation of the chosen items is served by every chosen surface. Problems carry the JSON pointer of
 * the field, for the route's problem+json answer.
 */
import { z } from 'zod';
import { TOOL_POOL_RANKERS } from '../aids/slots.ts';
import type { QueryItem } from '../apis/querysets.ts';
import type { ApiSurface } from '../apis/surface/model.ts';
import { translateGoldCall } from '../apis/surface/translate.ts';
import {
  getMethod,
  isMethodId,
  METHOD_IDS,
  type MethodId,
  methodOptionFields,
  runsOnApi,
} from '../methods/registry.ts';
import { ModelChoiceSchema } from '../models/choice.ts';

const Id = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'ids are lower-case slugs (letters, digits, `-`)');

/**
 * The documentation an agent is given: the API as imported, the served surface's own, a DRAFT set, or an uploaded
 * description file (see the module header).
 */
export const ApiDocsChoice = z.union([
  z.literal('imported'),
  z.literal('surface'),
  z.strictObject({ docset: Id }),
  z.strictObject({ description: Id }),
]);
export type ApiDocsChoice = z.infer<typeof ApiDocsChoice>;

/** RestBench's two retrieval settings: the item's candidate APIs, or every operation of the API. */
export const API_TOOL_POOLS = ['candidates', 'all'] as const;
export type ApiToolPoolKind = (typeof API_TOOL_POOLS)[number];

/** The toolPool aid on an API: the prompt documents only the `k` operations retrieved per step from `pool`. */
export const ApiToolPoolSchema = z.strictObject({
  pool: z.enum(API_TOOL_POOLS),
  /** Operations retrieved per step (RestBench's candidate lists hold 5). */
  k: z.number().int().min(1).max(50).default(5),
  /** The untrained ranker over the pool's documentation (the docs choice's text of each operation). */
  ranker: z.enum(TOOL_POOL_RANKERS).default('bm25'),
});
export type ApiToolPoolOptions = z.output<typeof ApiToolPoolSchema>;

/** One aid configuration of a suite (a results row each); `{}` is none. */
export const ApiAidsChoice = z.strictObject({ toolPool: ApiToolPoolSchema.optional() });
export type ApiAidsChoice = z.output<typeof ApiAidsChoice>;

export const ApiSuiteSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    api: Id,
    queryset: Id,
    methods: z
      .array(z.enum(METHOD_IDS))
      .min(1)
      .max(METHOD_IDS.length)
      .default(['greedy'])
      .superRefine((methods, ctx) => {
        const seen = new Set<string>();
        methods.forEach((m, i) => {
          if (seen.has(m))
            ctx.addIssue({ code: 'custom', path: [i], message: `method ${m} is listed twice` });
          seen.add(m);
          if (!runsOnApi(m as MethodId)) {
            const able = METHOD_IDS.filter((id) => runsOnApi(id)).join(', ');
            ctx.addIssue({
              code: 'custom',
              path: [i],
              message: `method ${m} does not run on imported APIs (it runs on the ToolQA-D kernel only); these do: ${able}`,
            });
          }
        });
      }),
    /** Surfaces of the API (its id is the API as imported); default: the API as imported. */
    surfaces: z.array(Id).min(1).max(20).optional(),
    docs: z.array(ApiDocsChoice).min(1).max(10).default(['imported']),
    /** Aid configurations (each one a results row; `{}`: none). */
    aids: z.array(ApiAidsChoice).min(1).max(4).default([{}]),
    /** Items of the query set: the first N, or all. */
    sampleSize: z.union([z.number().int().min(1).max(1000), z.literal('all')]).default('all'),
    maxSteps: z.number().int().min(1).max(50).default(20),
    model: ModelChoiceSchema.default({}),
    seed: z.string().min(1).max(200).default('0'),
    // One member per method with options (the methods' own schemas; read them with suiteMethodOptions).
    ...(methodOptionFields() as Record<never, never>),
  })
  .superRefine((s, ctx) => {
    s.aids.forEach((a, i) => {
      if (!a.toolPool) return;
      for (const id of s.methods) {
        if (!isMethodId(id) || !runsOnApi(id)) continue;
        if (!getMethod(id).aids.includes('toolPool'))
          ctx.addIssue({
            code: 'custom',
            path: ['aids', i, 'toolPool'],
            message: `method ${id} does not use the toolPool aid`,
          });
      }
    });
  });
export type ApiSuite = z.infer<typeof ApiSuiteSchema>;

export interface ApiSuiteProblem {
  /** JSON pointer of the field in the request body. */
  pointer: string;
  detail: string;
}

export interface ApiSuiteContext {
  /** The API's query sets by id. */
  querysets: ReadonlyMap<string, { items: readonly QueryItem[] }>;
  /** The surfaces the key can use by id (the API's own and others; others are refused). */
  surfaces: ReadonlyMap<string, ApiSurface>;
  /** The documentation sets the key can use by id, with the API they document. */
  docsets: ReadonlyMap<string, { api: string | undefined }>;
  /** The API's uploaded description files by id (absent: none can be named). */
  descriptions?: ReadonlyMap<string, { api: string }>;
}

/** The items a suite runs. */
export function suiteItems(suite: ApiSuite, items: readonly QueryItem[]): readonly QueryItem[] {
  return suite.sampleSize === 'all' ? items : items.slice(0, suite.sampleSize);
}

/** What a valid suite must agree with (see the module header); empty when it can run. */
export function checkApiSuite(suite: ApiSuite, ctx: ApiSuiteContext): ApiSuiteProblem[] {
  const problems: ApiSuiteProblem[] = [];
  const set = ctx.querysets.get(suite.queryset);
  if (!set) {
    const known = [...ctx.querysets.keys()];
    problems.push({
      pointer: '/queryset',
      detail: `API ${suite.api} has no query set ${suite.queryset}${known.length > 0 ? ` (it has ${known.join(', ')})` : ' (it has none)'}`,
    });
  }
  const surfaces: [number, ApiSurface][] = [];
  (suite.surfaces ?? [suite.api]).forEach((id, i) => {
    const s = ctx.surfaces.get(id);
    if (!s) problems.push({ pointer: `/surfaces/${i}`, detail: `unknown surface ${id}` });
    else if (s.api !== suite.api)
      problems.push({
        pointer: `/surfaces/${i}`,
        detail: `surface ${id} is a version of API ${s.api}, not ${suite.api}`,
      });
    else surfaces.push([i, s]);
  });
  suite.docs.forEach((d, i) => {
    if (typeof d !== 'object') return;
    if ('description' in d) {
      const file = ctx.descriptions?.get(d.description);
      if (!file)
        problems.push({
          pointer: `/docs/${i}/description`,
          detail: `API ${suite.api} has no description file ${d.description}`,
        });
      else if (file.api !== suite.api)
        problems.push({
          pointer: `/docs/${i}/description`,
          detail: `description file ${d.description} describes API ${file.api}, not ${suite.api}`,
        });
      return;
    }
    const docset = ctx.docsets.get(d.docset);
    if (!docset)
      problems.push({ pointer: `/docs/${i}/docset`, detail: `unknown documentation set ${d.docset}` });
    else if (docset.api !== suite.api)
      problems.push({
        pointer: `/docs/${i}/docset`,
        detail: `documentation set ${d.docset} documents ${docset.api ? `API ${docset.api}` : 'kernel tools'}, not API ${suite.api}`,
      });
  });
  if (set) {
    suite.aids.forEach((a, i) => {
      if (a.toolPool?.pool !== 'candidates') return;
      const bare = suiteItems(suite, set.items).find((item) => itemCandidates(item) === null);
      if (bare)
        problems.push({
          pointer: `/aids/${i}/toolPool/pool`,
          detail: `item ${bare.index} (line ${bare.index + 1}) of query set ${suite.queryset} lists no candidate APIs (DRAFT's test files do); use pool "all"`,
        });
    });
    for (const [i, surface] of surfaces) {
      for (const item of suiteItems(suite, set.items)) {
        const missing = item.gold.path.find((g) => translateGoldCall(surface, g) === null);
        if (missing) {
          problems.push({
            pointer: `/surfaces/${i}`,
            detail: `surface ${surface.id} does not serve ${missing.operation}, which the gold path of item ${item.index} (line ${item.index + 1}) of query set ${suite.queryset} calls`,
          });
          break;
        }
      }
    }
  }
  return problems;
}

/** An item's candidate operations (DRAFT's `api_list`, kept as `meta.candidates` by the query-set reader), or null. */
export function itemCandidates(item: QueryItem): string[] | null {
  const c = item.meta?.candidates;
  return Array.isArray(c) && c.length > 0 && c.every((x) => typeof x === 'string') ? (c as string[]) : null;
}
