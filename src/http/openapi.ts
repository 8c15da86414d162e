import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { SHARED_SCHEMAS } from './schemas/brand-schema.js';

/**
 * The OpenAPI document is generated from the route schemas (one source of truth) and served at /openapi.json,
 * with an interactive page at /docs. test/http/openapi.test.ts validates real responses against it.
 */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, {
    openapi: {
      // 3.1: JSON Schema null types are native (3.0's `nullable` does not combine with `enum`).
      openapi: '3.1.0',
      info: {
        title: 'Brandbase: Brand Data Service API',
        version: '1.0.0',
        description: 'Brand records for domains, website URLs, email addresses, brand IDs, tickers, ISINs and crypto symbols. Errors: see docs/errors.md.',
      },
      servers: [{ url: publicUrl }],
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' } } },
      security: [{ apiKey: [] }],
    },
    exposeHeadRoutes: true,
    // Shared schemas keep their $id as their component name (#/components/schemas/Brand).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
