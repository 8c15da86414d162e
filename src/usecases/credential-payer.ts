/**
 * One place turns a credential into a payer (issue 31, ADR 0012, ADR 0028): an API key, an MCP token, a dashboard
 * session token, an x402 payment (`PAYMENT-SIGNATURE`) or an MPP credential (`Authorization: Payment`), whatever
 * transport it came in on. Transports read the header strings (`PresentedCredential`), call `readCredential` and one
 * method of `CredentialPayers`, and map the ApiError it throws; they authenticate nothing themselves. Client IDs
 * (`?c=`) are admitted by the client-ID gate in the use cases that take them (`admitClientId`), never here; on a
 * keyed route one is refused as such.
 */
import type { Principal } from '../billing/authenticator.js';
import type { Billing, RouteClass } from '../billing/billing.js';
import { MCP_TOKEN_PREFIX } from '../billing/mcp-token-secret.js';
import { createHash } from 'node:crypto';
import { ApiError } from '../domain/errors.js';
import { ApiKeyPayer } from './api-key-payer.js';
import type { Payer } from './payer.js';
import { PaymentPayer, type PaidRequest } from './payment-payer.js';

/** The key and organization a credential acts for; transports take the type from here, never from billing/. */
export type { Principal } from '../billing/authenticator.js';

/** The strings a transport read from its request; nothing interpreted yet. */
export interface PresentedCredential {
  /** The `Authorization` header as sent. */
  authorization: string | undefined;
  /** The x402 `PAYMENT-SIGNATURE` header as sent. */
  paymentSignature?: string | undefined;
  /** A non-empty client ID (`?c=`) was sent. */
  clientIdSent?: boolean;
}

/** What a request presents, read once for every transport. An API key wins over a payment (spec 5.1 before 5.2). */
export type Credential =
  | { kind: 'none'; clientIdSent: boolean }
  | { kind: 'api-key'; token: string }
  | { kind: 'mcp-token'; token: string }
  | { kind: 'session'; token: string }
  | { kind: 'x402'; proof: string }
  | { kind: 'mpp'; proof: string };

/** RFC 6750 `b64token` syntax; anything else after "Bearer " is a malformed header (401), not an unknown key. */
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;
/** A compact JWS (three base64url parts, a JSON header): what a dashboard session token looks like, never an API key. */
const JWT = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** The MPP scheme (`Authorization: Payment <credential>`). */
const PAYMENT = /^Payment\s/i;
/** Publishable client IDs (issue 20) start so; sent as a bearer token they are refused on keyed routes. */
const CLIENT_ID_PREFIX = 'cid_';

/** Reads a presented credential; 401 `malformed_authorization` for an Authorization header of no known scheme. */
export function readCredential(presented: PresentedCredential): Credential {
  const header = presented.authorization;
  if (header === undefined) {
    const proof = presented.paymentSignature;
    return proof === undefined || proof === '' ? { kind: 'none', clientIdSent: presented.clientIdSent === true } : { kind: 'x402', proof };
  }
  if (PAYMENT.test(header)) return { kind: 'mpp', proof: header };
  const token = BEARER.exec(header.trim())?.[1];
  if (!token) throw new ApiError('malformed_authorization');
  if (token.startsWith(MCP_TOKEN_PREFIX)) return { kind: 'mcp-token', token };
  if (JWT.test(token)) return { kind: 'session', token };
  return { kind: 'api-key', token };
}

/**
 * A charged request as the payment protocols see it: method and route template, and a digest of what makes it this
 * request (its identifier, query and body), never the identifier itself. MPP binds its challenge to all three.
 */
export interface PaidRoute {
  method: string;
  template: string;
  request: string;
}

/** The digest a `PaidRoute` carries: the parts that identify one request (path and query, body), hashed. */
export function requestDigest(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('base64url');
}

/** The scope an MPP challenge is bound to: a retry of exactly this request (spec 5.2 item 4). */
export function paidRequestScope(route: PaidRoute): string {
  return `${route.method} ${route.template} ${route.request}`;
}

/**
 * A way to pay per request (x402, MPP; payments/ implements it): its 402 challenge and its verification. A protocol
 * that is switched off is `noPayments`, never null: it answers "no payment offered" (null) to both questions.
 */
