/**
 * Every command of the README works as written (issue 24 item 7): each ```sh block runs against the shared local
 * instance, inline `curl`s run, `npm run X` names a script and `npx tooldrift X` a command, and any other command
 * is listed with the reason it is not run (scripts/lib/readme-commands.ts). By hand: `npm run readme:check`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { runReadme } from '../../scripts/lib/readme-commands.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('README commands', () => {
  it('run as written against the local instance, or say why they are not run', async () => {
    const results = await runReadme({
      root,
      baseUrl: inject('baseUrl'),
      userKey: inject('userKey'),
      adminKey: inject('adminKey'),
    });
    const failed = results
      .filter((r) => r.status === 'failed')
      .map((r) => `README:${r.command.line} ${r.command.text.split('\n')[0]}\n${r.detail}`);
    expect(failed).toEqual([]);
    // Every block that calls the API ran; only the fresh-machine commands, the model servers, the public retrieval
    // data (not in the repository) and the miniature training loop (Python, no instance) are skipped.
    const blocks = results.filter((r) => r.command.text.includes('\n'));
    expect(blocks.filter((r) => r.status === 'skipped').map((r) => r.command.text.split('\n')[0])).toEqual([
      expect.stringMatching(/^npm ci && npm start/),
      expect.stringMatching(/^# vLLM/),
      expect.stringMatching(/^D=\.\.\/shared\/data\/retrieval/),
      expect.stringMatching(/^pip install torch/),
    ]);
    expect(blocks.filter((r) => r.status === 'ran').length).toBeGreaterThanOrEqual(10);
  }, 1_200_000);
});
