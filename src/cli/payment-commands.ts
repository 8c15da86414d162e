import { InvalidArgumentError, type Command } from 'commander';
import type { PaymentRecord, PaymentTotal } from '../domain/payments.js';
import type { PaymentAdmin } from '../payments/payment-admin.js';
import { print, table } from './cli-output.js';
import { wholeNumber } from './whole-number.js';

/** Opens the store for one command (migrating it) and always closes it; loaded when the command runs. */
async function withPayments<T>(run: (payments: PaymentAdmin) => Promise<T>): Promise<T> {
  const { cliConfig, withAdmin } = await import('./cli-runtime.js');
  return withAdmin(cliConfig(), (admin) => run(admin.payments));
}

function date(value: string): Date {
  const parsed = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(parsed.getTime())) throw new InvalidArgumentError('expected an ISO 8601 date such as 2026-11-01 or 2026-11-01T12:00:00Z');
  return parsed;
}

function baseUnits(value: string): bigint {
  if (!/^\d{1,16}$/.test(value.trim())) throw new InvalidArgumentError('expected a whole number of base units (0.10 USDC is 100000)');
  return BigInt(value.trim());
}

/** Money leaves as a string of base units: exact in JSON, whatever the amount. */
function paymentJson(p: PaymentRecord): Record<string, unknown> {
  return {
    id: p.id,
    method: p.method,
    network: p.network,
    asset: p.asset,
    payer: p.payer,
    payTo: p.payTo,
    amount: p.amount.toString(),
    transaction: p.transaction,
    route: p.route,
    settledAt: p.settledAt.toISOString(),
  };
}

function totalJson(t: PaymentTotal): Record<string, unknown> {
  return { method: t.method, network: t.network, asset: t.asset, count: t.count, amount: t.amount.toString() };
}

interface RangeOptions {
  from?: Date;
  to?: Date;
  json?: boolean;
}

function wholeUsd(value: string): number {
  if (!/^[1-9]\d{0,3}$/.test(value.trim())) throw new InvalidArgumentError('expected a whole number of US dollars');
  return Number(value.trim());
}

/** `brandbase payments list|summary|fund|card-token` (docs/payments.md). */
export function registerPaymentCommands(program: Command): void {
  if (program.commands.some((c) => c.name() === 'payments')) return;
  const payments = program.command('payments').description('pay-per-request payments: the settlement ledger and revenue');

  payments
    .command('list')
    .description('settled payments, newest first (amounts in the asset’s base units)')
    .option('--from <date>', 'settled at or after (ISO 8601)', date)
    .option('--to <date>', 'settled before (ISO 8601)', date)
    .option('--limit <n>', 'at most this many', wholeNumber, 100)
    .option('--json', 'print one JSON object')
    .action(async (opts: RangeOptions & { limit: number }) => {
      const rows = await withPayments((payments) => payments.list({ ...(opts.from ? { from: opts.from } : {}), ...(opts.to ? { to: opts.to } : {}), limit: opts.limit }));
      const text = table(
        ['settled', 'method', 'network', 'payer', 'amount', 'route', 'transaction'],
        rows.map((p) => [p.settledAt.toISOString(), p.method, p.network, p.payer, p.amount.toString(), p.route, p.transaction]),
        'no payments',
      );
      print(opts.json, { payments: rows.map(paymentJson) }, text);
    });

  payments
    .command('summary')
    .description('revenue per method, network and asset (amounts in base units)')
    .option('--from <date>', 'settled at or after (ISO 8601)', date)
    .option('--to <date>', 'settled before (ISO 8601)', date)
    .option('--json', 'print one JSON object')
    .action(async (opts: RangeOptions) => {
      const totals = await withPayments((payments) => payments.summary({ ...(opts.from ? { from: opts.from } : {}), ...(opts.to ? { to: opts.to } : {}) }));
      const text = table(['method', 'network', 'asset', 'payments', 'amount'], totals.map((t) => [t.method, t.network, t.asset, String(t.count), t.amount.toString()]), 'no payments');
      print(opts.json, { from: opts.from?.toISOString() ?? null, to: opts.to?.toISOString() ?? null, totals: totals.map(totalJson) }, text);
    });

  payments
    .command('fund')
    .description('embedded facilitator only: credit a wallet on the local ledger (offline demos and tests)')
    .argument('<address>', 'the wallet address (0x…)')
    .argument('<units>', 'base units of the configured asset to add (1 USDC is 1000000)', baseUnits)
    .option('--json', 'print one JSON object')
    .action(async (address: string, units: bigint, opts: { json?: boolean }) => {
      if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new InvalidArgumentError('expected a 0x-prefixed 20-byte address');
      const result = await withPayments(async (payments) => {
        const funded = await payments.fund(address, units);
        return { ...funded, balance: funded.balance.toString() };
      });
      print(opts.json, result, `${address} now holds ${result.balance} base units of ${result.asset} on ${result.network}`);
    });

  payments
    .command('card-token')
    .description('embedded card processor only: a single-use card payment token for standing access (offline demos and tests)')
    .argument('<usd>', 'the most it may be charged, in whole US dollars', wholeUsd)
    .option('--expires-in <seconds>', 'how long it can be used', wholeNumber, 3600)
    .option('--json', 'print one JSON object')
    .action(async (usd: number, opts: { expiresIn: number; json?: boolean }) => {
      const result = await withPayments(async (payments) => {
        const issued = await payments.issueCardToken(usd, opts.expiresIn);
        return { token: issued.token, currency: 'usd', maxAmount: String(usd * 100), expiresAt: issued.expiresAt.toISOString() };
      });
      print(opts.json, result, `${result.token}\t(up to ${usd} USD, single use, expires ${result.expiresAt})`);
    });
}
