/**
 * The evaluation suite fields (body of POST /v1/evals, `suite` of POST /v1/schedules; see
 * .team/evals-contract.md): methods, surfaces, prompt surface, datasets, difficulties, split, sample size, step
 * limit, each method's options and seed. Unchecked groups fall back to the server's defaults by being left out.
 *
 * The methods and their options come from GET /v1/methods (`catalog`, the server's method registry): one checkbox
 * per method, and one number field per numeric option of a method that has options (named `<method>.<option>`,
 * with the JSON Schema's bounds and default), sent as the suite member named by the method's id.
 */
import { checkboxes, checked, DATASETS, DIFFICULTIES, field, h, select } from '../ui.js';

/** The numeric options of a method, from its JSON Schema: [name, {minimum, maximum, default}]. */
function numericOptions(method) {
  return Object.entries(method.options?.properties ?? {}).filter(
    ([, p]) => p.type === 'integer' || p.type === 'number',
  );
}

function methodOptionFields(catalog) {
  return catalog.items.flatMap((m) =>
    numericOptions(m).map(([name, p]) =>
      field(
        `${m.id} ${name}`,
        h('input', {
          type: 'number',
          name: `${m.id}.${name}`,
          ...(p.minimum !== undefined ? { min: p.minimum } : {}),
          ...(p.maximum !== undefined ? { max: p.maximum } : {}),
          ...(p.type === 'number' ? { step: 'any' } : {}),
          value: p.default ?? '',
        }),
      ),
    ),
  );
}

export function suiteFields(surfaceIds, catalog, defaults = {}) {
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
    h(
      'fieldset',
      {},
      h('legend', {}, 'Methods'),
      checkboxes(
        'methods',
        catalog.items.map((m) => m.id),
        d.methods,
      ),
      h(
        'ul',
        { class: 'hint' },
        catalog.items.map((m) => h('li', {}, h('code', {}, m.id), ` — ${m.summary}`)),
      ),
    ),
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
      ...methodOptionFields(catalog),
      field('Seed', h('input', { type: 'text', name: 'seed', value: '0', size: 8 })),
    ),
  );
}

/** The suite object from the form's suite fields (`catalog` as given to suiteFields). */
export function readSuite(form, catalog) {
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
  for (const m of catalog.items) {
    const options = numericOptions(m).filter(([name]) => f.get(`${m.id}.${name}`) !== '');
    if (!suite.methods.includes(m.id) || options.length === 0) continue;
    suite[m.id] = Object.fromEntries(options.map(([name]) => [name, Number(f.get(`${m.id}.${name}`))]));
  }
  const name = f.get('name');
  if (name) suite.name = name;
  return suite;
}
