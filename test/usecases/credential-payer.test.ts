/**
 * The one reading of a presented credential (usecases/credential-payer.ts, issue 31): every transport hands the
 * header strings over and gets the same answer. Pure: no store, no transport.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import { paidRequestScope, readCredential, requestDigest } from '../../src/usecases/credential-payer.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzIjoieCJ9.c2lnbmF0dXJl';

describe('readCredential', () => {
  it('reads each kind of credential', () => {
    expect(readCredential({ authorization: undefined })).toEqual({ kind: 'none', clientIdSent: false });
    expect(readCredential({ authorization: undefined, clientIdSent: true })).toEqual({ kind: 'none', clientIdSent: true });
    expect(readCredential({ authorization: 'Bearer bb_live_abc' })).toEqual({ kind: 'api-key', token: 'bb_live_abc' });
    expect(readCredential({ authorization: 'bearer bb_mcp_abc' })).toEqual({ kind: 'mcp-token', token: 'bb_mcp_abc' });
    expect(readCredential({ authorization: `Bearer ${JWT}` })).toEqual({ kind: 'session', token: JWT });
    expect(readCredential({ authorization: undefined, paymentSignature: 'eyJ4' })).toEqual({ kind: 'x402', proof: 'eyJ4' });
    expect(readCredential({ authorization: 'Payment eyJjaGFsbGVuZ2Ui' })).toEqual({ kind: 'mpp', proof: 'Payment eyJjaGFsbGVuZ2Ui' });
  });

  it('an API key wins over an x402 payment sent with it', () => {
    expect(readCredential({ authorization: 'Bearer bb_live_abc', paymentSignature: 'eyJ4' })).toEqual({ kind: 'api-key', token: 'bb_live_abc' });
  });

  it('an Authorization header of no known scheme is 401 malformed_authorization', () => {
    for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', 'token']) {
      let error: unknown;
      try {
        readCredential({ authorization: header });
      } catch (e) {
        error = e;
      }
      expect(error, header).toBeInstanceOf(ApiError);
      expect((error as ApiError).code, header).toBe('malformed_authorization');
      expect((error as ApiError).status, header).toBe(401);
    }
  });
});

describe('the request a payment is bound to', () => {
  it('differs with the identifier, the query or the body, and never carries them', () => {
    const a = requestDigest(['/v2/brands/someone@acme.com', '']);
    expect(a).not.toBe(requestDigest(['/v2/brands/other.com', '']));
    expect(a).not.toBe(requestDigest(['/v2/brands/someone@acme.com?palette=true', '']));
    expect(requestDigest(['/v2/brands/transaction', '{"a":1}'])).not.toBe(requestDigest(['/v2/brands/transaction', '{"a":2}']));
    const scope = paidRequestScope({ method: 'GET', template: '/v2/brands/{identifier}', request: a });
    expect(scope).toBe(`GET /v2/brands/{identifier} ${a}`);
    expect(scope).not.toContain('acme');
  });
});
