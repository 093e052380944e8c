/**
 * Drift streams (issue 26): the list, and one stream with its releases and the living-drift chart — success over
 * releases per agent configuration, markers where names were retired, maintenance spend beneath — read from
 * GET /v1/streams/{id}/series (computed from the recorded runs).
 */
import { api, apiAll } from '../api.js';
import { streamChart } from '../charts.js';
import { h, kv, pct, table, when } from '../ui.js';

export function renderList() {
  return async (main, signal) => {
    const list = await apiAll('/v1/streams', { signal });
    main.append(
      h('h2', {}, 'Drift streams'),
      table(
        'Streams',
        [
          { label: 'Stream', cell: (s) => h('a', { href: `#/streams/${s.id}` }, s.name) },
          { label: 'Backend', cell: (s) => s.backend },
          { label: 'Release', cell: (s) => String(s.currentRelease), num: true },
          { label: 'Next due', cell: (s) => (s.nextDueAt ? when(Date.parse(s.nextDueAt)) : '—') },
        ],
        list.items,
        { empty: 'No streams yet (POST /v1/streams, tooldrift stream create).', testid: 'streams' },
      ),
    );
  };
}

export function renderStream(id) {
  return async (main, signal) => {
    const [stream, series] = await Promise.all([
      api(`/v1/streams/${id}`, { signal }),
      api(`/v1/streams/${id}/series`, { signal }),
    ]);
    main.append(
      h('h2', {}, `Stream ${stream.name}`),
      kv([
        ['Backend', stream.backend],
        ['Seed', stream.seed],
        ['Release', `${stream.currentRelease} (in force: ${stream.inForce})`],
      ]),
    );
    const evaluated = series.configurations.some((c) => c.runs.some((r) => r > 0));
    main.append(
      evaluated
        ? streamChart({
            title: `Success over releases (recomputed from the recorded runs) — stream ${stream.name}`,
            series,
            testid: 'stream-series',
          })
        : h(
            'p',
            {},
            'No release evaluated yet: give the stream a plan (PUT /v1/streams/{id}/plan, tooldrift stream plan).',
          ),
      table(
        'Success per configuration and release (recomputed from the recorded runs)',
        [
          { label: 'Configuration', cell: (c) => c.label },
          ...series.releases.map((r, i) => ({
            label: `r${r}`,
            cell: (c) => (c.success[i] === null ? '—' : pct(c.success[i])),
            num: true,
          })),
        ],
        series.configurations,
        { testid: 'stream-series-table' },
      ),
      table(
        'Releases',
        [
          { label: 'Release', cell: (r) => String(r.n), num: true },
          { label: 'Released', cell: (r) => when(Date.parse(r.releasedAt)) },
          {
            label: 'Retired (→ successor)',
            cell: (r) =>
              r.diff?.retired.length
                ? r.diff.retired.map((d) => `${d.name} → ${d.successor ?? '∅'}`).join(', ')
                : '—',
          },
          {
            label: 'Maintenance model calls',
            cell: (r) => String(series.maintenance.find((x) => x.release === r.n)?.modelCalls ?? '—'),
            num: true,
          },
        ],
        stream.releases,
        { testid: 'stream-releases' },
      ),
    );
  };
}
