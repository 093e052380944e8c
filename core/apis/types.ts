/**
 * An imported API as tooldrift holds it: its operation catalog. Whatever was imported — an OpenAPI 3.0 / 3.1
 * document (JSON or YAML), a Swagger 2.0 document (converted), or a function catalog (tools with JSON-Schema
 * parameters and no HTTP shape: OpenAI-style function lists, STE's `API_descriptions.json`, ToolBench tool
 * files) — becomes the same plain JSON value: a list of operations, each one tool.
 *
 * Conventions every module under `core/apis/` relies on:
 * - Schemas are JSON Schema draft 2020-12 (what OpenAPI 3.1 uses), fully dereferenced (no `$ref` left; a
 *   recursive schema is cut at its second visit and replaced by `{}` with a warning) and free of OpenAPI 3.0
 *   keywords (`nullable` becomes a type union, `example` becomes `examples`, boolean `exclusiveMinimum` becomes
 *   the numeric form). They validate with `@cfworker/json-schema` (draft `2020-12`), which needs no `eval`.
 * - A call's arguments are ONE flat JSON object (what ReAct `Action Input`, MCP `tools/call` and the REST tool
 *   route send): path, query, header and cookie parameters by name; the properties of a JSON object body beside
 *   them (`body.flattened`), or, when the body is not an object or a property name collides with a parameter,
 *   the whole body under the key `body`. `argumentsSchema` is the JSON Schema of that object.
 * - Operation names are unique within an API and are the tool names of the API's base surface.
 */

/** JSON Schema draft 2020-12 (or a boolean schema). */
export type JsonSchema = { [key: string]: unknown } | boolean;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Where a parameter travels on the wire; `body` marks a property of a flattened JSON object body. */
export type ParamLocation = 'path' | 'query' | 'header' | 'cookie' | 'body';

export interface ApiParam {
  /** The key in the flat arguments object (for `in: 'body'`, the body property's name). */
  name: string;
  in: ParamLocation;
  required: boolean;
  schema: JsonSchema;
  description?: string;
  /** An example value from the document (parameter `example(s)`, or the schema's), when there is one. */
  example?: unknown;
}

export interface ApiBody {
  required: boolean;
  /** The request media type (`application/json` where the document offers it). */
  mediaType: string;
  schema: JsonSchema;
  /**
   * true: an object body whose properties are parameters of `params` (`in: 'body'`); false: the whole body is the
   * argument `body`.
   */
  flattened: boolean;
}

export interface ApiResponse {
  /** As the document writes it: `200`, `404`, `2XX`, `default`. */
  status: string;
  description: string;
  /** The media type the schema and example are for (JSON where the document offers it). */
  mediaType?: string;
  schema?: JsonSchema;
  /** The first example the document gives for this response (media-type `example`, `examples`, or the schema's). */
  example?: unknown;
}

/**
 * A pagination style (detected on a base operation at import, `ApiOperation.pagination`; a surface tool may expose
 * another style, translated onto the base one). `itemsKey` is the response property holding the page's items
 * (`''` when the body is the array itself).
 */
export type Pagination =
  | {
      style: 'page';
      pageParam: string;
      sizeParam?: string;
      pageSize: number;
      itemsKey: string;
      pageKey?: string;
      totalPagesKey?: string;
      totalItemsKey?: string;
    }
  | {
      style: 'offset';
      offsetParam: string;
      limitParam?: string;
      pageSize: number;
      itemsKey: string;
      totalKey?: string;
    }
  | {
      style: 'cursor';
      cursorParam: string;
      sizeParam?: string;
      pageSize: number;
      itemsKey: string;
      nextKey: string;
    };

export interface ApiOperation {
  /** The tool name: the operationId when it has one (made unique), else a readable name from method and path. */
  name: string;
  /**
   * The identifier the source gives the operation: OpenAPI's operationId as written; for a catalog tool, its name
   * in the catalog (STE's `Tool%%API`, a ToolBench API's name — its tool is then `tags[0]`) or the name as
   * written when it had to be made usable. Query sets name gold tools by either.
   */
  operationId?: string;
  /** Absent for catalog tools (no HTTP shape). */
  method?: HttpMethod;
  /** The path template (`/movie/{movie_id}/credits`); absent for catalog tools. */
  path?: string;
  summary?: string;
  /** Summary and description as the document gives them (may be empty). */
  description: string;
  tags?: string[];
  deprecated?: boolean;
  /** Path, query, header and cookie parameters in document order, then flattened body properties. */
  params: ApiParam[];
  body?: ApiBody;
  /** JSON Schema of the flat arguments object (see the module header). */
  argumentsSchema: JsonSchema;
  /** Every response the document declares, in document order. */
  responses: ApiResponse[];
  /** How the operation pages its results, when it does (detected at import from its parameters and 2xx schema). */
  pagination?: Pagination;
}

export type ApiSource = 'openapi-3.0' | 'openapi-3.1' | 'swagger-2.0' | 'functions' | 'ste' | 'toolbench';

export interface ImportWarning {
  /** JSON pointer into the imported document (`/paths/~1movie~1{movie_id}/get/responses`). */
  pointer: string;
  /** The operation concerned, when there is one. */
  operation?: string;
  /** e.g. "response schema missing: the mock answers a generated object". */
  message: string;
}

export interface ApiCatalog {
  format: 'openapi' | 'catalog';
  source: ApiSource;
  title: string;
  version: string;
  description?: string;
  /** Server base URLs the document names (absolute or relative), in document order. */
  servers: string[];
  operations: ApiOperation[];
  warnings: ImportWarning[];
}

/** How an imported API answers (issue 22 §3). */
export type MockMode = 'seeded' | 'examples' | 'proxy';
