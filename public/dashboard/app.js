/**
 * The dashboard shell: hash routing (#/surfaces, #/explorations/…, #/evals/…, #/schedules/…, #/trajectories/…,
 * #/sessions/…, #/ste/…, #/draft/…, #/toolsets/…, #/apis/…, #/streams/…), the API-key gate, and each view's lifetime: a view gets an
 * AbortSignal that aborts when the route changes, so its polling and event streams stop.
 */
import { getKey, setKey } from './api.js';
import { append, clear, clearErrors, h, showError } from './ui.js';
import * as apis from './views/apis.js';
import * as draft from './views/draft.js';
import * as evals from './views/evals.js';
import * as explorations from './views/explorations.js';
import * as schedules from './views/schedules.js';
import * as sessions from './views/sessions.js';
import * as ste from './views/ste.js';
import * as streams from './views/streams.js';
import * as surfaces from './views/surfaces.js';
import * as toolsets from './views/toolsets.js';
import * as trajectories from './views/trajectories.js';

const ROUTES = [
  [/^\/surfaces(?:\/([^/]+))?$/, 'surfaces', (m) => surfaces.render(m[1])],
  [/^\/explorations$/, 'explorations', () => explorations.renderList()],
  [/^\/explorations\/([^/]+)$/, 'explorations', (m) => explorations.renderExploration(m[1])],
  [/^\/trees\/([^/]+)$/, 'explorations', (m) => explorations.renderTreeView(m[1])],
  [/^\/evals$/, 'evals', () => evals.renderList()],
  [/^\/evals\/([^/]+)$/, 'evals', (m) => evals.renderEval(m[1])],
  [/^\/evals\/([^/]+)\/results\/([^/]+)$/, 'evals', (m) => evals.renderResult(m[1], m[2])],
  [/^\/schedules$/, 'schedules', () => schedules.renderList()],
  [/^\/schedules\/([^/]+)$/, 'schedules', (m) => schedules.renderSchedule(m[1])],
  [/^\/trajectories$/, 'trajectories', (_m, params) => trajectories.renderList(params)],
  [/^\/trajectories\/([^/]+)$/, 'trajectories', (m) => trajectories.renderTrajectory(m[1])],
  [/^\/toolsets$/, 'toolsets', () => toolsets.renderList()],
  [/^\/toolsets\/([^/]+)$/, 'toolsets', (m) => toolsets.renderToolset(m[1])],
  [/^\/toolsets\/([^/]+)\/training\/(\d+)$/, 'toolsets', (m) => toolsets.renderToolset(m[1], m[2])],
  [/^\/sessions$/, 'sessions', () => sessions.renderList()],
  [/^\/sessions\/([^/]+)$/, 'sessions', (m) => sessions.renderSession(m[1])],
  [/^\/ste$/, 'ste', () => ste.renderList()],
  [/^\/ste\/([^/]+)$/, 'ste', (m) => ste.renderRun(m[1])],
  [/^\/draft$/, 'draft', () => draft.renderList()],
  [/^\/draft\/([^/]+)$/, 'draft', (m) => draft.renderRun(m[1])],
  [/^\/streams$/, 'streams', () => streams.renderList()],
  [/^\/streams\/([^/]+)$/, 'streams', (m) => streams.renderStream(m[1])],
  [/^\/apis$/, 'apis', () => apis.renderList()],
  [/^\/apis\/([^/]+)(?:\/([^/]+))?$/, 'apis', (m) => apis.renderApi(m[1], m[2])],
];

let current = null;

function keyForm(message) {
  const input = h('input', {
    id: 'api-key',
    name: 'key',
    type: 'password',
    autocomplete: 'off',
    required: true,
    size: 32,
  });
  return h(
    'form',
    {
      class: 'card',
      'aria-labelledby': 'key-heading',
      onsubmit: (e) => {
        e.preventDefault();
        setKey(input.value.trim());
        clearErrors();
        route();
      },
    },
    h('h2', { id: 'key-heading' }, 'API key'),
    h('p', {}, message),
    h(
      'div',
      { class: 'fields' },
      h('label', { for: 'api-key' }, 'API key'),
      input,
      h('button', { type: 'submit' }, 'Save key'),
    ),
    h(
      'p',
      { class: 'muted' },
      'The key stays in this browser (localStorage) and is sent only in the Authorization header.',
    ),
  );
}

function renderKeyStatus() {
  const el = clear(document.getElementById('key-status'));
  if (!getKey()) return;
  el.append(
    'Key saved · ',
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: () => {
          setKey(null);
          route();
        },
      },
      'Forget key',
    ),
  );
}

async function route() {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  clearErrors();
  renderKeyStatus();
  const main = clear(document.getElementById('view'));
  const [path, search] = (location.hash.replace(/^#/, '') || '/surfaces').split('?');
  if (!getKey()) {
    append(main, keyForm('Enter an API key (from API_KEYS) to use the dashboard.'));
    return;
  }
  const found = ROUTES.map(([re, nav, fn]) => [re.exec(path), nav, fn]).find(([m]) => m);
  for (const a of document.querySelectorAll('nav a')) {
    if (found && a.dataset.view === found[1]) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (!found) {
    append(main, h('h2', {}, 'Not found'), h('p', {}, `No view at ${path}.`));
    return;
  }
  const [m, , fn] = found;
  // aria-busy stays true while the view loads or follows live progress (polling, event streams).
  main.setAttribute('aria-busy', 'true');
  try {
    const args = m.map((s) => (s === undefined ? s : decodeURIComponent(s)));
    const view = fn(args, new URLSearchParams(search ?? ''));
    await view(main, controller.signal);
  } catch (err) {
    if (!controller.signal.aborted) showError(err);
  } finally {
    if (current === controller) main.setAttribute('aria-busy', 'false');
  }
}

document.addEventListener('tooldrift:unauthorized', () => {
  const main = document.getElementById('view');
  if (!main.querySelector('#api-key')) {
    main.prepend(keyForm('The API rejected the saved key: enter a valid one.'));
  }
});

window.addEventListener('hashchange', route);
route();
