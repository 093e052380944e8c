/**
 * What `importApi` takes and answers (the contract other modules code against: `core/apis/import/index.ts`
 * re-exports these).
 */
import type { ApiCatalog } from '../types.ts';

export interface ImportInput {
  /** The document as sent: OpenAPI 3.0 / 3.1 or Swagger 2.0 (JSON or YAML), or a function catalog (JSON). */
  text: string;
  /** Helps tell JSON from YAML (`.yaml`, `.yml`, `.json`). */
  filename?: string;
  /** Helps tell JSON from YAML (`application/yaml`, `application/json`). */
  contentType?: string;
  /** Overrides the title the document gives (`info.title`, a ToolBench tool name, …). */
  title?: string;
}

/** Where and why an import failed: a JSON pointer into the input document (`''` = the whole text) and a reason. */
export interface ImportProblem {
  pointer: string;
  reason: string;
}

export type ImportResult =
  | {
      ok: true;
      catalog: ApiCatalog;
      /**
       * The OpenAPI 3.1 form of an OpenAPI / Swagger import (validated, `$ref`s kept) — what
       * `GET /v1/apis/{id}/openapi.json` serves; `null` for function catalogs.
       */
      document: Record<string, unknown> | null;
    }
  | { ok: false; problems: ImportProblem[] };

/** Documents larger than this are refused before parsing (issue 22: "documents up to 10 MB import"). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
