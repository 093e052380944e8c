import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { worldSizes } from '../../../core/world/catalog.ts';
import { loadWorld } from '../../../core/world/world.ts';

// Issue 13 item 13: the README's corpus figures are checked against the default world (seed `tooldrift`, scale 1,
// as `npm start` serves it), so they cannot drift from the generator.
const readme = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');
const sizes = worldSizes(loadWorld({ seed: 'tooldrift', scale: 1 }));

/** [dataset row, noun after the figure, the world's figure]. */
const FIGURES: [string, string, number | undefined][] = [
  ['flights', 'US domestic flights', sizes.flights.rows],
  ['coffee', 'trading days', sizes.coffee.rows],
  ['airbnb', 'NYC listings', sizes.airbnb.rows],
  ['yelp', 'businesses', sizes.yelp.rows],
  ['agenda', 'events', sizes.agenda.rows],
  ['scirex', 'paper passages', sizes.scirex.passages],
  ['scirex', 'results', sizes.scirex.results],
  ['dblp', 'papers', sizes.dblp.papers],
  ['dblp', 'authors', sizes.dblp.authors],
];

describe('README corpus figures (issue 13 item 13)', () => {
  it.each(FIGURES)('%s: the figure before "%s" matches the world', (dataset, noun, actual) => {
    const row = readme.split('\n').find((line) => line.startsWith(`| ${dataset} |`));
    expect(row, `README row for ${dataset}`).toBeDefined();
    const m = new RegExp(`(≈ )?([\\d,]+) ${noun}`).exec(row as string);
    expect(m, `"<figure> ${noun}" in the ${dataset} row`).not.toBeNull();
    const written = Number((m?.[2] ?? '').replaceAll(',', ''));
    expect(actual).toBeDefined();
    if (m?.[1]) {
      // "≈ N": within 1 % of the world's figure
      expect(Math.abs(written - (actual as number)) / (actual as number)).toBeLessThanOrEqual(0.01);
    } else {
      expect(written).toBe(actual);
    }
  });
});
