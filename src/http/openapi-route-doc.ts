import { STATUS_CODES } from 'node:http';
import { Type } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import { headersFor, type DocResponse } from './schemas/response-headers.js';

/** What the OpenAPI generator gets for one route: the schema it documents and the path it lists it under. */
export interface RouteDoc {
  schema: FastifySchema;
  url: string;
}

/** The wildcard routes take any identifier, URL included, so their one parameter is named for what it holds. */
const WILDCARD_PARAM = 'identifier';

function documentedParams(schema: FastifySchema, wildcard: boolean): unknown {
  if (!wildcard) return schema.params;
  return Type.Object({
    [WILDCARD_PARAM]: Type.String({
      description: 'domain, website URL, email address, brand ID, ticker, ISIN or crypto symbol; a website URL may be sent percent-encoded or as it is, slashes included',
    }),
  });
}

/** A response the generator understands: `type: 'null'` has no content; `content` is taken as it is. */
function docResponse(response: DocResponse): Record<string, unknown> {
  if (typeof response === 'string') return Type.Null({ description: response });
  const file = { schema: { type: 'string', format: 'binary' } };
  return { description: response.description, content: Object.fromEntries(response.contentTypes.map((type) => [type, file])) };
}

function documentedResponses(schema: FastifySchema): Record<string, unknown> | undefined {
  const responses: Record<string, unknown> = { ...(schema.response as Record<string, unknown> | undefined) };
  for (const [status, response] of Object.entries(schema.docResponses ?? {})) responses[status] = docResponse(response);
  if (Object.keys(responses).length === 0) return undefined;
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const headers = headersFor(Number(status), schema.responseHeaders?.[Number(status)]);
      // Without a description the generator writes the placeholder `Default Response`: the status's name says more.
      const described = { description: STATUS_CODES[Number(status)] ?? status, ...(response as object) };
      return [status, headers ? { ...described, headers } : described];
    }),
  );
}

/**
 * The swagger `transform` hook: documentation only, the routes run with their own schemas. A wildcard route
 * (`/v2/brands/*`) is listed as `/v2/brands/{identifier}`; answers without a JSON body (HEAD, files) come from
 * `docResponses`; every response gets the headers its route declares (`responseHeaders`) and the `x-bf-error`
 * values the error registry sends with its status.
 */
export function documentRoute({ schema, url }: { schema: FastifySchema | undefined; url: string }): RouteDoc {
  if (!schema) return { schema: {}, url };
  const wildcard = url.endsWith('/*');
  const { responseHeaders: _headers, docResponses: _responses, ...rest } = schema;
  const documented: FastifySchema = { ...rest, params: documentedParams(schema, wildcard) };
  const response = documentedResponses(schema);
  if (response) documented.response = response;
  return { schema: documented, url: wildcard ? `${url.slice(0, -1)}:${WILDCARD_PARAM}` : url };
}
