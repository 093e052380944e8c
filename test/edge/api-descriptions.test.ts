/**
 * Description files of an imported API (issue 23 §1, the documentation aid's uploaded descriptions): DRAFT's
 * `TMDB_DRAFT.json` is read against TMDB's 54 operations and stored; listed newest first by cursor, read back with
 * its descriptions by operation, deleted (also with its API). Bad input is a 400 problem naming the field: an
 * unknown body member, a malformed file (the JSON pointer of its first problem under `/file`), a file that documents
 * no operation of the API; another key's API is a 404.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import draftText from '../../data/apis/restbench-tmdb/draft/tool_instruction/TMDB_DRAFT.json?raw';
import initialText from '../../data/apis/restbench-tmdb/draft/tool_instruction/TMDB_Initial.json?raw';
import { importTmdb, json, post, send } from './api-helpers.ts';
import { expectProblem } from './helpers.ts';

interface DescriptionView {
  id: string;
  api: string;
  name: string;
  tools: number;
  matched: number;
  unmatched?: string[];
  createdAt: string;
  descriptions?: Record<string, string>;
}

let tmdb: string;

beforeAll(async () => {
  tmdb = await importTmdb('descriptions');
});

describe('description files of an API', () => {
  it("stores DRAFT's TMDB files read against the operations, lists them newest first, reads and deletes one", async () => {
    const initial = await json<DescriptionView>(
      await post(`/v1/apis/${tmdb}/descriptions`, { name: 'initial', file: JSON.parse(initialText) }),
      201,
    );
    const draft = await json<DescriptionView>(
      await post(`/v1/apis/${tmdb}/descriptions`, { file: JSON.parse(draftText) }),
      201,
    );
    expect(initial).toMatchObject({ api: tmdb, name: 'initial', tools: 54, matched: 54, unmatched: [] });
    expect(draft.name).toMatch(/^descriptions \d{4}-\d{2}-\d{2}$/);
    expect(draft.id).toMatch(/^[a-z0-9-]+$/);

    const page1 = await json<{ items: DescriptionView[]; nextCursor: string | null }>(
      await send(`/v1/apis/${tmdb}/descriptions?limit=1`),
    );
    expect(page1.items.map((d) => d.id)).toEqual([draft.id]);
    expect(page1.nextCursor).not.toBeNull();
    const page2 = await json<{ items: DescriptionView[]; nextCursor: string | null }>(
      await send(`/v1/apis/${tmdb}/descriptions?limit=1&cursor=${encodeURIComponent(page1.nextCursor!)}`),
    );
    expect(page2.items.map((d) => d.id)).toEqual([initial.id]);
    expect(page2.items[0]).toMatchObject({ tools: 54, matched: 54, name: 'initial' });

    const full = await json<DescriptionView>(await send(`/v1/apis/${tmdb}/descriptions/${draft.id}`));
    const file = JSON.parse(draftText) as Record<string, { tool_name: string; description: string }>;
    const keywords = Object.values(file).find((t) => t.tool_name === 'GET_movie_movie_id_keywords')!;
    expect(full.descriptions!['GET_movie-movie_id-keywords']).toBe(keywords.description.trim());
    expect(Object.keys(full.descriptions!)).toHaveLength(54);

    expect((await send(`/v1/apis/${tmdb}/descriptions/${initial.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    await expectProblem(await send(`/v1/apis/${tmdb}/descriptions/${initial.id}`), 404, 'not-found');
    await expectProblem(
      await send(`/v1/apis/${tmdb}/descriptions/${initial.id}`, { method: 'DELETE' }),
      404,
      'not-found',
    );
  });

  it('refuses bad input with a problem naming the field', async () => {
    const typo = await expectProblem(
      await post(`/v1/apis/${tmdb}/descriptions`, { file: JSON.parse(initialText), nmae: 'x' }),
      400,
      'validation-error',
    );
    expect(JSON.stringify(typo)).toContain('nmae');

    const file = JSON.parse(initialText) as Record<string, Record<string, unknown>>;
    (file['3'] as Record<string, unknown>).description = 42;
    const malformed = await expectProblem(
      await post(`/v1/apis/${tmdb}/descriptions`, { file }),
      400,
      'validation-error',
    );
    expect((malformed.errors as { pointer: string; field: string }[])[0]).toMatchObject({
      field: 'file',
      pointer: '/file/3/description',
    });

    const foreign = await expectProblem(
      await post(`/v1/apis/${tmdb}/descriptions`, {
        file: { '0': { ID: 0, tool_name: 'GET_pets', description: 'List pets.', url: 'https://x/pets' } },
      }),
      400,
      'validation-error',
    );
    expect(foreign.detail).toContain('No tool of the file documents an operation');
    expect((foreign.errors as { pointer: string }[])[0]!.pointer).toBe('/file');

    await expectProblem(await post(`/v1/apis/${tmdb}/descriptions`, { file: [] }), 400, 'validation-error');
    await expectProblem(await post(`/v1/apis/${tmdb}/descriptions`, {}), 400, 'validation-error');
  });

  it("keeps another key's API and its files out of reach, and goes with its API", async () => {
    const other = await post(`/v1/apis/${tmdb}/descriptions`, { file: JSON.parse(initialText) }, 'fuzz-1');
    expect(other.status).toBe(404);
    const id = await importTmdb('descriptions-doomed');
    const d = await json<DescriptionView>(
      await post(`/v1/apis/${id}/descriptions`, { file: JSON.parse(initialText) }),
      201,
    );
    expect((await send(`/v1/apis/${id}/descriptions/${d.id}`, { key: 'fuzz-1' })).status).toBe(404);
    expect((await send(`/v1/apis/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await send(`/v1/apis/${id}/descriptions/${d.id}`)).status).toBe(404);
  });
});
