/**
 * API description and documentation: `/openapi.json` (OpenAPI 3.1 generated from the route schemas), `/docs`
 * (Swagger UI over that same document, its files served from the Worker's assets so it works offline) and
 * `/problems/{slug}` (one page per problem type).
 */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { PROBLEM_TYPES, type ProblemSlug } from '../../core/http/problems.ts';
import pkg from '../../package.json';
import type { AppEnv } from '../app-env.ts';
import { routeModule } from '../http/openapi.ts';

const INFO = {
  title: 'tooldrift API',
  version: pkg.version,
  description:
    'A drifting-API world for LLM agents (ToolQA-D compatible): seeded corpora, tools whose names, parameters and ' +
    'formats change, and agents that learn them. Read-only benchmark endpoints are public; routes that cost money ' +
    'or change state need `Authorization: Bearer <key>`. Errors are RFC 9457 problem+json: their `type`s are listed ' +
    'under [Problem types](#problems) at the end of this page. Every list answers `{items, nextCursor}` (follow ' +
    '`cursor`); JSON bodies and query strings are strict (an unknown field is a 400 naming it).',
};

type OpenApiDoc = ReturnType<OpenAPIHono<AppEnv>['getOpenAPI31Document']>;

export function openApiDocument(app: OpenAPIHono<AppEnv>): OpenApiDoc {
  return app.getOpenAPI31Document({ openapi: '3.1.0', info: INFO, servers: [{ url: '/' }] });
}

const escapeHtml = (s: unknown) =>
  String(s).replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  );

const PAGE_STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1d232a}
h1{margin-bottom:.2rem}code,pre{font:13px ui-monospace,monospace;background:#f4f5f7;border-radius:4px}
pre{padding:.6rem;overflow:auto}code{padding:0 .25rem}.op{border:1px solid #d8dce2;border-radius:6px;margin:1rem 0;padding:.6rem 1rem}
.m{display:inline-block;min-width:4.2rem;font-weight:700;text-transform:uppercase}.get{color:#0b7a32}.post{color:#0a58ca}
.delete{color:#b42318}.put,.patch{color:#9a6700}.lock{font-size:12px;background:#fff4ce;padding:0 .3rem;border-radius:3px}
table{border-collapse:collapse}td,th{border-bottom:1px solid #e3e6ea;padding:.25rem .6rem;text-align:left;vertical-align:top}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head><body>${body}</body></html>`;
}

/** Where the Swagger UI files are served from (copied out of `swagger-ui-dist` by scripts/lib/docs-assets.ts). */
export const DOCS_VENDOR_PATH = '/docs/vendor';

/** Styles of the problem-type catalogue under Swagger UI, in Swagger's own look (its font, width and colours). */
const PROBLEMS_STYLE = `#problems{font:14px/1.5 sans-serif;color:#3b4151;max-width:1460px;margin:0 auto 4rem;padding:0 20px;box-sizing:border-box}
#problems h2{font-size:24px;margin:2rem 0 .5rem}#problems table{border-collapse:collapse;width:100%}
#problems th,#problems td{border-bottom:1px solid #d8dde7;padding:.45rem .6rem;text-align:left;vertical-align:top}
#problems code{font:13px monospace;background:#f4f5f7;border-radius:4px;padding:0 .25rem}`;

/**
 * `/docs`: Swagger UI (swagger-ui-dist, served from the Worker's own assets — no CDN) rendering `/openapi.json`,
 * with request and response schemas resolved and admin-only routes marked, followed by the problem-type catalogue
 * (`/docs#problems`, visible with or without JavaScript). Without JavaScript, the page also lists every route.
 */
export function renderDocsPage(doc: OpenApiDoc): string {
  const routes: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, raw] of Object.entries(item as Record<string, unknown>)) {
      const op = raw as { summary?: string; responses?: unknown; 'x-admin-only'?: boolean };
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      routes.push(
        `<li><code>${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</code> ${escapeHtml(op.summary ?? '')}${op['x-admin-only'] ? ' (admin key)' : ''}</li>`,
      );
    }
  }
  const problems = Object.entries(PROBLEM_TYPES)
    .map(
      ([slug, p]) =>
        `<tr><td><a href="/problems/${slug}"><code>/problems/${slug}</code></a></td><td>${p.status}</td><td>${escapeHtml(p.title)}</td><td>${escapeHtml(p.description)}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(INFO.title)}</title><link rel="stylesheet" href="${DOCS_VENDOR_PATH}/swagger-ui.css"><style>${PROBLEMS_STYLE}</style></head>
<body><div id="swagger-ui"></div>
<noscript><div style="${'font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto'}"><h1>${escapeHtml(INFO.title)}</h1>
<p>The interactive reference needs JavaScript; the machine-readable description is <a href="/openapi.json">/openapi.json</a>.</p>
<h2>Routes</h2><ul>${routes.join('')}</ul></div></noscript>
<section id="problems"><h2>Problem types</h2>
<p>Every error is <code>application/problem+json</code> (RFC 9457) with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code> and <code>requestId</code>; a validation error also names the failing <code>field</code> and lists <code>errors[]</code> (<code>in</code>, <code>field</code>, <code>pointer</code>, <code>message</code>).</p>
<table><thead><tr><th>type</th><th>status</th><th>title</th><th>when</th></tr></thead><tbody>${problems}</tbody></table></section>
<script src="${DOCS_VENDOR_PATH}/swagger-ui-bundle.js"></script><script src="/docs/init.js"></script></body></html>`;
}

export const registerDocsRoutes = routeModule('System', 'public', (routes, app) => {
  routes.get(
    '/',
    'Entry points of the API',
    {
      ok: [
        200,
        'Links to documentation and health',
        z.object({
          name: z.string(),
          version: z.string(),
          docs: z.string(),
          openapi: z.string(),
          health: z.string(),
          dashboard: z.string(),
        }),
      ],
    },
    (c) =>
      c.json(
        {
          name: 'tooldrift',
          version: pkg.version,
          docs: '/docs',
          openapi: '/openapi.json',
          health: '/health',
          dashboard: '/dashboard/',
        },
        200,
      ),
  );
  routes.get(
    '/openapi.json',
    'This API as an OpenAPI 3.1 document',
    { ok: [200, 'OpenAPI document', z.record(z.string(), z.unknown())] },
    () => openApiDocument(app) as unknown as Record<string, unknown>,
  );
  routes.get(
    '/docs',
    'Human-readable API documentation',
    { ok: [200, 'HTML page', z.string(), 'text/html'] },
    (c) => c.html(renderDocsPage(openApiDocument(app)), 200),
  );
  routes.get(
    '/problems/{slug}',
    'Documentation of one problem type',
    {
      params: z.object({ slug: z.string() }),
      ok: [200, 'HTML page', z.string(), 'text/html'],
      problems: [404],
      impliedProblems: false, // any slug is a valid string: an unknown one is a 404, never a 400
    },
    (c, { params: { slug } }) => {
      const p = PROBLEM_TYPES[slug as ProblemSlug];
      if (!p) return c.notFound();
      return c.html(
        page(
          p.title,
          `<h1>${escapeHtml(p.title)}</h1><p>HTTP ${p.status}</p><p>${escapeHtml(p.description)}</p><p><a href="/docs#problems">All problem types</a></p>`,
        ),
        200,
      );
    },
  );
});
