/**
 * The evaluation suite fields (body of POST /v1/evals, `suite` of POST /v1/schedules; see
 * .team/evals-contract.md): methods, surfaces, prompt surface, datasets, difficulties, split, sample size, step
 * limit, each method's options and seed. Unchecked groups fall back to the server's defaults by being left out.
 *
 * The methods and their options come from GET /v1/methods (`catalog`, the server's method registry): one checkbox
 * per method, and one block of number fields per *kind* of options — methods whose options are the same (the MCTS
 * variants and ablations share simulations, k, maxDepth and maxModelCalls) share one block rather than repeating
 * its fields per method (issue 24 item 8). A field is named `<first method>.<option>`, carries the methods it
 * applies to in `data-methods`, takes the JSON Schema's bounds and default, and is sent as the suite member of
 * every checked method of its block.
 */
import { checkboxes, checked, DATASETS, DIFFICULTIES, field, h, select } from '../ui.js';

/** The numeric options of a method, from its JSON Schema: [name, {minimum, maximum, default}]. */
function numericOptions(method) {
  return Object.entries(method.options?.properties ?? {}).filter(
    ([, p]) => p.type === 'integer' || p.type === 'number',
  );
}

/** Methods grouped by their numeric options (same names, bounds and defaults): [{ methods, options }]. */
export function optionGroups(catalog) {
  const groups = new Map();
  for (const m of catalog.items) {
    const options = numericOptions(m);
    if (options.length === 0) continue;
    const key = JSON.stringify(options);
    const group = groups.get(key) ?? { methods: [], options };
    group.methods.push(m.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function methodOptionFields(catalog) {
  return optionGroups(catalog).map(({ methods, options }) =>
    h(
      'fieldset',
      { class: 'method-options', 'data-methods': methods.join(' ') },
      h('legend', {}, `Options of ${methods.join(', ')}`),
      h(
        'div',
        { class: 'fields' },
        options.map(([name, p]) =>
          field(
            name,
            h('input', {
              type: 'number',
              name: `${methods[0]}.${name}`,
              'data-methods': methods.join(' '),
              ...(p.minimum !== undefined ? { min: p.minimum } : {}),
              ...(p.maximum !== undefined ? { max: p.maximum } : {}),
              ...(p.type === 'number' ? { step: 'any' } : {}),
              value: p.default ?? '',
            }),
          ),
        ),
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
      field('Seed', h('input', { type: 'text', name: 'seed', value: '0', size: 8 })),
    ),
    ...methodOptionFields(catalog),
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
  for (const { methods, options } of optionGroups(catalog)) {
    const given = options.filter(([name]) => f.get(`${methods[0]}.${name}`) !== '');
    if (given.length === 0) continue;
    const values = Object.fromEntries(given.map(([name]) => [name, Number(f.get(`${methods[0]}.${name}`))]));
    for (const id of methods) if (suite.methods.includes(id)) suite[id] = { ...values };
  }
  const name = f.get('name');
  if (name) suite.name = name;
  return suite;
}
