/**
 * The registry of stable error codes. Each code has its HTTP status and the message the spec prescribes
 * (where it prescribes one). docs/errors.md lists every code; test/docs/errors-doc.test.ts keeps the two in step.
 * Clients key on `code` (sent in the `x-bf-error` header where the spec names one) and on the exact messages.
 */

export interface ErrorDefinition {
  status: number;
  /** Default message; a specific error may say more (e.g. which identifier rule failed). */
  message: string;
  /** Value of the `x-bf-error` header, when the spec sends one for this condition. */
  header?: string;
  /** Internal failures the job layer may retry. */
  retryable?: boolean;
}

export const ERROR_CODES = {
  bad_request: { status: 400, message: 'Bad Request' },
  invalid_identifier: { status: 400, message: 'Invalid identifier.' },
  malformed_authorization: { status: 401, message: 'Malformed Authorization header: expected "Bearer <API_KEY>".' },
  missing_credentials: { status: 401, message: 'Missing credentials: send "Authorization: Bearer <API_KEY>".' },
  payment_required: { status: 402, message: 'Payment required: send an API key or pay for this request.' },
  payment_malformed: { status: 400, message: 'Malformed PAYMENT-SIGNATURE header: expected a base64-encoded x402 v2 payment payload.' },
  payment_invalid: { status: 402, message: 'The payment was not accepted; the PAYMENT-REQUIRED header says why. Nothing was charged.' },
  payment_replayed: { status: 402, message: 'This payment was already used. Sign a new payment for this request.' },
  payment_settlement_failed: { status: 402, message: 'The payment could not be settled, so the answer was not sent. Nothing was charged.' },
  // Standing access (spec 5.3, docs/payments.md#standing-access, ADR 0029).
  invalid_access_amount: { status: 400, message: 'usd must be a whole number of US dollars from 1 to 500. Nothing was charged.' },
  credential_already_delivered: { status: 409, message: 'The credentials bought with this payment were already delivered; they are returned only once.', header: 'credential_already_delivered' },
  access_purchase_pending: {
    status: 503,
    message: 'The payment was taken but the purchase could not be answered yet. Retry the exact same request (same payment) within three minutes of the payment to receive the API key and MCP token.',
    header: 'access_purchase_pending',
    retryable: true,
  },
  invalid_api_key: { status: 403, message: 'Invalid API key.' },
  // A dashboard session token (issue 23, ADR 0043) sent to /v2/viewer that is bad, revoked or expired.
  invalid_session: { status: 403, message: 'Invalid, expired or revoked session. Sign in to the dashboard again.' },
  paid_plan_required: { status: 403, message: 'This operation requires a paid plan or prepaid credits.', header: 'paid_plan_required' },
  no_credits: { status: 403, message: 'The organization has no credits.' },
  not_found: { status: 404, message: 'No brand found for this identifier.' },
  asset_not_found: { status: 404, message: 'Asset not found.' },
  route_not_found: { status: 404, message: 'Not Found' },
  request_timeout: { status: 408, message: 'Request timeout: the request was not received in time.', retryable: true },
  payload_too_large: { status: 413, message: 'Request body too large.' },
  quota_exceeded: { status: 429, message: 'API key quota exceeded', header: 'quota_exceeded' },
  rate_limited: { status: 429, message: 'API key quota exceeded', header: 'rate_limited', retryable: true },
  headers_too_large: { status: 431, message: 'Request header fields too large.' },
  webhook_not_found: { status: 404, message: 'Webhook not found.' },
  invalid_webhook_url: { status: 400, message: 'Invalid webhook URL.' },
  invalid_webhook_input: { status: 400, message: 'Invalid webhook input.' },
  too_many_webhooks: { status: 409, message: 'Too many webhooks for this organization. Delete one to create another. Nothing was changed.' },
  too_many_domains: { status: 400, message: 'Too many domains: at most 1,000 per call. Nothing was changed.' },
  invalid_page_size: { status: 400, message: '`first` must be between 1 and 100.' },
  invalid_cursor: { status: 400, message: 'Invalid cursor: pass a cursor this API returned, unchanged.' },
  invalid_graphql_request: { status: 400, message: 'Invalid GraphQL request.' },
  // Bounds of POST /graphql (issue 33): checked on the validated document, before anything runs.
  query_too_expensive: { status: 400, message: 'Query too expensive.' },
  internal_error: { status: 500, message: 'Internal Server Error', retryable: true },
  payments_not_configured: { status: 501, message: 'Payments are not configured on this server: standing access cannot be bought here.' },
  // Logo CDN (issue 20, docs/logo-cdn.md): every refusal sends its code in `x-bf-error`.
  invalid_width: { status: 400, message: 'Width must be a whole number from 1 to 1024.', header: 'invalid_width' },
  invalid_height: { status: 400, message: 'Height must be a whole number from 1 to 1024.', header: 'invalid_height' },
  invalid_theme: { status: 400, message: 'Theme must be light or dark.', header: 'invalid_theme' },
  invalid_fallback: { status: 400, message: 'Fallback must be default, transparent, lettermark or 404.', header: 'invalid_fallback' },
  invalid_type: { status: 400, message: 'Type must be icon, logo or symbol.', header: 'invalid_type' },
  invalid_format: { status: 400, message: 'Unknown extension: use .webp, .png, .jpg or .svg.', header: 'invalid_format' },
  invalid_segment: { status: 400, message: 'Unknown segment: use w, h, theme, fallback or type.', header: 'invalid_segment' },
  duplicate_segment: { status: 400, message: 'A segment is given twice.', header: 'duplicate_segment' },
  svg_not_available: { status: 400, message: 'SVG is served for type logo and symbol only; icons are raster.', header: 'svg_not_available' },
  crawl_queued: { status: 404, message: 'This brand is not indexed yet; a crawl is queued.', header: 'crawl_queued' },
  logo_not_found: { status: 404, message: 'No logo of this type for this brand.', header: 'logo_not_found' },
  client_id_missing: { status: 401, message: 'Missing client ID: send it as the query parameter c (?c=CLIENT_ID).', header: 'client_id_missing' },
  invalid_client_id: { status: 401, message: 'Invalid client ID.', header: 'invalid_client_id' },
  client_id_revoked: { status: 403, message: 'This client ID has been revoked.', header: 'client_id_revoked' },
  api_key_not_client_id: { status: 403, message: 'An API key never works as a client ID: send a client ID (?c=cid_...) and no API key.', header: 'api_key_not_client_id' },
  client_id_not_accepted: { status: 403, message: 'A client ID works only for search and the logo CDN; this operation needs an API key.', header: 'client_id_not_accepted' },
  referrer_not_allowed: { status: 403, message: 'This client ID is not allowed on the site that sent the request (Referer/Origin).', header: 'referrer_not_allowed' },
  referrer_required: { status: 403, message: 'This client ID only answers requests that send a Referer or Origin header.', header: 'referrer_required' },
  temporarily_unavailable: { status: 503, message: 'Temporarily unavailable; retry later.', header: 'temporarily_unavailable', retryable: true },
  // Transaction enrichment (spec 7.2, docs/transactions.md): no confident merchant is final; an incomplete body is a 400 whatever the credential.
  transaction_not_enriched: { status: 400, message: 'Failed to enrich transaction', header: 'transaction_not_enriched' },
  invalid_transaction: {
    status: 400,
    message: 'Invalid transaction: send transactionLabel (a string of 1 to 256 characters) and countryCode (an ISO 3166 alpha-2 code). Nothing was charged.',
    header: 'invalid_transaction',
  },
  // Merchant corrections (issue 34, docs/transactions.md#corrections): an organization's own answers for descriptors.
  invalid_correction: { status: 400, message: 'Invalid correction.' },
  correction_not_found: { status: 404, message: 'Correction not found.' },
  too_many_corrections: { status: 409, message: 'Too many corrections for this organization. Remove one to add another. Nothing was changed.' },
  // Brand context and MCP server (issue 21, docs/context.md, docs/mcp.md).
  generation_in_progress: { status: 503, message: 'The context of this brand is being generated; retry after the time in Retry-After. Nothing was charged.', header: 'generation_in_progress', retryable: true },
  invalid_mcp_token: { status: 403, message: 'Invalid MCP token.' },
  metrics_token_required: { status: 401, message: 'Missing or invalid metrics token: send "Authorization: Bearer <BRANDBASE_METRICS_TOKEN>", or scrape the metrics port.' },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** A failure with a stable code. The HTTP layer turns it into the status, body and headers of the registry. */
export class ApiError extends Error {
  readonly status: number;
  readonly retryable: boolean;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    /** Extra body fields (e.g. the 404 `payment` object, the batch 429 counters). */
    readonly body: Record<string, unknown> = {},
    /** Extra response headers (e.g. the x402 `PAYMENT-REQUIRED` challenge of a 402). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    const def: ErrorDefinition = ERROR_CODES[code];
    super(message ?? def.message);
    this.name = 'ApiError';
    this.status = def.status;
    this.retryable = def.retryable ?? false;
  }

  get header(): string | undefined {
    const def: ErrorDefinition = ERROR_CODES[this.code];
    return def.header;
  }
}

/**
 * Whether trying the same work again later may succeed: the error's own `retryable` flag (ApiError,
 * CrawlFailedError and any error that sets one). An error without the flag is unexpected (a bug, a dropped
 * connection) and counts as retryable, so a transient fault never loses a job; attempts are bounded anyway.
 */
export function isRetryable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('retryable' in error)) return true;
  return error.retryable !== false;
}
