import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { AppDeps } from '../app-deps.js';
import { DocsSite } from '../docs/docs-site.js';
import { DOCS_DIR } from '../docs-dir.js';

/** The path of the public URL (`https://x.example/brandbase` → `/brandbase`), so page links work behind a prefix. */
export function basePathOf(publicUrl: string): string {
  return new URL(publicUrl).pathname.replace(/\/+$/, '');
}

function sendPage(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'public, max-age=300')
    .header('x-content-type-options', 'nosniff')
    // The pages carry no script and load nothing but their screenshots (docs/screenshots): inline style only.
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'")
    .send(html);
}

/**
 * The documentation the service links to from its answers (error bodies, the access offer, the OpenAPI info):
 * docs/*.md rendered to HTML (docs/docs-site.ts), rendered on the first request and kept. Not in the OpenAPI
 * document: these are pages for people, not API operations. The interactive API reference is at /docs/api.
 */
export function registerDocsRoutes(app: FastifyInstance, deps: AppDeps, dir: string = DOCS_DIR): void {
  let site: Promise<DocsSite> | null = null;
  const loaded = (): Promise<DocsSite> => {
    site ??= DocsSite.load(dir, basePathOf(deps.publicUrl)).catch((error: unknown) => {
      site = null; // a failed read is tried again by the next request
      throw error;
    });
    return site;
  };
  const page = async (name: string, reply: FastifyReply): Promise<FastifyReply> => {
    const found = (await loaded()).page(name);
    if (!found) throw new ApiError('route_not_found');
    return sendPage(reply, found.html);
  };
  const options = { schema: { hide: true }, exposeHeadRoute: true };
  app.get('/docs', options, async (_request, reply) => sendPage(reply, (await loaded()).index));
  app.get('/docs/adr', options, async (_request, reply) => sendPage(reply, (await loaded()).adrIndex));
  app.get('/docs/:page', options, async (request, reply) => page((request.params as { page: string }).page, reply));
  app.get('/docs/adr/:page', options, async (request, reply) => page(`adr/${(request.params as { page: string }).page}`, reply));
  // The screenshots docs/dashboard.md shows (made by the browser tests): PNG files by plain name only.
  app.get('/docs/screenshots/:file', options, async (request, reply) => {
    const { file } = request.params as { file: string };
    if (!/^[a-z0-9][a-z0-9-]*\.png$/.test(file)) throw new ApiError('route_not_found');
    const bytes = await readFile(path.join(dir, 'screenshots', file)).catch(() => null);
    if (bytes === null) throw new ApiError('route_not_found');
    return reply.type('image/png').header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff').send(bytes);
  });
}
