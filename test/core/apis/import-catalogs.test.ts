import { describe, expect, it } from 'vitest';
import { importApi } from '../../../core/apis/import/index.ts';
import { TOOL_NAME_PATTERN, toolBenchName } from '../../../core/apis/import/names.ts';
import type { ApiCatalog, ApiOperation } from '../../../core/apis/types.ts';
import { validateJson } from '../../../core/apis/validate.ts';
import { dataJson, dataText, fixtureText, imported } from './data.ts';

const bySource = (catalog: ApiCatalog, sourceName: string): ApiOperation => {
  const op = catalog.operations.find((o) => o.operationId === sourceName || o.name === sourceName);
  if (!op) throw new Error(`no tool ${sourceName}`);
  return op;
};

const signature = (op: ApiOperation) =>
  op.params.map((p) => `${p.name}:${JSON.stringify(p.schema)}${p.required ? '*' : ''}`);

describe("STE's API_descriptions.json (817 APIs, parameters only)", () => {
  it('imports every API as a catalog tool with a usable unique name, the STE name kept as operationId', async () => {
    const { catalog, document } = await imported(dataText('ste/tool_metadata/API_descriptions.json'));
    expect(document).toBeNull();
    expect(catalog).toMatchObject({ format: 'catalog', source: 'ste' });
    expect(catalog.operations).toHaveLength(817);
    expect(new Set(catalog.operations.map((o) => o.name)).size).toBe(817);
    expect(catalog.operations.every((o) => TOOL_NAME_PATTERN.test(o.name))).toBe(true);
    const source = Object.keys(dataJson<Record<string, string>>('ste/tool_metadata/API_descriptions.json'));
    expect(catalog.operations.map((o) => o.operationId)).toEqual(source);
    // No HTTP shape: the arguments are the JSON body.
    for (const op of catalog.operations) {
      expect(op.method).toBeUndefined();
      expect(op.body?.flattened).toBe(true);
      expect(op.params.every((p) => p.in === 'body')).toBe(true);
    }
    // Every tool gets the "response schema missing" warning (STE describes no responses).
    expect(catalog.warnings.filter((w) => w.message.startsWith('response schema missing'))).toHaveLength(817);
  });

  it('has the 50 benchmark APIs with their parameters (RapidAPI JSON and BMTools text)', async () => {
    const { catalog } = await imported(dataText('ste/tool_metadata/API_descriptions.json'));
    const benchmark = dataJson<string[]>('ste/tool_metadata/API_list.json');
    expect(benchmark).toHaveLength(50);
    for (const name of benchmark)
      expect(
        catalog.operations.some((o) => o.operationId === name),
        name,
      ).toBe(true);

    const email = bySource(catalog, 'Global Email V4%%Global Email V4');
    expect(email.name).toBe('Global_Email_V4.Global_Email_V4');
    expect(email.tags).toEqual(['Global Email V4']);
    expect(signature(email)).toEqual([
      'opt:{"type":"string"}*',
      'email:{"type":"string"}*',
      'format:{"type":"string"}',
    ]);
    expect(email.params[1]!.example).toBe('support@melissa.com');

    expect(
      signature(bySource(catalog, 'Stadia Maps Time Zone API%%TZ Lookup by Location')).slice(0, 2),
    ).toEqual(['lat:{"type":"number"}*', 'lng:{"type":"number"}*']);
    expect(signature(bySource(catalog, 'Places%%Geographic coordinates by placename'))).toEqual([
      'name:{"type":"string"}*',
      'lang:{"type":"string"}*', // ENUM
      'country:{"type":"string"}',
    ]);
    // BMTools text: `{{"location" : string, "days" : integer, }}`.
    const forecast = bySource(catalog, 'forecast_weather');
    expect(signature(forecast)).toEqual(['location:{"type":"string"}*', 'days:{"type":"integer"}*']);
    expect(forecast.description).toBe('Forecast weather in the upcoming days.');
    expect(signature(bySource(catalog, 'getWolframAlphaResults'))).toEqual(['input:{"type":"string"}*']);
    expect(signature(bySource(catalog, 'get_today_date'))).toEqual([]);
  });

  it("accepts the gold arguments of 747 of STE's 750 test queries (the other three break the documented types)", async () => {
    // The test set's gold calls against the imported schemas: what the mock will accept from a model that calls
    // exactly like the gold. The three rejected are slips of the gold itself: `"json": true` where the API
    // documents a string, and two `{}` for PTL's update whose three parameters are required.
    const { catalog } = await imported(dataText('ste/tool_metadata/API_descriptions.json'));
    const tests = dataJson<Record<string, { action: string; action_input: string }[]>>(
      'ste/ft_datasets/tool_test.json',
    );
    const rejected: string[] = [];
    let total = 0;
    for (const [api, items] of Object.entries(tests)) {
      const op = bySource(catalog, api);
      for (const item of items) {
        total++;
        const result = validateJson(op.argumentsSchema, JSON.parse(item.action_input));
        if (!result.valid) rejected.push(`${api} ${result.errors[0]!.pointer} ${result.errors[0]!.keyword}`);
      }
    }
    expect(total).toBe(750);
    expect(rejected.sort()).toEqual([
      'Numbers%%Get math fact /json type',
      'PTL%%update  required',
      'PTL%%update  required',
    ]);
  });

  it('keeps the first of a parameter listed twice, with a warning', async () => {
    const { catalog } = await imported(dataText('ste/tool_metadata/API_descriptions.json'));
    const reqres = bySource(catalog, 'Reqres - dont change!%%User by id');
    expect(reqres.params.filter((p) => p.name === 'array[]')).toHaveLength(1);
    expect(catalog.warnings).toContainEqual({
      pointer: '/Reqres - dont change!%%User by id',
      operation: reqres.name,
      message: 'the parameter "array[]" is listed twice: the first listing is kept',
    });
  });
});

