import { ERROR_CODES, type ErrorDefinition } from '../../domain/errors.js';

/** A response header as the OpenAPI generator takes it: the JSON schema of its value, with what it means. */
export interface HeaderDoc {
  description: string;
  type: 'integer' | 'string';
  [keyword: string]: unknown;
}

/**
 * Every response header the service sets itself, described once. Routes name the ones each status may carry
 * (`responseHeaders` in the route schema); `x-bf-error` is added from the error registry wherever a documented
 * status can carry one. test/http/openapi.test.ts checks real answers against the document.
 */
export const RESPONSE_HEADERS = {
  'x-api-key-quota': {
    description: "The organization's credit quota for the billing period (spec 4.3, 5.1). Sent when an API key pays; not for the operator's own domain, which is free.",
    type: 'integer',
    minimum: 0,
  },
  'x-api-key-approximate-usage': {
    description: 'Credits used this period including this request. Counted asynchronously, so it trails slightly; GET /v2/viewer is exact.',
    type: 'integer',
    minimum: 0,
  },
  'cache-control': { description: 'Asset files are named by their content hash and never change: cached for a year. A 402 payment challenge and merchant corrections: `no-store`; an MPP-paid answer: `private`.', type: 'string' },
  'payment-required': {
    description: 'x402 v2 payment challenge (see the payments page): base64 JSON `PaymentRequired` (scheme `exact`, network, asset, payTo, amount in base units); on a refused payment its `error` says why.',
    type: 'string',
  },
  'www-authenticate': {
    description: 'MPP payment challenges (`Payment id=…, realm=…, method="evm", intent="charge", request=…`; standing access also `method="stripe"` for a card, comma-separated in one header), sent next to PAYMENT-REQUIRED; pay one with `Authorization: Payment <credential>`.',
    type: 'string',
  },
  'payment-receipt': {
    description: 'MPP receipt of a paid answer (base64url JSON `{method, reference, status, timestamp}`); also on a retry of the same credential within two minutes, which is not charged again.',
    type: 'string',
  },
  'payment-response': {
    description: 'x402 v2 settlement receipt of a paid answer: base64 JSON `{success, transaction, network, payer}`; on a failed settlement, the failure.',
    type: 'string',
  },
  'content-security-policy': { description: 'No script, no external load: a second line of defence for a file opened in a browser.', type: 'string' },
  'x-content-type-options': { description: '`nosniff`: the declared content type is the only one.', type: 'string', enum: ['nosniff'] },
  'access-control-allow-origin': { description: 'Any origin may load asset files.', type: 'string', enum: ['*'] },
  'retry-after': { description: 'Seconds to wait before retrying a 503 (or a 429 that says so).', type: 'string' },
  // Transaction enrichment (docs/transactions.md): so integrators can audit each match.
  'x-bf-match-confidence': {
    description: 'How sure the merchant match is, from 0 to 1 with two decimals (answers below the threshold are 400 `Failed to enrich transaction`).',
    type: 'string',
    pattern: '^(0(\\.\\d{1,2})?|1(\\.0{1,2})?)$',
  },
  'x-bf-matched-alias': {
    description: 'What the descriptor matched: the alias pattern, the indexed brand or company name, the seller prefix, the written domain, or the merchant words a correction is filed under (non-ASCII characters percent-encoded).',
    type: 'string',
  },
  'x-bf-match-source': {
    description:
      'Where the match came from: `correction` (your organization\'s correction, POST /v2/transactions/corrections), `operator` (an alias the operator added), `alias` (curated table), `brand` (a held brand), `listing` or `crypto` (reference data), `processor` (a seller-of-record prefix), `domain` (written in the descriptor).',
    type: 'string',
    enum: ['correction', 'operator', 'alias', 'brand', 'listing', 'crypto', 'processor', 'domain'],
  },
  'x-bf-payment-processor': {
    description:
      'The payment processor or marketplace that carried the payment for the merchant answered (`paypal`, `square`, `google`, `shopify`, ...: the lower-case id of its descriptor prefix). Absent when the merchant was paid directly, when the prefix is the seller of record (Instacart, DoorDash, Eventbrite: `x-bf-match-source: processor`), and when the answer is the processor itself.',
    type: 'string',
    pattern: '^[a-z0-9]+$',
  },
} as const satisfies Record<string, HeaderDoc>;

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;

/** The usage headers of billable answers (spec 5.1): on every answer the use case completed. */
export const USAGE_HEADERS: readonly ResponseHeaderName[] = ['x-api-key-quota', 'x-api-key-approximate-usage'];

/** An answer documented without a JSON schema: no body at all (a string: its meaning), or a file. */
export type DocResponse = string | { description: string; contentTypes: readonly string[] };

declare module 'fastify' {
  interface FastifySchema {
    /** OpenAPI only, never compiled: the response headers each status may carry besides `x-bf-error`. */
    responseHeaders?: Readonly<Record<number, readonly ResponseHeaderName[]>>;
    /** OpenAPI only, never compiled: answers without a JSON body (HEAD answers, files), over `response`. */
    docResponses?: Readonly<Record<number, DocResponse>>;
  }
}

/** The `x-bf-error` values the registry sends with `status`, or none. */
export function errorHeaderValues(status: number): string[] {
  const values = Object.values(ERROR_CODES as Record<string, ErrorDefinition>)
    .filter((def) => def.status === status && def.header !== undefined)
    .map((def) => def.header as string);
  return [...new Set(values)].sort();
}

/** The header objects of one documented response: the route's own, plus `x-bf-error` where the registry has one. */
export function headersFor(status: number, names: readonly ResponseHeaderName[] = []): Record<string, HeaderDoc> | undefined {
  const headers: Record<string, HeaderDoc> = {};
  for (const name of names) headers[name] = RESPONSE_HEADERS[name];
  const codes = errorHeaderValues(status);
  if (codes.length > 0) {
    headers['x-bf-error'] = { description: `The error code of this answer: ${codes.join(', ')} (see the error codes page).`, type: 'string', enum: codes };
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
}
