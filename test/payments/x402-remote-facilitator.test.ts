/**
 * x402 with a remote facilitator (BRANDBASE_X402_FACILITATOR_URL; ADR 0028): the production path, every part a
 * process of its own on loopback. `brandbase serve` (the built program) talks to the facilitator only through
 * `@x402/core`'s HTTPFacilitatorClient; the facilitator process runs the official facilitator code
 * (x402-facilitator.child.ts), which settles by sending signed transactions over JSON-RPC; the client is
 * `@x402/fetch` with a viem local account. The one substitute is the chain under the facilitator
 * (local-token-chain.ts: the token's EIP-3009 rules without an EVM); docs/payments.md says what is real.
 * On SQLite and on PostgreSQL.
 */
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/errors.js';
import { X402Payments } from '../../src/payments/x402-payments.js';
import { createLogger } from '../../src/platform/logger.js';
import { startServer, type ServerProcess } from '../helpers/brandbase-process.js';
import { sharedPostgres, sharedSqlite, type SharedDatabase } from '../helpers/shared-database.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { PG_URL } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';
import { startLocalTokenChain, type LocalTokenChain } from './local-token-chain.js';
import { startFacilitatorProcess, type FacilitatorProcess } from './x402-facilitator-process.js';
import { ASSET, NETWORK, PRICE } from './x402-wallet.js';

const CHAIN_ID = 84532;
const PAY_TO = '0x00000000000000000000000000000000000b4b40';
const ROUTE = '/v2/brands/{identifier}';

let chain: LocalTokenChain;
let facilitator: FacilitatorProcess;

beforeAll(async () => {
  chain = await startLocalTokenChain({ chainId: CHAIN_ID, address: ASSET, name: 'USDC', version: '2' });
  facilitator = await startFacilitatorProcess(chain.url, CHAIN_ID);
});

afterAll(async () => {
  await facilitator?.close();
  await chain?.close();
});

/** A wallet funded on the chain and an `@x402/fetch` that pays with it, keeping the PAYMENT-SIGNATURE it sent. */
function payer(funds: bigint, maxAmountPerPayment = '$1'): { account: PrivateKeyAccount; paidFetch: typeof fetch; signatures: string[] } {
  const account = privateKeyToAccount(generatePrivateKey());
  chain.fund(account.address, funds);
  const signatures: string[] = [];
  const recording: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const signature = headers.get('payment-signature');
    if (signature !== null) signatures.push(signature);
    return fetch(input, init);
  };
  const paidFetch = wrapFetchWithPaymentFromConfig(recording, { schemes: [{ network: NETWORK, client: new ExactEvmScheme(account) }], spendControls: { maxAmountPerPayment } });
  return { account, paidFetch, signatures };
}

/** Presents a used PAYMENT-SIGNATURE again: refused (402, no brand) with nothing moving on the chain; its message. */
async function presentAgain(baseUrl: string, signature: string | undefined): Promise<string> {
  if (signature === undefined) throw new Error('the client sent no PAYMENT-SIGNATURE');
  const transfers = chain.transfers().length;
  const res = await fetch(`${baseUrl}/v2/brands/acme.com`, { headers: { 'payment-signature': signature } });
  expect(res.status).toBe(402);
  const body = (await res.json()) as { message: string; domain?: string };
  expect(body.domain).toBeUndefined();
  expect(chain.transfers()).toHaveLength(transfers);
  return body.message;
}

async function ledgerRows(stack: TestStack, transaction: string) {
  return (await stack.services.stores.payments.listPayments({ limit: 10_000 })).filter((p) => p.transaction === transaction);
}

