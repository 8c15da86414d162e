import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { AppDeps } from '../app-deps.js';

/**
 * Serves stored logo and image files. Keys are content hashes, so a file never changes: it is cached for a
 * year. SVGs are sanitized before they are stored; the CSP and nosniff headers are a second line of defence
 * for a browser that opens one directly.
 */
export function registerAssetRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/assets/:key', async (request, reply) => {
    const asset = await deps.assets.get((request.params as { key: string }).key);
    if (!asset) throw new ApiError('asset_not_found');
    return reply
      .header('content-type', asset.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .header('access-control-allow-origin', '*')
      .send(asset.bytes);
  });
}
