/**
 * Client IDs (spec 5.4): publishable credentials for search and the logo CDN only. This is the port both products
 * admit requests through; `billing/` implements it (issue 20). Pure types: no I/O here.
 */

/** The two products a client ID opens; each is counted on its own allowance. */
export type ClientIdProduct = 'search' | 'logo';

export interface ClientIdRequest {
  /** The `c` query parameter as sent (undefined when absent). */
  clientId: string | undefined;
  product: ClientIdProduct;
  /** The caller's address as the HTTP layer sees it (after the configured proxy rules). */
  ip: string;
  /** Host of the `Referer` (or `Origin`) header, lower-cased; undefined when the request sent neither. */
  referrerHost: string | undefined;
  /** True when the request also carries an API key (`Authorization`): refused, a key never rides on a client-ID product. */
  apiKeySent?: boolean;
}

/** The request may proceed; it has been counted against the organization's allowance for `product`. */
export interface ClientIdGrant {
  ok: true;
  clientId: string;
  orgId: string;
  /** True when the organization is past its monthly allowance for the product but within the hard ceiling (soft limit). */
  overAllowance: boolean;
}

/** The request is refused; `code` goes to `x-bf-error`, `message` to the JSON body. */
export interface ClientIdRefusal {
  ok: false;
  status: 400 | 401 | 403 | 429 | 503;
  code: string;
  message: string;
  /** Seconds to put in `Retry-After` (429 and 503). */
  retryAfterSeconds?: number;
}

export interface ClientIdGate {
  admit(request: ClientIdRequest): Promise<ClientIdGrant | ClientIdRefusal>;
  /** Un-counts an admitted request that was not served (search's 503: not counted toward the allowance). */
  release?(grant: ClientIdGrant, product: ClientIdProduct): void;
}
