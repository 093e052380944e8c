/**
 * `deprecate-operation` — some operations get a successor while their old tool stays served, deprecated: the
 * old name and route keep working (with `Deprecation` / `Sunset` / `Link` headers over HTTP and a notice over
 * ReAct and MCP) until the window's sunset, then answer 410 with a message naming the successor's call and route.
 * The successor is the operation's drafted tool; when no other kind changed its name or route, it gets a
 * version suffix (`getAnimeDetails` → `getAnimeDetailsV2`) and a version prefix on its route
 * (`/anime/{animeId}` → `/v2/anime/{animeId}`). The window (`deprecatedAt`, `sunsetAt`) is the generator's
 * `window` option; without one the old tool is deprecated with no sunset. The old tool keeps its own name, route
 * and parameters; the answers' shape (`reshape-response`) is the surface's, the same for both.
 */
import { choose, defineApiDriftKind } from '../kind.ts';
import { draftRoutes, freeName, routeKey, styleOf } from '../names.ts';
import { prefixedPath } from './version-prefix.ts';

export const deprecateOperation = defineApiDriftKind({
  id: 'deprecate-operation',
  summary: 'operations deprecated in favour of a successor (the old tool served until its sunset, then 410)',
  order: 100,
  apply(work) {
    const rng = work.root.fork('deprecate-operation');
    const taken = new Set(
      [...work.base.tools.map((t) => t.name), ...work.tools.map((d) => d.name)].map((n) => n.toLowerCase()),
    );
    const routes = draftRoutes(work);
    for (const t of work.base.tools)
      if (t.method !== undefined && t.path !== undefined) routes.set(routeKey(t.method, t.path), t.operation);
    for (const d of choose(
      work.tools.filter((t) => t.base.lifecycle.status === 'active'),
      0.4,
      rng,
    )) {
      if (d.name === d.base.name) {
        const style = styleOf(d.name);
        const old = d.name;
        d.name = freeName(
          taken,
          (n) => {
            const suffix = style === 'snake' ? `_v${n + 2}` : style === 'kebab' ? `-v${n + 2}` : `V${n + 2}`;
            return `${old.slice(0, 64 - suffix.length)}${suffix}`;
          },
          old,
        );
      }
      if (
        d.method !== undefined &&
        d.path !== undefined &&
        routeKey(d.method, d.path) === routeKey(d.base.method as string, d.base.path as string)
      ) {
        let path = d.path;
        for (let n = 2; n < 50 && routes.has(routeKey(d.method, path)); n++)
          path = prefixedPath(d.path, `/v${n}`);
        d.path = path;
        routes.set(routeKey(d.method, path), d.op.name);
      }
      d.keepOld = true;
    }
  },
});
