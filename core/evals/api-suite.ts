/**
 * An evaluation suite over an imported API's query set (issue 23 §4): `{"api": id, "queryset": id}` instead of
 * ToolQA-D datasets, with methods × surfaces (the API as imported and drifted versions) × documentation (the API as
 * imported — stale on a drifted surface —, the served surface's own, or a DRAFT documentation set). The zod schema
 * checks the shape and the methods (a method without an API run is refused, named); `checkApiSuite` checks it
 * against what the API has — its query sets, its surfaces, the documentation sets — and that every gold operation of
 * the chosen items is served by every chosen surface. Problems carry the JSON pointer of the field, for the route's
 * problem+json answer.
 */
import { z } from 'zod';
import type { QueryItem } from '../apis/querysets.ts';
import type { ApiSurface } from '../apis/surface/model.ts';
import { translateGoldCall } from '../apis/surface/translate.ts';
import { METHOD_IDS, type MethodId, runsOnApi } from '../methods/registry.ts';
import { ModelChoiceSchema } from '../models/choice.ts';

const Id = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'ids are lower-case slugs (letters, digits, `-`)');

/** The documentation an agent is given: the API as imported, the served surface's own, or a DRAFT set. */
export const ApiDocsChoice = z.union([
  z.literal('imported'),
  z.literal('surface'),
  z.strictObject({ docset: Id }),
]);
export type ApiDocsChoice = z.infer<typeof ApiDocsChoice>;

export const ApiSuiteSchema = z.strictObject({
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
        if (seen.has(m)) ctx.addIssue({ code: 'custom', path: [i], message: `method ${m} is listed twice` });
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
  /** Items of the query set: the first N, or all. */
  sampleSize: z.union([z.number().int().min(1).max(1000), z.literal('all')]).default('all'),
  maxSteps: z.number().int().min(1).max(50).default(20),
  model: ModelChoiceSchema.default({}),
  seed: z.string().min(1).max(200).default('0'),
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
