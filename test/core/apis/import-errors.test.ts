import { describe, expect, it } from 'vitest';
import {
  type ImportProblem,
  importApi,
  MAX_IMPORT_BYTES,
  validateOpenApiDocument,
} from '../../../core/apis/import/index.ts';
import { fixtureText } from './data.ts';

/** The problems of an import that must fail. */
async function problems(text: string, filename?: string): Promise<ImportProblem[]> {
  const result = await importApi({ text, ...(filename ? { filename } : {}) });
  if (result.ok) throw new Error('the import should have failed');
  return result.problems;
}

const doc = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths, ...extra }, null, 2);

const ok = (description = 'ok') => ({ '200': { description } });

describe('a document that cannot be read', () => {
  it('malformed JSON: the line and column of the first syntax error', async () => {
    const [first] = await problems('{\n  "openapi": "3.0.3",\n  "info": {"title": "T",}\n}');
    expect(first).toEqual({
      pointer: '',
      reason: 'invalid JSON at line 3, column 25: a property name (in double quotes) was expected',
    });
    const [unclosed] = await problems('{"openapi": "3.0.3", "paths": {', 'api.json');
    expect(unclosed?.reason).toMatch(/^invalid JSON at line 1, column 32: /);
  });

  it('malformed YAML: line and column', async () => {
    const [first] = await problems(
      'openapi: 3.0.3\ninfo:\n  title: T\n  version: [1, 2\npaths: {}\n',
      'api.yaml',
    );
    expect(first?.pointer).toBe('');
    expect(first?.reason).toMatch(/^invalid YAML at line \d+, column \d+: /);
    const [dup] = await problems('openapi: 3.0.3\nopenapi: 3.1.0\n', 'api.yml');
    expect(dup?.reason).toMatch(/^invalid YAML at line 2, column 1: Map keys must be unique/);
  });

  it('an empty document, a document over 10 MB, and something that is neither OpenAPI nor a catalog', async () => {
    expect(await problems('  \n')).toEqual([{ pointer: '', reason: 'the document is empty' }]);
    const big = `{"x": "${'a'.repeat(MAX_IMPORT_BYTES)}"}`;
    expect((await problems(big))[0]?.reason).toBe(
      `the document is ${MAX_IMPORT_BYTES + 9} bytes; at most ${MAX_IMPORT_BYTES} bytes (10 MB) import`,
    );
    expect((await problems('{"name": "x", "version": 1}'))[0]?.reason).toMatch(/^not an OpenAPI document/);
  });

  it('an OpenAPI version it does not read', async () => {
    expect(
      await problems(JSON.stringify({ openapi: '3.2.0', info: { title: 'T', version: '1' }, paths: {} })),
    ).toEqual([
      {
        pointer: '/openapi',
        reason: 'OpenAPI version "3.2.0" is not supported (3.0.x, 3.1.x and Swagger 2.0 are)',
      },
    ]);
    expect((await problems(JSON.stringify({ swagger: '1.2' })))[0]?.pointer).toBe('/swagger');
  });
});

