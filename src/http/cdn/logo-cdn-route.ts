/**
 * The logo CDN route (issue 20 item 3, docs/logo-cdn.md, ADR 0034): `{path}/{identifier}[/{key}/{value}]...[.ext]`
 * with `?c=CLIENT_ID`. Parses the grammar (400 with the exact reason in `x-bf-error`), hands the client ID and the
 * request to the use case (cdn/logo-cdn-answer.ts: the gate admits it on the product `logo`, as search admits
 * its own, then the CDN answers) and writes the caching headers or the refusal. Registered on its own
 * Fastify instance (build-cdn-app.ts) or on the API's, under a path prefix or for one host name.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CdnAnswer } from '../../cdn/logo-cdn.js';
import { negotiatedFormat, parseLogoCdnPathCached } from '../../cdn/logo-cdn-request.js';
import { ApiError, ERROR_CODES, type ErrorCode } from '../../domain/errors.js';
import { answerLogoRequest } from '../../cdn/logo-cdn-answer.js';
import { docUrl } from '../doc-urls.js';
import type { CdnDeps } from './cdn-deps.js';

/** Refusals depend on the client ID, the caller's address and its Referer: never stored by a shared cache. */
const NO_STORE = 'no-store';
/** A served SVG is a document: no scripts, no navigation, no sniffing (as /assets/ does). */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export function registerLogoCdnRoutes(app: FastifyInstance, deps: CdnDeps, options: { path: string; host: string | null }): void {
  // The Host header carries the port when it is not the scheme's default (`logo.example.com:8080`).
  const constraints = options.host ? { host: new RegExp(`^${options.host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(:\\d+)?$`, 'i') } : undefined;
  // Hidden from /openapi.json: a wildcard with its own grammar, documented in docs/logo-cdn.md instead.
  app.get(`${options.path}/*`, { schema: { hide: true }, ...(constraints ? { constraints } : {}) }, async (request, reply) => serveLogo(deps, request, reply));
}

async function serveLogo(deps: CdnDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const parsed = parseLogoCdnPathCached((request.params as { '*': string })['*']);
  if (!parsed.ok) return refuse(reply, 400, parsed.code, parsed.message);
  // An extension-less URL answers WebP unless the client's Accept rules it out: the answer varies with Accept.
  const negotiated = !parsed.request.explicitFormat;
  // The parsed request is shared by every request of the path (parseLogoCdnPathCached): a copy carries the format.
  const logo = negotiated ? { ...parsed.request, format: negotiatedFormat(request.headers.accept) } : parsed.request;
  const primary = logo.readings.primary;
  request.resolvedDomain = primary.kind === 'domain' ? primary.domain : null;
  const client = {
    clientId: clientIdOf(request.query),
    ip: request.ip,
    referrerHost: referrerHostOf(request),
    // A key never rides on a client-ID product: the gate refuses it (api_key_not_client_id) rather than ignore it.
    apiKeySent: request.headers.authorization !== undefined,
  };
  let result: Awaited<ReturnType<typeof answerLogoRequest>>;
  try {
    result = await answerLogoRequest(deps, client, logo, docUrl(deps.publicUrl, 'logoCdn'), request.id);
  } catch (error) {
    if (error instanceof ApiError) return refuseClient(reply, error);
    throw error;
  }
  if (result.overAllowance) reply.header('x-bf-over-allowance', 'true');
  if (negotiated) reply.header('vary', 'Accept');
  return send(request, reply, result.answer);
}

function send(request: FastifyRequest, reply: FastifyReply, answer: CdnAnswer): FastifyReply {
  reply.header('cache-control', answer.cacheControl).header('access-control-allow-origin', '*');
  if (answer.status === 404) return refuse(reply, 404, answer.code, ERROR_CODES[answer.code].message, answer.cacheControl);
  reply.header('etag', answer.etag).header('x-content-type-options', 'nosniff');
  if (answer.upscaled) reply.header('x-bf-upscaled', 'true');
  if (answer.fallback) reply.header('x-bf-fallback', answer.fallback);
  if (answer.contentType === 'image/svg+xml') reply.header('content-security-policy', SVG_CSP);
  if (matchesEtag(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  return reply.code(200).header('content-type', answer.contentType).send(answer.bytes);
}

/** A refusal: the code in `x-bf-error` and in the body, with the plain message. */
function refuse(reply: FastifyReply, status: number, code: ErrorCode | string, message: string, cacheControl = NO_STORE): FastifyReply {
  return reply.code(status).header('x-bf-error', code).header('cache-control', cacheControl).type('application/json').send({ message, code });
}

/** The gate's refusal; a 403 carries a documentation link (spec 7.2), 429 and 503 a Retry-After. */
function refuseClient(reply: FastifyReply, refusal: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(refusal.headers)) reply.header(name, value);
  const code = String(refusal.body.code ?? refusal.code);
  const body: Record<string, unknown> = { message: refusal.message, code };
  if (refusal.status === 403) body.documentation = refusal.body.documentation;
  return reply.code(refusal.status).header('x-bf-error', code).header('cache-control', NO_STORE).type('application/json').send(body);
}

/** `?c=`: the first value when repeated; anything else is absent. */
function clientIdOf(query: unknown): string | undefined {
  const value = (query as { c?: unknown } | undefined)?.c;
  const first = Array.isArray(value) ? (value[0] as unknown) : value;
  return typeof first === 'string' ? first : undefined;
}

/**
 * Host of the Referer, else of the Origin, lower-cased; undefined when neither was sent (a server-side fetch,
 * allowed: issue 20). A value that is not a URL is passed on as it is, so it matches no allowed host.
 */
function referrerHostOf(request: FastifyRequest): string | undefined {
  const raw = request.headers.referer ?? request.headers.origin;
  // `Origin: null` (sandboxed frames, privacy redirects) names no site: the same as sending none.
  if (raw === undefined || raw === '' || raw === 'null') return undefined;
  return URL.canParse(raw) ? new URL(raw).hostname.toLowerCase() : raw.toLowerCase();
}

/** If-None-Match: `*`, or a list of tags compared weakly (RFC 9110 13.1.2: W/ prefixes ignored). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