export interface PaymentProtocol {
  /** The headers of this protocol's challenge on a 402 for `route`; null when this protocol offers no payment. */
  challenge(route: PaidRoute): Promise<Record<string, string> | null>;
  /**
   * Verifies the proof for `route` (a 400 or 402 ApiError when refused); claimed later by the payer's hold. Null when
   * this protocol offers no payment: the proof is then no credential at all.
   */
  verify(proof: string, route: PaidRoute): Promise<PaidRequest | null>;
}

/** The protocol of a server that takes no such payment (BRANDBASE_PAYMENTS=off, BRANDBASE_MPP=off): offers none. */
export const noPayments: PaymentProtocol = {
  challenge: () => Promise.resolve(null),
  verify: () => Promise.resolve(null),
};

/** What a route answers when no credential is sent (spec 7.1). */
export type MissingAnswer =
  /** 402 with the payment body; with both challenges when the route is payable. */
  | 'payment'
  /** 401 (the batch: "no key sent"; GraphQL). */
  | 'unauthorized'
  /** 401 with the standing-access offer (the viewer). */
  | 'agent-access'
  /** 401 naming the MCP token, with `WWW-Authenticate: Bearer` (the MCP server). */
  | 'mcp';

/** A route (or MCP server) as the resolver needs it. */
export interface CredentialRoute {
  method: string;
  /** The route template: what the 402 and a payment name, never the requested identifier. */
  template: string;
  /**
   * What no credential answers. A route answering `payment` takes a pay-per-request payment instead of a key for
   * its charged requests (every class but `prefetch`, which is never charged): derived, never a list to keep.
   */
  missing: MissingAnswer;
  /** MCP tokens are accepted (the MCP server); elsewhere one is an unknown key (403). */
  mcpTokens?: boolean;
}

/** Verifies a bearer token into the key and organization it acts for (403 when unknown or revoked). */
export interface TokenAuthenticator {
  authenticate(token: string): Promise<Principal>;
}

/** Reads a dashboard session token (ADR 0043); null when bad, revoked or expired. */
export interface SessionReader<S> {
  readSession(token: string): Promise<S | null>;
}

export interface CredentialPayerDeps<S = unknown> {
  apiKeys: TokenAuthenticator;
  /** MCP tokens (standing access, spec 5.3): accepted on routes that say so (the MCP server). */
  mcpTokens: TokenAuthenticator;
  /** Dashboard sessions (ADR 0043): the viewer's bearer session and the dashboard's cookie. */
  sessions: SessionReader<S>;
  /** Admission of API-key payers (plan, credits, throughput) and their holds. */
  billing: Billing;
  /** Pay per request; `noPayments` when payments (or MPP) are off. */
  x402: PaymentProtocol;
  mpp: PaymentProtocol;
  /** The bodies refusals carry: the 402 of a route template, the viewer's standing-access offer. */
  bodies: { paymentRequired(template: string): Record<string, unknown>; agentAccess(): Record<string, unknown> };
}

/** A route that answers 402 takes a payment for every request it may charge (HEAD prefetches are never charged). */
function payable(route: CredentialRoute, routeClass: RouteClass): boolean {
  return route.missing === 'payment' && routeClass !== 'prefetch';
}

const MCP_MISSING = 'Missing credentials: send "Authorization: Bearer <MCP_TOKEN>" (or an API key).';

export class CredentialPayers<S = unknown> {
  constructor(private readonly deps: CredentialPayerDeps<S>) {}

