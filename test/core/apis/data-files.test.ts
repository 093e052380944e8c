import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// data/apis/ holds byte-exact copies of public benchmark files (data/apis/README.md): each row of the README's
// table names a file and the first 16 hex digits of its SHA-256, and each source's licence is beside them.

const root = new URL('../../../data/apis/', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const rows = [...readme.matchAll(/^\| `([^`]+)` \|[^\n]*\| `([0-9a-f]{16})` \|$/gm)].map((m) => ({
  file: m[1]!,
  sha: m[2]!,
}));

describe('data/apis (verbatim benchmark copies)', () => {
  it('lists the twelve files tests and scripts read', () => {
    expect(rows.map((r) => r.file)).toEqual([
      'restbench-tmdb/restgpt/specs/tmdb_oas.json',
      'restbench-tmdb/restgpt/datasets/tmdb.json',
      'restbench-tmdb/draft/test_data/TMDB.json',
      'restbench-tmdb/draft/tool_instruction/TMDB_Initial.json',
      'restbench-tmdb/draft/tool_instruction/TMDB_DRAFT.json',
      'ste/tool_metadata/API_descriptions.json',
      'ste/tool_metadata/API_list.json',
      'ste/ft_datasets/tool_test.json',
      'ste/string_match_apis.json',
      'ste/saved_results/llama-7Bf_FT.json',
      'ste/saved_results/toolLLMv2.json',
      'toolalpaca/eval_simulated.json',
    ]);
  });

  it('keeps every file byte for byte as the README records it', () => {
    for (const { file, sha } of rows) {
      const digest = createHash('sha256')
        .update(readFileSync(new URL(file, root)))
        .digest('hex');
      expect(digest.slice(0, 16), file).toBe(sha);
    }
  });

  it('has the licence file of every source it names', () => {
    const licences = [...readme.matchAll(/`(LICENSES\/[^`]+)`/g)].map((m) => m[1]!);
    expect(new Set(licences)).toEqual(
      new Set([
        'LICENSES/RestGPT-MIT.txt',
        'LICENSES/DRAFT-MIT.txt',
        'LICENSES/STE-MIT.txt',
        'LICENSES/ToolAlpaca-Apache-2.0.txt',
      ]),
    );
    for (const licence of licences) expect(existsSync(new URL(licence, root)), licence).toBe(true);
  });
});
