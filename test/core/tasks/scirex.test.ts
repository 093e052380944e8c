import { describe, expect, it } from 'vitest';
import { Rng } from '../../../core/util/random.ts';
import { normalizeAnswer } from '../../../core/world/answer-match.ts';
import { generateScirex, scirexCanonical, scirexTokenize } from '../../../core/world/corpora/scirex.ts';
import { SCIREX_TASKS } from '../../../core/world/corpora/vocab/scirex-terms.ts';
import { runReferencePlan } from '../../../core/world/tasks/reference-plan.ts';
import {
  canonicalFromProse,
  readDatasetList,
  readResultsHeader,
  readStatements,
  SCIREX_TEMPLATES,
  sameName,
  sentences,
} from '../../../core/world/tasks/templates/scirex.ts';
import { type Gold, renderQuestion, type Slots, type TaskTemplate } from '../../../core/world/tasks/types.ts';
import type { ScirexResult, World } from '../../../core/world/types.ts';

function template(label: string): TaskTemplate {
  const t = SCIREX_TEMPLATES.find((x) => x.label === label);
  if (!t) throw new Error(`no template ${label}`);
  return t;
}

function patternRegex(pattern: string): RegExp {
  const parts = pattern.split(/\{\w+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('(.+?)')}$`);
}

const worlds = new Map<string, World>();
function scirexWorld(seed: string, scale = 1): World {
  const key = `${seed}/${scale}`;
  let w = worlds.get(key);
  if (!w) {
    w = {
      config: { seed, scale },
      tables: {},
      scirex: generateScirex(new Rng(seed).fork('scirex'), scale),
    } as unknown as World;
    worlds.set(key, w);
  }
  return w;
}

/** A world holding only result tuples (for gold rules). */
function tupleWorld(
  results: Omit<ScirexResult, 'paperId'>[],
  paperOf: (r: Omit<ScirexResult, 'paperId'>) => string,
) {
  return {
    config: { seed: 'tiny', scale: 1 },
    tables: {},
    scirex: { passages: [], results: results.map((r) => ({ ...r, paperId: paperOf(r) })) },
  } as unknown as World;
}

function distinctDraws(
  world: World,
  t: TaskTemplate,
  n: number,
  seed = 'draws',
): { slots: Slots; gold: Gold }[] {
  const rng = new Rng(`${seed}/${t.id}`);
  const seen = new Map<string, { slots: Slots; gold: Gold }>();
  for (let i = 0; i < n * 25 + 100 && seen.size < n; i++) {
    const s = t.sample({ rng, world });
    if (s) {
      const q = renderQuestion(t.question, s.slots);
      if (!seen.has(q)) seen.set(q, s);
    }
  }
  return [...seen.values()];
}

describe('SciREX passage reading', () => {
  it('splits sentences at lone full stops, not after abbreviations or inside numbers', () => {
    expect(sentences('On Atari 2600 Ms . Pacman , X scores 12.5 . We report more .')).toEqual([
      'On Atari 2600 Ms . Pacman , X scores 12.5',
      'We report more',
    ]);
  });

  it('reads every results sentence shape', () => {
    const passage = [
      'subsection : Results on CIFAR - 10 Table [ reference ] summarises our Image Classification results on CIFAR - 10 .',
      'On CIFAR - 10 , ResNet - 50 achieves a Percentage error of 3.57 .',
      'ResNet - 50 obtains 82.0 % Top 1 Accuracy on CIFAR - 10 , compared with the previous best result [ reference ] .',
      'As shown in Table [ reference ] , ResNet - 50 reaches Top 5 Accuracy 95.1 on the CIFAR - 10 dataset .',
      'We report a Params score of 22M on CIFAR - 10 for ResNet - 50 .',
      'In terms of Score , DQN ( ensemble ) scores -21 on Atari 2600 Ms . Pacman .',
      'The improvement is consistent across random seeds .',
    ].join(' ');
    expect(readStatements(passage)).toEqual([
      { material: 'CIFAR - 10', method: 'ResNet - 50', metric: 'Percentage error', score: '3.57' },
      { method: 'ResNet - 50', score: '82.0 %', metric: 'Top 1 Accuracy', material: 'CIFAR - 10' },
      { method: 'ResNet - 50', metric: 'Top 5 Accuracy', score: '95.1', material: 'CIFAR - 10' },
      { metric: 'Params', score: '22M', material: 'CIFAR - 10', method: 'ResNet - 50' },
      { metric: 'Score', method: 'DQN ( ensemble )', score: '-21', material: 'Atari 2600 Ms . Pacman' },
    ]);
    expect(readResultsHeader(passage)).toEqual({ task: 'Image Classification', material: 'CIFAR - 10' });
  });

  it('reads the abstract’s dataset list', () => {
    expect(
      readDatasetList(
        'section : Abstract We present X . Experiments on Market - 1501 , CUHK03 and DukeMTMC show that X - Large achieves a MAP of 78.3 on Market - 1501 .',
      ),
    ).toEqual({ method: 'X - Large', materials: ['Market - 1501', 'CUHK03', 'DukeMTMC'] });
    expect(
      readDatasetList('Experiments on MNIST show that Y achieves a Accuracy of 99.1 on MNIST .'),
    ).toEqual({
      method: 'Y',
      materials: ['MNIST'],
    });
  });

  it('compares canonical and prose names word by word and turns prose back into canonical names', () => {
    expect(sameName('Penn Treebank ( Word Level )', 'Penn_Treebank__Word_Level_')).toBe(true);
    expect(sameName('Penn Treebank', 'Penn_Treebank__Word_Level_')).toBe(false);
    const names = new Set<string>();
    for (const t of SCIREX_TASKS) {
      names.add(t.name);
      for (const m of t.materials) names.add(m);
      for (const m of t.metrics) names.add(m.name);
    }
    const inexact: string[] = [];
    for (const n of names) {
      const back = canonicalFromProse(scirexTokenize(n));
      if (back !== scirexCanonical(n)) inexact.push(n);
      // The answer matcher ignores punctuation, so the answer matches even where the spacing was ambiguous.
      expect(normalizeAnswer(back), n).toBe(normalizeAnswer(scirexCanonical(n)));
    }
    expect(inexact).toEqual(['TAR @ FAR=0.01']);
  });

  it('every result tuple of a generated corpus is read back from its paper with its exact score', () => {
    const { scirex } = scirexWorld('alpha');
    const read = scirex.passages.flatMap((p) => readStatements(p.text));
    for (const r of scirex.results) {
      const found = read.find(
        (s) =>
          sameName(s.method, r.method) && sameName(s.metric, r.metric) && sameName(s.material, r.material),
      );
      expect(found, JSON.stringify(r)).toBeDefined();
      expect(Number.parseFloat(found?.score as string)).toBe(Number.parseFloat(String(r.score)));
    }
  });
});

describe('SciREX gold rules', () => {
  const T = 'Image_Classification';
  const tiny = tupleWorld(
    [
      { material: 'CIFAR-10', method: 'NetA', metric: 'Accuracy', task: T, score: '90.1' },
      { material: 'CIFAR-10', method: 'NetA', metric: 'Params', task: T, score: '22M' },
      { material: 'SVHN', method: 'NetA', metric: 'Accuracy', task: T, score: '92.3' },
      { material: 'MNIST', method: 'NetA', metric: 'Accuracy', task: T, score: '85.0' },
      { material: 'CIFAR-10', method: 'NetB', metric: 'Accuracy', task: T, score: '91.5' },
      { material: 'CIFAR-10', method: 'NetB', metric: 'Params', task: T, score: 0.438 },
      { material: 'SVHN', method: 'NetC', metric: 'Accuracy', task: T, score: '82.0%' },
    ],
    (r) => r.method,
  );

  it('E1: the score as reported, numbers as typed gold', () => {
    const golds = distinctDraws(tiny, template('E1'), 7).map((d) => d.gold);
    expect(golds).toContainEqual('22M');
    expect(golds).toContainEqual({ type: 'float', value: 0.438 });
  });

  it('H1/H2: the best of an all-numeric group; groups with a non-numeric score are not asked', () => {
    const h1 = distinctDraws(tiny, template('H1'), 5);
    expect(h1).toEqual([{ slots: { Method: 'NetA', Metric: 'Accuracy', Task: T }, gold: 'SVHN' }]);
    const h2 = distinctDraws(tiny, template('H2'), 5);
    // SVHN mixes 92.3 with "82.0%": only CIFAR-10 can be asked.
    expect(h2).toEqual([{ slots: { Metric: 'Accuracy', Material: 'CIFAR-10', Task: T }, gold: 'NetB' }]);
  });

  it('H3/H4: distinct metrics and every dataset, in the paper’s order', () => {
    const h3 = distinctDraws(tiny, template('H3'), 10).find(
      (d) => d.slots.Method === 'NetA' && d.slots.Material === 'CIFAR-10',
    );
    expect(h3?.gold).toBe('Accuracy, Params');
    const h4 = distinctDraws(tiny, template('H4'), 10).find((d) => d.slots.Method === 'NetA');
    expect(h4?.gold).toBe('CIFAR-10, SVHN, MNIST');
  });
});

describe('SciREX templates on generated corpora', () => {
  it('are E1 then H1–H4 with distinct patterns', () => {
    expect(SCIREX_TEMPLATES.map((t) => `${t.difficulty}-${t.label}`)).toEqual([
      'easy-E1',
      'hard-H1',
      'hard-H2',
      'hard-H3',
      'hard-H4',
    ]);
    expect(new Set(SCIREX_TEMPLATES.map((t) => t.question)).size).toBe(5);
  });

  it('every template yields 35 distinct questions at scale 1 (test 10 + dev 5 + train 20)', () => {
    for (const t of SCIREX_TEMPLATES)
      expect(distinctDraws(scirexWorld('alpha'), t, 35).length, t.id).toBe(35);
  });

  it('questions match their own pattern and no other template’s', () => {
    const regexes = SCIREX_TEMPLATES.map((t) => patternRegex(t.question));
    SCIREX_TEMPLATES.forEach((t, i) => {
      for (const d of distinctDraws(scirexWorld('alpha'), t, 10)) {
        const q = renderQuestion(t.question, d.slots);
        expect(
          regexes.map((r) => r.test(q)),
          q,
        ).toEqual(regexes.map((_, j) => j === i));
      }
    });
  });

  it('sampling is deterministic', () => {
    for (const t of SCIREX_TEMPLATES) {
      expect(distinctDraws(scirexWorld('alpha'), t, 5)).toEqual(distinctDraws(scirexWorld('alpha'), t, 5));
    }
  });

  it.each(['alpha', 'beta'])(
    'reference plans reach gold (world %s)',
    async (seed) => {
      const world = scirexWorld(seed);
      for (const t of SCIREX_TEMPLATES) {
        for (const d of distinctDraws(world, t, 10, `plans-${seed}`)) {
          const run = await runReferencePlan(world, t, d.slots, d.gold);
          expect(run.correct, `${renderQuestion(t.question, d.slots)} → ${String(run.answer)}`).toBe(true);
        }
      }
    },
    120_000,
  );
});
