import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { API_REFERENCE_PATH, docUrl } from './doc-urls.js';
import { documentRoute } from './openapi-route-doc.js';
import { SHARED_SCHEMAS } from './schemas/brand-schema.js';

function description(publicUrl: string): string {
  return [
    'Brand records for domains, website URLs, email addresses, brand IDs, tickers, ISINs and crypto symbols.',
    `Error codes, statuses and messages: [${docUrl(publicUrl, 'errors')}](${docUrl(publicUrl, 'errors')}).`,
    `Credits and what is charged: [${docUrl(publicUrl, 'charges')}](${docUrl(publicUrl, 'charges')}).`,
  ].join(' ');
}

/**
 * The OpenAPI document is generated from the route schemas (one source of truth) and served at /openapi.json,
 * with an interactive page at /docs/api. `documentRoute` names the wildcard parameter and adds what only the
 * document needs (bodiless answers, response headers). test/http/openapi.test.ts validates real responses against it.
 */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, {
    openapi: {
      // 3.1: JSON Schema null types are native (3.0's `nullable` does not combine with `enum`).
      openapi: '3.1.0',
      info: { title: 'Brandbase: Brand Data Service API', version: '1.0.0', description: description(publicUrl) },
      externalDocs: { description: 'Documentation', url: docUrl(publicUrl, 'index') },
      servers: [{ url: publicUrl }],
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' } } },
      security: [{ apiKey: [] }],
    },
    exposeHeadRoutes: true,
    transform: documentRoute,
    // Shared schemas keep their $id as their component name (#/components/schemas/Brand).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: API_REFERENCE_PATH, uiConfig: { deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
