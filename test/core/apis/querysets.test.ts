import { describe, expect, it } from 'vitest';
import { draftToolName, parseQuerySet, type QuerySet } from '../../../core/apis/querysets.ts';
import { dataJson, dataText, imported, type ToolAlpacaEntry, tmdbImport } from './data.ts';

type RestBench = { query: string; solution: string[] }[];

const restbench = () => dataJson<RestBench>('restbench-tmdb/restgpt/datasets/tmdb.json');

function parsedSet(result: ReturnType<typeof parseQuerySet>): QuerySet {
  if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)));
  return result.set;
}

describe('RestBench TMDB (100 queries, gold paths of route templates)', () => {
  it('parses all 100 against the TMDB import, handling the data slips', async () => {
    const { catalog } = await tmdbImport();
    const set = parsedSet(parseQuerySet(restbench(), catalog));
    expect(set.format).toBe('restbench');
    expect(set.items).toHaveLength(100);
    expect(set.items.reduce((n, item) => n + item.gold.path.length, 0)).toBe(226);
    expect(set.items[0]).toEqual({
      index: 0,
      query: 'give me the number of movies directed by Sofia Coppola',
      gold: {
        path: [
          { operation: 'GET_search-person', method: 'get', path: '/search/person' },
          {
            operation: 'GET_person-person_id-movie_credits',
            method: 'get',
            path: '/person/{person_id}/movie_credits',
          },
        ],
      },
    });
    // Item 78 repeats GET /search/movie: kept (it counts for the ordered Correct Path Rate).
    expect(set.items[78]!.gold.path.map((g) => g.operation)).toEqual([
      'GET_search-movie',
      'GET_search-movie',
    ]);
    // Item 98's /person/{movie_id}/movie_credits is the document's /person/{person_id}/movie_credits.
    expect(set.items[98]!.gold.path[1]).toEqual({
      operation: 'GET_person-person_id-movie_credits',
      method: 'get',
      path: '/person/{person_id}/movie_credits',
    });
    expect(set.warnings).toEqual([
      {
        pointer: '/26/solution/0',
        message: 'whitespace around the gold call "GET /movie/now_playing" trimmed',
      },
      { pointer: '/28/solution/0', message: 'whitespace around the gold call "GET /movie/popular" trimmed' },
      { pointer: '/29/solution/0', message: 'whitespace around the gold call "GET /search/movie" trimmed' },
      { pointer: '/32/solution/0', message: 'whitespace around the gold call "GET /search/movie" trimmed' },
      {
        pointer: '/98/solution/1',
        operation: 'GET_person-person_id-movie_credits',
        message:
          'gold call "GET /person/{movie_id}/movie_credits" names a parameter differently from the document: read as GET /person/{person_id}/movie_credits',
      },
    ]);
  });

  it('refuses an unknown gold path, naming the line (item index + 1) and the JSON pointer', async () => {
    const { catalog } = await tmdbImport();
    const data = restbench();
    data[5]!.solution[1] = 'GET /movie/{movie_id}/trailers';
    data[41]!.solution[0] = 'search for the movie';
    const result = parseQuerySet(data, catalog);
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          pointer: '/5/solution/1',
          line: 6,
          reason:
            'unknown gold path "GET /movie/{movie_id}/trailers": no operation of the API has this method and path',
        },
        {
          pointer: '/41/solution/0',
          line: 42,
          reason: '"search for the movie" is not a gold call ("METHOD /path", e.g. "GET /search/person")',
        },
      ],
    });
  });

  it('refuses items without a query or a solution list, and what is not a query set', async () => {
    const { catalog } = await tmdbImport();
    expect(
      parseQuerySet(
        [
          { query: 'a', solution: ['GET /movie/popular'] },
          { solution: [] },
          { query: 'c', solution: 'GET /movie/popular' },
        ],
        catalog,
      ),
    ).toEqual({
      ok: false,
      problems: [
        { pointer: '/1/query', line: 2, reason: 'the item has no query' },
        {
          pointer: '/2/solution',
          line: 3,
          reason: 'the gold "solution" must be a list of calls such as "GET /search/person"',
        },
      ],
    });
    const notASet = parseQuerySet({ hello: 'world' }, catalog);
    expect(notASet.ok ? null : notASet.problems[0]).toMatchObject({ pointer: '', line: 0 });
    expect(parseQuerySet([], catalog, { format: 'restbench' })).toEqual({
      ok: false,
      problems: [{ pointer: '', line: 0, reason: 'the query set has no items' }],
    });
  });
});