describe('ToolBench tool files', () => {
  it("reads DRAFT's tool_guidelines shape with ToolBench's function names", async () => {
    const { catalog } = await imported(fixtureText('toolbench-initial-excerpt.json'));
    expect(catalog).toMatchObject({ format: 'catalog', source: 'toolbench' });
    expect(catalog.operations.map((o) => [o.name, o.operationId, o.tags?.[0]])).toEqual([
      [
        'generate_placeholder_text_for_placeholder_text_api_for_your_application'.slice(-64),
        'Generate placeholder text',
        'Placeholder text API for your application',
      ],
      ['getresult_for_html5tomp4', 'getResult', 'html5tomp4'],
      ['renderclip_for_html5tomp4', 'renderClip', 'html5tomp4'],
    ]);
    const placeholder = catalog.operations[0]!;
    expect(placeholder.params).toEqual([
      expect.objectContaining({
        name: 'length',
        in: 'body',
        required: true,
        schema: { type: 'string' },
        example: 'medium',
      }),
    ]);
    expect(placeholder.description).toBe('Generates placeholder text based on "length" query param');
  });

  it('reads the api_list shape, with template_response as the response schema', async () => {
    const { catalog } = await imported(fixtureText('toolbench-g2-query-7.json'));
    expect(catalog.operations.map((o) => o.name)).toEqual([
      'transitaire_for_transitaires',
      'transitaires_for_transitaires',
      'il_for_turkey_postal_codes',
    ]);
    const il = catalog.operations[2]!;
    expect(il.params).toEqual([
      expect.objectContaining({ name: 'il', required: true, schema: { type: 'number' }, example: 34 }),
    ]);
    const schema = il.responses[0]!.schema!;
    expect(schema).toMatchObject({
      type: 'object',
      properties: {
        success: { type: 'boolean' },
        postakodu: {
          type: 'array',
          items: { type: 'object', properties: { plaka: { type: 'integer' }, il: { type: 'string' } } },
        },
      },
    });
    expect(JSON.stringify(schema)).not.toContain('_list_length');
    expect(validateJson(schema, { success: true, postakodu: [{ plaka: 34, il: 'İstanbul' }] }).valid).toBe(
      true,
    );
    expect(catalog.warnings).toEqual([]);
  });

  it("names like ToolBench's api_json_to_openai_json: standardised, reserved words prefixed, last 64 characters", () => {
    expect(toolBenchName('Turkey Postal Codes', 'il')).toBe('il_for_turkey_postal_codes');
    expect(toolBenchName('My Tool', 'From')).toBe('is_from_for_my_tool');
    expect(toolBenchName('2Captcha', '1 Step')).toBe('get_1_step_for_get_2captcha');
    const long = toolBenchName('Placeholder text API for your application', 'Generate placeholder text');
    expect(long).toHaveLength(64);
    expect(long.endsWith('_for_placeholder_text_api_for_your_application')).toBe(true);
  });
});

describe('OpenAI-style function lists', () => {
  const TOOLS = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather for a city.',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string', description: 'City name' }, unit: { enum: ['c', 'f'] } },
          required: ['city'],
        },
      },
    },
    {
      name: 'list files',
      description: 'MCP style.',
      inputSchema: { type: 'object', properties: { dir: { type: 'string' } } },
    },
  ];

  it('imports tools with their JSON Schema as the arguments schema', async () => {
    const { catalog } = await imported(JSON.stringify(TOOLS));
    expect(catalog).toMatchObject({ format: 'catalog', source: 'functions' });
    const [weather, files] = catalog.operations;
    expect(weather!.params.map((p) => [p.name, p.required, p.description])).toEqual([
      ['city', true, 'City name'],
      ['unit', false, undefined],
    ]);
    expect(validateJson(weather!.argumentsSchema, { city: 'Oslo', unit: 'c' }).valid).toBe(true);
    expect(validateJson(weather!.argumentsSchema, { unit: 'k' }).valid).toBe(false);
    expect(files).toMatchObject({ name: 'list_files', operationId: 'list files' });
    expect(catalog.warnings.map((w) => [w.operation, w.message.split(':')[0]])).toEqual([
      ['get_weather', 'response schema missing'],
      [
        'list_files',
        '"list files" is not a usable tool name (letters, digits, "_", "." and "-", at most 64)',
      ],
      ['list_files', 'response schema missing'],
    ]);
  });

  it('reads {tools: [...]} too, and names the tool without a name', async () => {
    const ok = await importApi({ text: JSON.stringify({ tools: TOOLS }), title: 'Weather' });
    expect(ok.ok && ok.catalog.title).toBe('Weather');
    const bad = await importApi({
      text: JSON.stringify([TOOLS[0], { type: 'function', function: { parameters: {} } }]),
    });
    expect(bad).toEqual({
      ok: false,
      problems: [{ pointer: '/1/function/name', reason: 'a tool needs a name' }],
    });
    const notObject = await importApi({
      text: JSON.stringify([{ name: 'x', parameters: { type: 'array' } }]),
    });
    expect(notObject.ok ? null : notObject.problems[0]).toEqual({
      pointer: '/0/parameters',
      reason: 'the parameters must be a JSON Schema of an object ("type": "object")',
    });
  });
});
