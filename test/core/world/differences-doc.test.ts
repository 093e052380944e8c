import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIFFERENCES_DOC, differenceNote, renderDifferences } from '../../../scripts/differences.ts';

describe('docs/toolqa-d-differences.md', () => {
  it('matches the notes in the source headers (run `npm run docs:differences` after changing one)', () => {
    expect(readFileSync(DIFFERENCES_DOC, 'utf8')).toBe(renderDifferences());
  });

  it('takes a note up to the end of its list', () => {
    const src =
      '/**\n * Intro.\n *\n * Deliberate differences from ToolQA-D:\n * - one\n *   continued\n *\n * - two\n *\n * Unrelated paragraph.\n */\n';
    expect(differenceNote(src)).toBe('Deliberate differences from ToolQA-D:\n- one\n  continued\n\n- two');
    expect(differenceNote('/** nothing to see */')).toBeNull();
  });
});
