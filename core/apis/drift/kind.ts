/**
 * What an API drift kind is: a module declaring its id, a one-line summary, its place in the generator's
 * sequence and the function that applies it to the surface being drafted — the imported-API counterpart of
 * core/surfaces/drift/kind.ts. The kinds are listed in `kinds/index.ts`; adding a kind is one module there and
 * one entry in that list.
 */
import type { Rng } from '../../util/random.ts';
import type { ApiSurface, ApiTool, ExposedParam, Pagination, ResponseShape } from '../surface/model.ts';
import type { ApiCatalog, ApiOperation, HttpMethod } from '../types.ts';

export { choose } from '../../surfaces/drift/kind.ts';

/** One tool of the surface being drafted: the base surface's tool for an operation, as the kinds reshape it. */
export interface ApiToolDraft {
  /** The base surface's tool for the operation (the one `toolForOperation` picks). */
  readonly base: ApiTool;
  readonly op: ApiOperation;
  name: string;
  method?: HttpMethod;
  path?: string;
  params: ExposedParam[];
  pagination?: Pagination;
  /**
   * Set by `deprecate-operation`: the base tool stays served beside this one, deprecated (within the window
   * when one is given) with this tool as its successor, instead of being retired at once.
   */
  keepOld?: boolean;
}

/** The surface being drafted, which the active kinds change in turn. */
export interface ApiDriftWork {
  readonly base: ApiSurface;
  readonly catalog: ApiCatalog;
  /** The active kinds, as a set in canonical order. */
  readonly kinds: readonly string[];
  /**
   * The generator's root stream. A kind draws only from forks labelled with its own id
   * (`root.fork('rename-path')`, `root.fork('rename-params/movie_id')`), so adding a kind never changes what the
   * others chose.
   */
  readonly root: Rng;
  /** One draft per operation, in the base surface's order. */
  readonly tools: ApiToolDraft[];
  response: ResponseShape;
}

export interface ApiDriftKindModule<Id extends string = string> {
  readonly id: Id;
  /** One line, used in a generated surface's description. */
  readonly summary: string;
  /**
   * Place in the generator's sequence, lower first: paging is restyled before anything else touches the paging
   * parameters, parameters move, are retyped, split and merged before their keys are renamed, routes change
   * after that, then tool names, the response shape, and last the deprecations (which compare each draft with
   * its base tool).
   */
  readonly order: number;
  apply(work: ApiDriftWork): void;
}

/** Declares a kind, keeping its id as a literal type. */
export function defineApiDriftKind<const Id extends string>(
  kind: ApiDriftKindModule<Id>,
): ApiDriftKindModule<Id> {
  return kind;
}
