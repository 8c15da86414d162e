/**
 * An organization's merchant corrections (issue 34, docs/transactions.md#corrections, ADR 0053):
 *
 *   POST   /v2/transactions/corrections        file one: {transactionLabel, countryCode?, domain | notMerchant: true}
 *   GET    /v2/transactions/corrections        list them, newest first (?first, ?after, ?includeRemoved)
 *   DELETE /v2/transactions/corrections/{id}   remove one (kept, with who and when, in the audit trail)
 *
 * Authenticated with the organization's API key like the brand routes (401 none or malformed, 403 unknown or
 * revoked); every plan may use them; never billed. The credential is read before the body, so a caller without a key
 * learns nothing of the body's rules. Each calls one operation of transactions/corrections/merchant-corrections.ts,
 * the service GraphQL, the dashboard and `brandbase merchants` call; the actor recorded is the API key's id.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { correctionJson, MAX_PAGE_SIZE, type CorrectionInput } from '../../transactions/corrections/merchant-corrections.js';
import type { AppDeps } from '../app-deps.js';
import { authenticate } from '../credentials.js';
import type { ResponseHeaderName } from '../schemas/response-headers.js';
import { ErrorBody } from '../schemas/route-schemas.js';

const ROUTE = '/v2/transactions/corrections';
const ITEM_ROUTE = `${ROUTE}/:id`;
const credentialRoute = (method: string, template: string) => ({ method, template, missing: 'unauthorized' }) as const;

export const CorrectionBody = Type.Object(
  {
    transactionLabel: Type.String({ minLength: 1, maxLength: 256, description: 'The descriptor as the statement prints it, e.g. `SQ *BLUE BOTTLE COF 4`: filed under its merchant words, so `SQ *BLUE BOTTLE COF 7` is corrected too.' }),
    countryCode: Type.Optional(Type.Union([Type.String({ pattern: '^[A-Za-z]{2}$' }), Type.Null()], { description: 'ISO 3166 alpha-2: the correction applies to transactions of that country only. Absent or null: every country.' })),
    domain: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 253 }), Type.Null()], { description: 'The merchant\'s domain (a subdomain stands for its registrable domain). Send this or `notMerchant`.' })),
    notMerchant: Type.Optional(Type.Boolean({ description: '`true`: the descriptor names no merchant; its transactions answer 400 `Failed to enrich transaction`. Send this or `domain`.' })),
  },
  { additionalProperties: false },
);
type CorrectionBodyType = Static<typeof CorrectionBody>;

const Correction = Type.Object(
  {
    id: Type.String({ description: '`mco_` and 24 characters' }),
    transactionLabel: Type.String({ description: 'the descriptor as it was sent' }),
    key: Type.String({ description: 'the merchant words it is filed under: a transaction whose descriptor reads to the same words is corrected' }),
    countryCode: Type.Union([Type.String(), Type.Null()], { description: 'the country it applies to; null: every country' }),
    domain: Type.Union([Type.String(), Type.Null()], { description: "the merchant's registrable domain; null when `notMerchant`" }),
    notMerchant: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String({ description: 'who filed it: an API key id (`key_…`), a dashboard user id (`usr_…`) or `cli`' }),
    removedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    removedBy: Type.Union([Type.String(), Type.Null()], { description: 'who removed it (the same kinds of id); null while it applies' }),
  },
  { additionalProperties: false },
);

const AddedBody = Type.Object(
  { ...Correction.properties, replacedId: Type.Union([Type.String(), Type.Null()], { description: 'the correction of the same key and country this one replaced (now removed), or null' }) },
  { additionalProperties: false },
);
const ListBody = Type.Object(
  {
    corrections: Type.Array(Correction),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'pass as `after` for the next page; null on the last page' }),
  },
  { additionalProperties: false },
);

const ListQuery = Type.Object({
  first: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: `corrections per page, 1 to ${MAX_PAGE_SIZE} (default ${MAX_PAGE_SIZE})` })),
  after: Type.Optional(Type.String({ maxLength: 200, description: 'the `nextCursor` of the previous page' })),
  includeRemoved: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: '`true`: removed corrections too, with who removed them and when (the audit trail)' })),
});
type ListQueryType = Static<typeof ListQuery>;

const NO_STORE: readonly ResponseHeaderName[] = ['cache-control'];
const HEADERS = { 200: NO_STORE, 201: NO_STORE, 429: ['retry-after'] } as const satisfies Record<number, readonly ResponseHeaderName[]>;
const ERRORS = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };

function invalidBody(request: FastifyRequest): ApiError {
  const detail = request.validationError?.message.replace(/^body\/?/, '') ?? '';
  return new ApiError('invalid_correction', `Invalid correction: send transactionLabel (1 to 256 characters), countryCode (optional) and either domain or notMerchant: true${detail ? ` (${detail})` : ''}.`);
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}

function readQuery(query: ListQueryType): { first: number | undefined; after: string | undefined; includeRemoved: boolean } {
  const raw = query as Record<string, unknown>;
  const first = raw.first;
  if (first !== undefined && (typeof first !== 'string' || !/^\d{1,3}$/.test(first))) throw new ApiError('invalid_page_size');
  const include = raw.includeRemoved;
  if (include !== undefined && include !== 'true' && include !== 'false') throw new ApiError('invalid_correction', 'Invalid correction: includeRemoved must be true or false.');
  const after = raw.after;
  if (after !== undefined && typeof after !== 'string') throw new ApiError('invalid_cursor');
  return { first: first === undefined ? undefined : Number(first), after, includeRemoved: include === 'true' };
}

export function registerMerchantCorrectionRoutes(app: FastifyInstance, deps: AppDeps): void {
  const corrections = deps.corrections;

  app.post(
    ROUTE,
    {
      schema: {
        summary: "File a correction of a descriptor's merchant for your organization",
        tags: ['transactions'],
        body: CorrectionBody,
        response: { 201: AddedBody, ...ERRORS },
        responseHeaders: HEADERS,
      },
      attachValidation: true,
    },
    async (request, reply) => {
      const { key, org } = await authenticate(deps, request, credentialRoute('POST', ROUTE));
      if (request.validationError) throw invalidBody(request);
      const body = request.body as CorrectionBodyType;
      const input: CorrectionInput = { transactionLabel: body.transactionLabel, countryCode: body.countryCode ?? null, domain: body.domain ?? null, notMerchant: body.notMerchant ?? null };
      const { correction, replaced } = await corrections.add(org.id, input, key.id);
      return noStore(reply)
        .code(201)
        .send({ ...correctionJson(correction), replacedId: replaced?.id ?? null });
    },
  );

  app.get(
    ROUTE,
    {
      schema: {
        summary: "Your organization's merchant corrections, newest first",
        tags: ['transactions'],
        querystring: ListQuery,
        response: { 200: ListBody, ...ERRORS },
        responseHeaders: HEADERS,
      },
      // The query is read by readQuery, which answers the registry's codes.
      attachValidation: true,
    },
    async (request, reply) => {
      const { org } = await authenticate(deps, request, credentialRoute('GET', ROUTE));
      const page = await corrections.list(org.id, readQuery(request.query as ListQueryType));
      return noStore(reply).send({ corrections: page.corrections.map(correctionJson), nextCursor: page.endCursor });
    },
  );

  app.delete(
    ITEM_ROUTE,
    {
      schema: {
        summary: 'Remove a merchant correction (kept in the audit trail)',
        tags: ['transactions'],
        params: Type.Object({ id: Type.String({ description: 'the correction id (`mco_…`)' }) }),
        response: { 200: Correction, ...ERRORS },
        responseHeaders: HEADERS,
      },
    },
    async (request, reply) => {
      const { key, org } = await authenticate(deps, request, credentialRoute('DELETE', ITEM_ROUTE));
      const removed = await corrections.remove(org.id, (request.params as { id: string }).id, key.id);
      return noStore(reply).send(correctionJson(removed));
    },
  );
}
