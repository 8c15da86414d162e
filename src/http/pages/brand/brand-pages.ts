/** The public brand pages (issue 23 item 3): registered by http/app.ts when main/ provides their reads. */
import type { FastifyInstance } from 'fastify';
import type { BrandPageDeps } from './brand-page-deps.js';
import { registerBrandPageRoute } from './brand-page-route.js';
import { COPY_SCRIPT_PATH } from './brand-page-view.js';
import { registerBrandSearchRoute } from './brand-search-route.js';
import { COPY_URL_SCRIPT } from './copy-url-script.js';

export function registerBrandPages(app: FastifyInstance, deps: BrandPageDeps): void {
  registerBrandSearchRoute(app, deps);
  registerBrandPageRoute(app, deps);
  app.get(COPY_SCRIPT_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(COPY_URL_SCRIPT),
  );
}
