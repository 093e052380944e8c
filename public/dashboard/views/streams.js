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
        ['Stream', 'Backend', 'Release', 'Next due'],
        list.items.map((s) => [
          h('a', { href: `#/streams/${s.id}` }, s.name),
          s.backend,
          String(s.currentRelease),
          s.nextDueAt ? when(Date.parse(s.nextDueAt)) : '—',
        ]),
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
        'Success per configuration and release',
        ['Configuration', ...series.releases.map((r) => `r${r}`)],
        series.configurations.map((c) => [c.label, ...c.success.map((x) => (x === null ? '—' : pct(x)))]),
        { testid: 'stream-series-table' },
      ),
      table(
        'Releases',
        ['Release', 'Released', 'Retired (→ successor)', 'Maintenance calls'],
        stream.releases.map((r) => {
          const m = series.maintenance.find((x) => x.release === r.n);
          return [
            String(r.n),
            when(Date.parse(r.releasedAt)),
            r.diff?.retired.length
              ? r.diff.retired.map((d) => `${d.name} → ${d.successor ?? '∅'}`).join(', ')
              : '—',
            m ? String(m.modelCalls) : '—',
          ];
        }),
        { testid: 'stream-releases' },
      ),
    );
  };
}