describe("DRAFT's TMDB test file (relevant APIs as DRAFT tool names)", () => {
  it('names DRAFT tools by method and path', () => {
    expect(draftToolName('get', '/person/{person_id}/movie_credits')).toBe(
      'GET_person_person_id_movie_credits',
    );
  });

  it('parses the 100 queries to the same gold paths as RestBench (item 98 corrected there)', async () => {
    const { catalog } = await tmdbImport();
    const draft = parsedSet(parseQuerySet(dataJson('restbench-tmdb/draft/test_data/TMDB.json'), catalog));
    const rest = parsedSet(parseQuerySet(restbench(), catalog));
    expect(draft.format).toBe('draft');
    expect(draft.warnings).toEqual([]);
    expect(draft.items.map((i) => i.gold.path)).toEqual(rest.items.map((i) => i.gold.path));
    // Each item keeps its 5 candidate APIs (RestBench's candidate setting) as operation names, the gold among them.
    expect(draft.items[98]!.meta).toEqual({
      queryId: 'q98',
      candidates: expect.arrayContaining(draft.items[98]!.gold.path.map((g) => g.operation)),
    });
    expect((draft.items[98]!.meta!.candidates as string[]).length).toBe(5);
  });

  it('refuses an unknown relevant API with its line', async () => {
    const { catalog } = await tmdbImport();
    const data = dataJson<{ 'relevant APIs': string[] }[]>('restbench-tmdb/draft/test_data/TMDB.json');
    data[3]!['relevant APIs'][0] = 'GET_movie_movie_id_trailers';
    const result = parseQuerySet(data, catalog);
    expect(result.ok ? null : result.problems).toEqual([
      {
        pointer: '/3/relevant APIs/0',
        line: 4,
        reason: 'unknown relevant API "GET_movie_movie_id_trailers": no operation of the API has this name',
      },
    ]);
  });
});

describe("STE's tool_test.json (call level: gold tool and arguments)", () => {
  it('parses the 750 queries of the 50 APIs against the imported descriptions', async () => {
    const { catalog } = await imported(dataText('ste/tool_metadata/API_descriptions.json'));
    const set = parsedSet(parseQuerySet(dataJson('ste/ft_datasets/tool_test.json'), catalog));
    expect(set.format).toBe('ste');
    expect(set.items).toHaveLength(750);
    expect(set.warnings).toEqual([]); // every gold argument is a documented parameter
    expect(set.items[0]).toEqual({
      index: 0,
      query: 'What is the date 90 days from 2022-10-14?',
      gold: { path: [{ operation: 'add_date', args: { date: '2022-10-14', days: 90 } }] },
      meta: { api: 'add_date', candidates: ['add_date'] },
    });
    const email = set.items.find((i) => i.meta?.api === 'Global Email V4%%Global Email V4')!;
    expect(email.gold.path[0]!.operation).toBe('Global_Email_V4.Global_Email_V4');
    expect(new Set(set.items.map((i) => i.meta?.api)).size).toBe(50);
  });

  it('refuses a gold action that is not a tool of the API', async () => {
    const { catalog } = await imported(dataText('ste/tool_metadata/API_descriptions.json'));
    const data = dataJson<Record<string, { action: string }[]>>('ste/ft_datasets/tool_test.json');
    data.add_date![3]!.action = 'subtract_date';
    const result = parseQuerySet(data, catalog);
    expect(result.ok ? null : result.problems).toEqual([
      {
        pointer: '/add_date/3/action',
        line: 4,
        reason: 'unknown gold tool "subtract_date": no operation of the API has this name',
      },
    ]);
  });
});

