/**
 * Paid lookup overhead (docs/performance.md): the same cached brand on the same `brandbase serve` process, looked
 * up with an API key and paid per request with x402 (embedded facilitator: signature recovery, ledger reads, the
 * claim, the settlement transfer and its ledger row, all in SQLite). Each paid request carries a fresh payment,
 * signed before the timed run by `@x402/evm`'s client scheme. Same load loop for both (fetch, fixed concurrency),
 * alternating rounds; reports requests per second and the paid/keyed ratio.
 */
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from '../src/config/config.js';
import { createServices } from '../src/main/services.js';
import { silentLogger } from '../src/platform/logger.js';

const REQUESTS = Number(process.env.BENCH_PAID_REQUESTS ?? 600);
const CONCURRENCY = 16;

async function run(url: string, headersFor: (i: number) => Record<string, string>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < REQUESTS) {
      const i = next++;
      const res = await fetch(url, { headers: headersFor(i) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url}: request ${i} answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return REQUESTS / ((performance.now() - started) / 1000);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export async function measurePaidLookup(dataDir: string, port: number, headers: Record<string, string>, domain: string, rounds: number): Promise<Record<string, unknown>> {
  const url = `http://127.0.0.1:${port}/v2/brands/${domain}`;
  const unpaid = await fetch(url);
  const challenge = decodePaymentRequiredHeader(unpaid.headers.get('payment-required') ?? '');
  const accepted = challenge.accepts[0];
  if (!accepted) throw new Error('no x402 challenge');
  const account = privateKeyToAccount(generatePrivateKey());
  const config = loadConfig({ BRANDBASE_DATA_DIR: dataDir });
  const services = await createServices(config, silentLogger());
  await services.stores.payments.creditLedger(config.payments.network, config.payments.asset, account.address, BigInt(accepted.amount) * BigInt(REQUESTS * (rounds + 1)));
  await services.close();
  const scheme = new ExactEvmScheme(account);
  const sign = async (): Promise<string> => {
    const signed = await scheme.createPaymentPayload(2, accepted);
    return encodePaymentSignatureHeader({ x402Version: 2, resource: challenge.resource, accepted, payload: signed.payload });
  };
  const payments: string[] = [];
  for (let i = 0; i < REQUESTS * (rounds + 1); i++) payments.push(await sign());
  let used = 0;
  const paidHeaders = (): Record<string, string> => ({ 'payment-signature': payments[used++] ?? '' });
  await run(url, () => headers); // warm both
  await run(url, paidHeaders);
  const keyed: number[] = [];
  const paid: number[] = [];
  for (let round = 0; round < rounds; round++) {
    keyed.push(await run(url, () => headers));
    paid.push(await run(url, paidHeaders));
  }
  const ratio = median(paid) / median(keyed);
  return {
    benchmark: 'cached GET /v2/brands/{domain}: paid per request (x402, embedded facilitator) vs API key, same server',
    requestsPerRound: REQUESTS,
    concurrency: CONCURRENCY,
    keyedReqPerSec: keyed.map(Math.round),
    paidReqPerSec: paid.map(Math.round),
    ratio: Number(ratio.toFixed(3)),
    paidMsPerRequestAtConcurrency: Number((1000 / median(paid)).toFixed(2)),
  };
}

const PURCHASES = Number(process.env.BENCH_ACCESS_PURCHASES ?? 30);

/**
 * Standing-access purchases (POST /v2/agents/access?usd=1 paid with x402, each by a new wallet, so each writes an
 * organization, a key and an MCP token) against paid lookups of the cached brand, one request at a time for both,
 * in the same run: milliseconds per request and the purchase/lookup ratio.
 */
export async function measureAccessPurchase(dataDir: string, port: number, domain: string): Promise<Record<string, unknown>> {
  const base = `http://127.0.0.1:${port}`;
  const challengeOf = async (url: string, method: string) => {
    const res = await fetch(url, { method });
    const challenge = decodePaymentRequiredHeader(res.headers.get('payment-required') ?? '');
    const accepted = challenge.accepts[0];
    if (!accepted) throw new Error(`no x402 challenge from ${method} ${url}`);
    return { challenge, accepted };
  };
  const purchaseUrl = `${base}/v2/agents/access?usd=1`;
  const lookupUrl = `${base}/v2/brands/${domain}`;
  const purchase = await challengeOf(purchaseUrl, 'POST');
  const lookup = await challengeOf(lookupUrl, 'GET');
  const accounts = Array.from({ length: PURCHASES }, () => privateKeyToAccount(generatePrivateKey()));
  const config = loadConfig({ BRANDBASE_DATA_DIR: dataDir });
  const services = await createServices(config, silentLogger());
  for (const account of accounts) await services.stores.payments.creditLedger(config.payments.network, config.payments.asset, account.address, BigInt(purchase.accepted.amount) + BigInt(lookup.accepted.amount));
  await services.close();
  const signed = async (account: (typeof accounts)[number], c: typeof purchase): Promise<string> => {
    const payload = await new ExactEvmScheme(account).createPaymentPayload(2, c.accepted);
    return encodePaymentSignatureHeader({ x402Version: 2, resource: c.challenge.resource, accepted: c.accepted, payload: payload.payload });
  };
  const purchases = await Promise.all(accounts.map((a) => signed(a, purchase)));
  const lookups = await Promise.all(accounts.map((a) => signed(a, lookup)));
  const timed = async (url: string, method: string, signatures: string[]): Promise<number> => {
    const started = performance.now();
    for (const signature of signatures) {
      const res = await fetch(url, { method, headers: { 'payment-signature': signature } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${method} ${url} answered ${res.status}`);
    }
    return (performance.now() - started) / signatures.length;
  };
  const lookupMs = await timed(lookupUrl, 'GET', lookups);
  const purchaseMs = await timed(purchaseUrl, 'POST', purchases);
  return {
    benchmark: 'POST /v2/agents/access?usd=1 paid with x402 (new wallet each: new organization, key, MCP token) vs a paid cached lookup, one at a time',
    requests: PURCHASES,
    paidLookupMs: Number(lookupMs.toFixed(2)),
    purchaseMs: Number(purchaseMs.toFixed(2)),
    ratio: Number((purchaseMs / lookupMs).toFixed(3)),
  };
}