  /**
   * The key and organization of a keyed credential: 401 none (or 402 with the payment offer), 403 unknown or revoked,
   * 403 `client_id_not_accepted` for a client ID. A payment or session is no key here: they answer as none would.
   */
  async principal(credential: Credential, route: CredentialRoute): Promise<Principal> {
    switch (credential.kind) {
      case 'api-key':
      case 'session':
        // A session token is not a key: the key path refuses it (403), as for any unknown token.
        if (credential.token.startsWith(CLIENT_ID_PREFIX)) throw new ApiError('client_id_not_accepted');
        return this.deps.apiKeys.authenticate(credential.token);
      case 'mcp-token':
        if (route.mcpTokens) return this.deps.mcpTokens.authenticate(credential.token);
        return this.deps.apiKeys.authenticate(credential.token);
      case 'mpp':
        // `Authorization: Payment` where no payment is taken is not a Bearer header (spec 7.1: 401 malformed).
        throw new ApiError('malformed_authorization');
      case 'none':
        if (credential.clientIdSent) throw new ApiError('client_id_not_accepted');
        throw await this.#missing(route, null);
      case 'x402':
        // A payment where none is taken is no credential.
        throw await this.#missing(route, null);
    }
  }

  /**
   * The payer of a charged request: a payment on a payable route (x402 or MPP, verified, claimed by the use case's
   * hold), else the credential's organization admitted for `routeClass` (403 without credits or plan, 429 over
   * throughput). `request` identifies this very request (`requestDigest`, computed only for a payable route that
   * was not sent a key): an MPP payment pays for it alone.
   */
  async payer(credential: Credential, route: CredentialRoute, routeClass: RouteClass, request: () => string): Promise<Payer> {
    const keyed = credential.kind === 'api-key' || credential.kind === 'mcp-token' || credential.kind === 'session';
    if (keyed) return this.admit(await this.principal(credential, route), routeClass);
    const paid = payable(route, routeClass) ? { method: route.method, template: route.template, request: request() } : null;
    if (paid && (credential.kind === 'x402' || credential.kind === 'mpp')) {
      // A protocol that is off (`noPayments`) verifies nothing: the proof is then answered as no credential.
      const verified = await this.deps[credential.kind].verify(credential.proof, paid);
      if (verified) return new PaymentPayer(verified);
    }
    if (credential.kind === 'none' || credential.kind === 'x402') {
      if (credential.kind === 'none' && credential.clientIdSent) throw new ApiError('client_id_not_accepted');
      throw await this.#missing(route, paid);
    }
    // `Authorization: Payment` where no payment is taken (or MPP is off).
    throw new ApiError('malformed_authorization');
  }

  /** An authenticated organization as a payer, admitted for `routeClass` (the MCP tools admit per call). */
  admit(principal: Principal, routeClass: RouteClass): Promise<Payer> {
    return ApiKeyPayer.admit(this.deps.billing, principal, routeClass);
  }

  /**
   * The dashboard session of a session token sent as a bearer token (the viewer, spec 5.4); 403 `invalid_session`
   * when bad, revoked or expired; null when the credential is no session token.
   */
  async bearerSession(credential: Credential): Promise<S | null> {
    if (credential.kind !== 'session') return null;
    const active = await this.deps.sessions.readSession(credential.token);
    if (active === null) throw new ApiError('invalid_session');
    return active;
  }

  /** The dashboard session of a session token carried by the dashboard's cookie; null when bad, revoked or expired. */
  cookieSession(token: string): Promise<S | null> {
    return this.deps.sessions.readSession(token);
  }

  /** The refusal of a request without credential (spec 7.1); a payable route's 402 carries both challenges. */
  async #missing(route: CredentialRoute, paid: PaidRoute | null): Promise<ApiError> {
    switch (route.missing) {
      case 'payment':
        return new ApiError('payment_required', undefined, this.deps.bodies.paymentRequired(route.template), paid ? await this.#challenges(paid) : {});
      case 'agent-access':
        return new ApiError('missing_credentials', undefined, { agentAccess: this.deps.bodies.agentAccess() });
      case 'mcp':
        return new ApiError('missing_credentials', MCP_MISSING, {}, { 'www-authenticate': 'Bearer realm="brandbase"' });
      case 'unauthorized':
        return new ApiError('missing_credentials');
    }
  }

  async #challenges(paid: PaidRoute): Promise<Record<string, string>> {
    const [x, m] = await Promise.all([this.deps.x402.challenge(paid), this.deps.mpp.challenge(paid)]);
    // No protocol offers a payment (payments off): the 402 carries no challenge, as a plain refusal.
    if (!x && !m) return {};
    return { ...x, ...m, 'cache-control': 'no-store' };
  }
}