function remoteFacilitatorSuite(name: string, openDatabase: () => Promise<SharedDatabase>): void {
  describe(`x402 through a remote facilitator process: ${name}`, () => {
    let database: SharedDatabase;
    let env: Record<string, string>;
    /** The service's store, opened in this process (the same database): the ledger rows and claims are read here. */
    let stack: TestStack;
    let service: ServerProcess;

    beforeAll(async () => {
      database = await openDatabase();
      env = { ...database.env, BRANDBASE_X402_FACILITATOR_URL: facilitator.url, BRANDBASE_X402_PAY_TO: PAY_TO, BRANDBASE_WORKER_CONCURRENCY: '0' };
      stack = await startTestStack(env);
      const now = new Date();
      await stack.services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
      service = await startServer(env);
    });

    afterAll(async () => {
      if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
      await stack?.close();
      await database?.cleanup();
    });

    describe('paying', () => {
      it('@x402/fetch pays: verified and settled by the facilitator on the chain, the receipt names its transaction, one ledger row', async () => {
        const { account, paidFetch } = payer(1_000_000n);
        const before = chain.transfers().length;
        const res = await paidFetch(`${service.baseUrl}/v2/brands/acme.com`);
        expect(res.status).toBe(200);
        expect(((await res.json()) as { domain: string }).domain).toBe('acme.com');
        const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') ?? '');
        expect(receipt).toMatchObject({ success: true, network: NETWORK, payer: account.address });
        // Exactly one transfer on the chain, the one the receipt names, of the price to the configured payee.
        const transfers = chain.transfers().slice(before);
        expect(transfers).toEqual([expect.objectContaining({ transaction: receipt.transaction, from: account.address, value: PRICE })]);
        expect(transfers[0]?.to.toLowerCase()).toBe(PAY_TO);
        expect(chain.balance(account.address)).toBe(1_000_000n - PRICE);
        expect(await ledgerRows(stack, receipt.transaction)).toEqual([
          expect.objectContaining({ method: 'x402', network: NETWORK, asset: ASSET.toLowerCase(), payer: account.address.toLowerCase(), payTo: PAY_TO, amount: PRICE, route: ROUTE }),
        ]);
      });

      it('the same payment presented again: 402 payment_replayed, nothing moves', async () => {
        const { account, paidFetch, signatures } = payer(1_000_000n);
        expect((await paidFetch(`${service.baseUrl}/v2/brands/acme.com`)).status).toBe(200);
        // Soft: a failure here names the refusal code, and the checks of what moved still run.
        expect.soft(await presentAgain(service.baseUrl, signatures.at(-1))).toBe(ERROR_CODES.payment_replayed.message);
        expect(chain.balance(account.address)).toBe(1_000_000n - PRICE);
      });

      it('standing access bought through the facilitator: the key, one transfer of the dollars on the chain, one ledger row; the key pays a lookup', async () => {
        const { account, paidFetch } = payer(5_000_000n, '$2');
        const before = chain.transfers().length;
        const res = await paidFetch(`${service.baseUrl}/v2/agents/access?usd=2`, { method: 'POST' });
        expect(res.status).toBe(200);
        const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') ?? '');
        const bought = (await res.json()) as { apiKey: string; credits: { added: number } };
        expect(bought.credits.added).toBe(40);
        expect(chain.transfers().slice(before)).toEqual([expect.objectContaining({ transaction: receipt.transaction, from: account.address, value: 2_000_000n })]);
        expect(await ledgerRows(stack, receipt.transaction)).toEqual([expect.objectContaining({ method: 'x402', amount: 2_000_000n, route: '/v2/agents/access' })]);
        const lookup = await fetch(`${service.baseUrl}/v2/brands/acme.com`, { headers: { authorization: `Bearer ${bought.apiKey}` } });
        expect(lookup.status).toBe(200);
        expect(chain.transfers()).toHaveLength(before + 1);
      });

      it('a payment the facilitator refuses (the balance does not cover it): 402 payment_invalid with its reason, nothing moves', async () => {
        const { account, paidFetch } = payer(PRICE - 1n);
        const transfers = chain.transfers().length;
        const res = await paidFetch(`${service.baseUrl}/v2/brands/acme.com`);
        expect(res.status).toBe(402);
        const body = (await res.json()) as { message: string; reason: string };
        expect(body.message).toBe(ERROR_CODES.payment_invalid.message);
        expect(body.reason).toContain('insufficient');
        expect(chain.transfers()).toHaveLength(transfers);
        expect(chain.balance(account.address)).toBe(PRICE - 1n);
      });
    });

    describe('a service stopped between the facilitator settlement and its ledger write', () => {
      it('restarted: the payment stays refused, charged once on the chain, kept while valid and forgotten once expired, with no ledger row', async () => {
        const own = await startServer(env);
        let restarted: ServerProcess | undefined;
        try {
          const { account, paidFetch, signatures } = payer(1_000_000n);
          const settled = facilitator.holdNextSettlement();
          const lost = paidFetch(`${own.baseUrl}/v2/brands/acme.com`).then(
            (res) => `answered ${res.status}`,
            () => 'no answer',
          );
          // The transfer is on the chain; the facilitator's answer never reaches the service, which is killed now.
          const transaction = await Promise.race([settled, lost]);
          if (!transaction.startsWith('0x')) throw new Error(`the request ended before the facilitator settled: ${transaction}`);
          own.child.kill('SIGKILL');
          await own.exited;
          expect(await lost).toBe('no answer');
          expect(chain.balance(account.address)).toBe(1_000_000n - PRICE);
          expect(await ledgerRows(stack, transaction)).toEqual([]);

          restarted = await startServer(env);
          expect.soft(await presentAgain(restarted.baseUrl, signatures.at(-1))).toBe(ERROR_CODES.payment_replayed.message);
          expect(chain.balance(account.address)).toBe(1_000_000n - PRICE);

          // The start-up reconciliation (claims older than two minutes) left the claim: the authorization is still valid.
          const validBefore = await claimValidBefore(stack, account.address);
          expect(validBefore).not.toBeNull();
          // A remote facilitator cannot be asked whether the transfer landed: once the authorization expired, the claim
          // is forgotten, and the transfer has no ledger row (docs/payments.md, "A process that stops mid-payment").
          const payments = new X402Payments(stack.services.stores.payments, reconcilingSettings(stack), 'http://brandbase.test', createLogger({ level: 'silent' }), () => ({}), () => new Date((validBefore ?? new Date()).getTime() + 121_000));
          expect(await payments.reconcile(120_000)).toEqual({ recorded: 0, released: 1 });
          expect(await claimValidBefore(stack, account.address)).toBeNull();
          expect(await ledgerRows(stack, transaction)).toEqual([]);
          // Forgotten, it is still never served twice: the chain has used its nonce, so the facilitator refuses it.
          expect(await presentAgain(restarted.baseUrl, signatures.at(-1))).toBe(ERROR_CODES.payment_invalid.message);
          expect(chain.balance(account.address)).toBe(1_000_000n - PRICE);
        } finally {
          for (const p of [own, restarted]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
        }
      });
    });
  });
}

remoteFacilitatorSuite('SQLite', sharedSqlite);

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
needsPostgres.describe('PostgreSQL', () => {
  remoteFacilitatorSuite('PostgreSQL', () => sharedPostgres(PG_URL ?? ''));
});

/** The x402 settings of the service under test: a remote facilitator, the one this file started. */
function reconcilingSettings(stack: TestStack) {
  const settings = stack.services.payments?.settings;
  if (!settings) throw new Error('payments are off');
  expect(settings.facilitatorUrl).toBe(facilitator.url);
  return settings;
}

/** When the unsettled claim of `payer`'s payment expires, or null when there is none. */
async function claimValidBefore(stack: TestStack, payer: string): Promise<Date | null> {
  const claims = await stack.services.stores.payments.unsettledPaymentClaims(new Date(Date.now() + 3_600_000));
  return claims.find((c) => c.payer === payer.toLowerCase())?.validBefore ?? null;
}
