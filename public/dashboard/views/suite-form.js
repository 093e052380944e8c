/**
 * The evaluation suite fields (body of POST /v1/evals, `suite` of POST /v1/schedules; see
 * .team/evals-contract.md): methods, surfaces, prompt surface, datasets, difficulties, split, sample size, step
 * limit, MCTS settings and seed. Unchecked groups fall back to the server's defaults by being left out.
 */
import { checkboxes, checked, DATASETS, DIFFICULTIES, field, h, select } from '../ui.js';

// mcts-oracle is an upper bound (the answer is picked with the gold verdicts); the last three are Table 5 ablations.
export const METHODS = [
  'greedy',
  'greedy-memory',
  'mcts',
  'mcts-oracle',
  'mcts-no-reflection',
  'mcts-no-tool-update',
  'mcts-no-cached-rollout',
];

export function suiteFields(surfaceIds, defaults = {}) {
  const d = {
    methods: ['greedy'],
    surfaces: ['pc', 's-in', 's-ood'].filter((s) => surfaceIds.includes(s)),
    datasets: DATASETS,
    difficulties: DIFFICULTIES,
    sampleSize: 5,
    ...defaults,
  };
  return h(
    'div',
    {},
    h('fieldset', {}, h('legend', {}, 'Methods'), checkboxes('methods', METHODS, d.methods)),
    h('fieldset', {}, h('legend', {}, 'Surfaces'), checkboxes('surfaces', surfaceIds, d.surfaces)),
    h('fieldset', {}, h('legend', {}, 'Datasets'), checkboxes('datasets', DATASETS, d.datasets)),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Difficulties'),
      checkboxes('difficulties', DIFFICULTIES, d.difficulties),
    ),
    h(
      'div',
      { class: 'fields' },
      field('Prompt surface (docs)', select('promptSurface', surfaceIds, 'pc')),
      field('Split', select('split', ['test', 'dev', 'train'], 'test')),
      field(
        'Sample size (tasks per dataset × difficulty)',
        h('input', { type: 'number', name: 'sampleSize', min: 1, max: 100, value: d.sampleSize }),
      ),
      field('Max steps', h('input', { type: 'number', name: 'maxSteps', min: 1, max: 50, value: 20 })),
      field(
        'MCTS simulations',
        h('input', { type: 'number', name: 'mctsSimulations', min: 1, max: 50, value: 8 }),
      ),
      field('Seed', h('input', { type: 'text', name: 'seed', value: '0', size: 8 })),
    ),
  );
}

/** The suite object from the form's suite fields. */
export function readSuite(form) {
  const f = new FormData(form);
  const suite = {
    methods: checked(form, 'methods'),
    surfaces: checked(form, 'surfaces'),
    datasets: checked(form, 'datasets'),
    difficulties: checked(form, 'difficulties'),
    promptSurface: f.get('promptSurface'),
    split: f.get('split'),
    sampleSize: Number(f.get('sampleSize')),
    maxSteps: Number(f.get('maxSteps')),
    seed: f.get('seed') || '0',
  };
  if (suite.methods.includes('mcts')) suite.mcts = { simulations: Number(f.get('mctsSimulations')) };
  const name = f.get('name');
  if (name) suite.name = name;
  return suite;
}
