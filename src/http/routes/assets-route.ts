import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { AppDeps } from '../app-deps.js';
import { ErrorBody } from '../schemas/route-schemas.js';

/** What asset files are: the asset store keeps PNG, JPEG, WebP and sanitized SVG. */
const ASSET_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'];

/**
 * Serves stored logo and image files. Keys are content hashes, so a file never changes: it is cached for a
 * year. SVGs are sanitized before they are stored; the CSP and nosniff headers are a second line of defence
 * for a browser that opens one directly.
 */
export function registerAssetRoutes(app: FastifyInstance, deps: AppDeps): void {
  const schema = {
    summary: 'A logo or image file, by the content-hash key a brand record names',
    tags: ['assets'],
    security: [],
    params: Type.Object({ key: Type.String({ description: '`<sha256>.<ext>`' }) }),
    response: { 404: ErrorBody },
    docResponses: { 200: { description: 'the file', contentTypes: ASSET_CONTENT_TYPES } },
    responseHeaders: { 200: ['cache-control', 'x-content-type-options', 'content-security-policy', 'access-control-allow-origin'] as const },
  };
  app.get('/assets/:key', { schema }, async (request, reply) => {
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
