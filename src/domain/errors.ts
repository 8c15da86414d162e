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
  invalid_api_key: { status: 403, message: 'Invalid API key.' },
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
  internal_error: { status: 500, message: 'Internal Server Error', retryable: true },
  payments_not_configured: { status: 501, message: 'Payments are not configured on this server: standing access cannot be bought here.' },
  temporarily_unavailable: { status: 503, message: 'Temporarily unavailable; retry later.', header: 'temporarily_unavailable', retryable: true },
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