describe('a document the official OpenAPI schema rejects: the JSON pointer of the value, and its line', () => {
  it('a missing required field', async () => {
    const text = JSON.stringify({ openapi: '3.0.3', info: { version: '1' }, paths: {} }, null, 2);
    expect((await problems(text))[0]).toEqual({
      pointer: '/info',
      reason: 'Value does not have required property "title". (line 3)',
    });
  });

  it('a value of the wrong type deep in an operation', async () => {
    const text = doc({
      '/movies/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: 'none',
        },
      },
    });
    expect((await problems(text))[0]).toEqual({
      pointer: '/paths/~1movies~1{id}/get/responses',
      reason: 'Value type "string" is invalid. Expected "object". (line 20)',
    });
  });

  it('a path parameter that is not required, an unknown status code — also in YAML', async () => {
    const notRequired = doc({
      '/a/{id}': {
        get: { parameters: [{ name: 'id', in: 'path', schema: { type: 'string' } }], responses: ok() },
      },
    });
    expect((await problems(notRequired))[0]?.pointer).toBe('/paths/~1a~1{id}/get/parameters/0');
    const yaml =
      'openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200": {description: x}\n        "2000": {description: x}\n';
    expect((await problems(yaml, 'a.yaml'))[0]).toEqual({
      pointer: '/paths/~1a/get/responses/2000',
      reason: 'Property "2000" is not allowed here. (line 8)',
    });
  });

  it('validates Swagger 2.0 against its own schema', async () => {
    const swagger = JSON.parse(fixtureText('petstore.swagger.json')) as {
      paths: Record<string, Record<string, { parameters: { in: string }[] }>>;
    };
    swagger.paths['/pets']!.get!.parameters[1]!.in = 'querystring';
    expect((await problems(JSON.stringify(swagger)))[0]?.pointer).toBe('/paths/~1pets/get/parameters/1');
  });

  it('is as strict as the official schema when asked (drifted documents), tolerant of unknown fields on import', () => {
    const withExtra = JSON.parse(doc({ '/a': { get: { cache: true, responses: ok() } } }));
    expect(validateOpenApiDocument(withExtra)).toEqual([
      { pointer: '/paths/~1a/get/cache', reason: 'Property "cache" is not allowed here.' },
    ]);
    expect(validateOpenApiDocument(withExtra, { unknownFields: 'allow' })).toEqual([]);
    // Tolerating unknown fields must not make a Reference Object match the object it stands for as well (the
    // schema's `oneOf: [Schema, Reference]` would then fail on every `$ref`).
    const withRefs = JSON.parse(
      doc(
        { '/a': { get: { responses: { '200': { $ref: '#/components/responses/Ok' } } } } },
        {
          components: {
            responses: {
              Ok: {
                description: 'x',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/S' } } },
              },
            },
            schemas: { S: { type: 'string' } },
          },
        },
      ),
    );
    expect(validateOpenApiDocument(withRefs, { unknownFields: 'allow' })).toEqual([]);
  });
});

describe('an operation the catalog cannot use: its pointer', () => {
  it('two parameters with one name (one arguments object cannot hold both)', async () => {
    const text = doc({
      '/movies/{id}': {
        get: {
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
            { name: 'id', in: 'query', schema: { type: 'string' } },
          ],
          responses: ok(),
        },
      },
    });
    expect(await problems(text)).toEqual([
      {
        pointer: '/paths/~1movies~1{id}/get/parameters/1',
        reason:
          'two parameters are named "id" (see /paths/~1movies~1{id}/get/parameters/0): an operation\'s arguments are one object, so each parameter needs its own name',
      },
    ]);
  });

  it('two routes that differ only in parameter names, and a malformed template', async () => {
    const param = (name: string) => ({
      parameters: [{ name, in: 'path', required: true, schema: { type: 'string' } }],
      responses: ok(),
    });
    const twice = doc({ '/a/{x}': { get: param('x') }, '/a/{y}': { get: param('y') } });
    expect((await problems(twice))[0]).toEqual({
      pointer: '/paths/~1a~1{y}',
      reason:
        'the path /a/{y} is the same route as /a/{x} (only parameter names differ), so a request could not tell them apart',
    });
    const unbalanced = doc({ '/a/{x': { get: { responses: ok() } } });
    expect((await problems(unbalanced))[0]).toEqual({
      pointer: '/paths/~1a~1{x',
      reason: 'the path /a/{x has an unbalanced "{" or "}"',
    });
  });

  it('a reference that resolves to nothing, named where it is written', async () => {
    const text = doc({
      '/a': {
        get: {
          responses: {
            '200': {
              description: 'x',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } },
            },
          },
        },
      },
    });
    expect(await problems(text)).toEqual([
      {
        pointer: '/paths/~1a/get/responses/200/content/application~1json/schema/$ref',
        reason: 'the reference "#/components/schemas/Nope" cannot be resolved',
      },
    ]);
  });

  it('is warned, not refused, for what it can still serve', async () => {
    const text = doc({
      '/a/{id}': {
        get: {
          parameters: [{ name: 'other', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'no schema', content: { 'application/json': {} } } },
        },
      },
    });
    const result = await importApi({ text });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const [operation] = result.catalog.operations;
    expect(operation?.params).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    expect(result.catalog.warnings.map((w) => w.message)).toEqual([
      'path parameter "other" does not appear in /a/{id}: ignored',
      'path parameter "id" of /a/{id} is not declared: taken as a required string',
      'response schema missing for 200',
    ]);
  });
});