describe("ToolAlpaca's eval file (10 APIs, call level)", () => {
  const entries = dataJson<ToolAlpacaEntry[]>('toolalpaca/eval_simulated.json');

  it('picks each API’s own entry by its title: 100 instructions over the 10 documents', async () => {
    let total = 0;
    for (const entry of entries) {
      const { catalog } = await imported(entry.Documentation);
      const set = parsedSet(parseQuerySet(entries, catalog));
      expect(set.format).toBe('toolalpaca');
      expect(set.items.map((i) => i.query)).toEqual(entry.Instructions.map((q) => q.trim()));
      expect(set.items.every((i) => i.meta?.api === entry.Name)).toBe(true);
      total += set.items.length;
    }
    expect(total).toBe(100);
  });

  it('keeps getDetails as a question to the user, marks [Optional] steps, keeps placeholder arguments as text', async () => {
    const abuse = entries.find((e) => e.Name === 'AbuseIPDB')!;
    const set = parsedSet(parseQuerySet(entries, (await imported(abuse.Documentation)).catalog));
    expect(set.items[0]).toEqual({
      index: 0,
      query: abuse.Instructions[0]!.trim(),
      gold: {
        path: [
          {
            operation: 'reportAbusiveIP',
            method: 'post',
            path: '/report',
            argsText: abuse.Golden_Answers[0]![1]!.Action_Input, // {"ip": ${ip from getDetails}, …}
          },
        ],
      },
      meta: { api: 'AbuseIPDB', userQuestions: ['Can you tell me the abusive IP address?'] },
    });
    expect(set.warnings[0]).toEqual({
      pointer: '/2/Golden_Answers/0/1/Action_Input',
      operation: 'reportAbusiveIP',
      message: 'gold arguments are not a JSON object: kept as text',
    });

    const auth0 = entries.find((e) => e.Name === 'Auth0')!; // its document is titled "Auth0 API"
    const auth = parsedSet(parseQuerySet(entries, (await imported(auth0.Documentation)).catalog));
    expect(auth.items[11]!.gold.path).toEqual([
      {
        operation: 'getUserProfile',
        method: 'get',
        path: '/getUserProfile',
        args: { userId: 'g-user123', accessToken: 'abcd1234' },
      },
      {
        operation: 'updateUserProfile',
        method: 'put',
        path: '/updateUserProfile',
        args: {
          userId: 'g-user123',
          accessToken: 'abcd1234',
          profileData: { profilePicture: 'https://example.com/new_image.jpg' },
        },
        optional: true,
      },
    ]);
  });

  it('takes an entry by name or index, and says so when none describes the API', async () => {
    const { catalog } = await imported(entries[0]!.Documentation);
    expect(parsedSet(parseQuerySet(entries, catalog, { entry: 'Axolotl' })).items).toHaveLength(10);
    const other = parseQuerySet(entries, catalog, { entry: 1 }); // AniAPI's gold names AniAPI's tools
    expect(other.ok ? null : other.problems[0]).toEqual({
      pointer: '/1/Golden_Answers/0/0/Action',
      line: 1,
      reason: 'unknown gold tool "searchAnime": no operation of the API has this name',
    });
    const { catalog: tmdb } = await tmdbImport();
    const none = parseQuerySet(entries, tmdb);
    expect(none.ok ? null : none.problems[0]?.reason).toMatch(
      /^no entry of the ToolAlpaca file describes the API "API" \(the file has Axolotl, AniAPI, /,
    );
    const missing = parseQuerySet(entries, catalog, { entry: 'Nope' });
    expect(missing.ok ? null : missing.problems[0]?.reason).toMatch(/^no entry is named "Nope"/);
  });
});

describe('generic call lists', () => {
  it('reads [{query, calls: [{tool, args}], answer}] and the one-call form', async () => {
    const { catalog } = await tmdbImport();
    const set = parsedSet(
      parseQuerySet(
        [
          {
            query: 'Popular movies?',
            calls: [{ tool: 'GET_movie-popular', args: { page: 1 } }],
            answer: 'Barbie',
          },
          { query: 'Who is 1769?', tool: 'GET_person-person_id', args: { person_id: 1769, language: 'en' } },
        ],
        catalog,
      ),
    );
    expect(set.format).toBe('calls');
    expect(set.items[0]!.gold).toEqual({
      path: [{ operation: 'GET_movie-popular', method: 'get', path: '/movie/popular', args: { page: 1 } }],
      answer: 'Barbie',
    });
    expect(set.items[1]!.gold.path[0]!.args).toEqual({ person_id: 1769, language: 'en' });
    expect(set.warnings).toEqual([
      {
        pointer: '/1/args',
        operation: 'GET_person-person_id',
        message: 'gold arguments "language" are not parameters of GET_person-person_id',
      },
    ]);
    const bad = parseQuerySet([{ query: 'x', calls: [{ tool: 'nope' }] }], catalog, { format: 'calls' });
    expect(bad.ok ? null : bad.problems).toEqual([
      {
        pointer: '/0/calls/0/tool',
        line: 1,
        reason: 'unknown gold tool "nope": no operation of the API has this name',
      },
    ]);
  });
});
