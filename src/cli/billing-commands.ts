import { Argument, InvalidArgumentError, type Command } from 'commander';
import type { BillingAdmin } from '../billing/billing-admin.js';
import type { UsageReport } from '../billing/billing.js';
import { orgJson, print } from './cli-output.js';
import { wholeNumber } from './whole-number.js';

/** Opens the store for one command (migrating it) and always closes it; loaded when the command runs. */
async function withBilling<T>(run: (admin: BillingAdmin) => Promise<T>): Promise<T> {
  const { cliConfig, withAdmin } = await import('./cli-runtime.js');
  return withAdmin(cliConfig(), ({ billing }) => run(billing));
}

/** US dollars as typed (`25`, `12.5`, `12.50`) to integer cents, without floating point. */
export function usdToCents(value: string): number {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError('expected an amount in US dollars such as 25 or 12.50');
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

function cents(value: number): string {
  return `${Math.floor(value / 100)}.${String(value % 100).padStart(2, '0')} USD`;
}

function reportText(r: UsageReport): string {
  return [
    `organization ${r.orgId} (${r.plan}), period ${r.period.key}`,
    `used ${r.used} credits: ${r.quotaUsed} of quota ${r.quota}, ${r.prepaidUsed} prepaid, ${r.overageCredits} overage (${cents(r.overageCents)})`,
    `prepaid balance ${r.prepaidBalance} credits`,
    `overage ${r.overageAllowed ? `allowed up to ${cents(r.spendingLimitCents)} a month` : 'not allowed'}`,
  ].join('\n');
}

function orgsCommand(program: Command): Command {
  return program.commands.find((c) => c.name() === 'orgs') ?? program.command('orgs').description('manage organizations');
}

/**
 * `brandbase orgs set-plan|set-quota|add-credits|set-spending-limit|set-contacts|set-rate-limit|usage`. Register
 * after the admin commands: these join their `orgs` command. Registering twice is a no-op.
 */
export function registerBillingCommands(program: Command): void {
  const orgs = orgsCommand(program);
  if (orgs.commands.some((c) => c.name() === 'set-plan')) return;
  const run = withBilling;

  orgs
    .command('set-plan')
    .description('move an organization to the free or the paid plan')
    .argument('<orgId>', 'organization id')
    .addArgument(new Argument('<plan>', 'billing plan').choices(['free', 'paid']))
    .option('--json', 'print one JSON object')
    .action(async (orgId: string, plan: 'free' | 'paid', opts: { json?: boolean }) => {
      const org = await run((a) => a.setPlan(orgId, plan));
      print(opts.json, orgJson(org), `organization ${org.id} is on the ${org.plan} plan`);
    });

  orgs
    .command('set-quota')
    .description('credits per billing period')
    .argument('<orgId>', 'organization id')
    .argument('<credits>', 'credits per billing period', wholeNumber)
    .option('--json', 'print one JSON object')
    .action(async (orgId: string, credits: number, opts: { json?: boolean }) => {
      const org = await run((a) => a.setQuota(orgId, credits));
      print(opts.json, orgJson(org), `organization ${org.id}: quota ${org.quota} credits per period`);
    });

  orgs
    .command('add-credits')
    .description('add prepaid credits (they do not expire); with --usd, 20 credits per dollar')
    .argument('<orgId>', 'organization id')
    .argument('[credits]', 'credits to add (default: 20 per dollar of --usd)', wholeNumber)
    .option('--usd <amount>', 'amount paid in US dollars, e.g. 25 or 12.50', usdToCents)
    .option('--json', 'print one JSON object')
    .action(async (orgId: string, credits: number | undefined, opts: { usd?: number; json?: boolean }) => {
      const [{ creditsForCents }, { AccountError }] = await Promise.all([import('../billing/billing-admin.js'), import('../billing/accounts.js')]);
      const amountCents = opts.usd ?? null;
      let grant = credits;
      if (amountCents !== null) {
        const bought = creditsForCents(amountCents);
        if (bought === null) throw new AccountError('invalid_argument', '--usd must buy a whole number of credits (20 per dollar: multiples of 0.05).');
        if (grant !== undefined && grant !== bought) {
          throw new AccountError('invalid_argument', `${cents(amountCents)} buys ${bought} credits (20 per dollar), not ${grant}.`);
        }
        grant = bought;
      }
      if (grant === undefined) throw new AccountError('invalid_argument', 'Give the number of credits, or --usd.');
      const credited = grant;
      const { grant: added, org } = await run((a) => a.addCredits(orgId, credited, amountCents, amountCents === null ? 'operator' : 'purchase'));
      const json = {
        id: added.id,
        orgId: org.id,
        credits: added.credits,
        amountCents: added.amountCents,
        prepaidCredits: org.prepaidCredits,
        createdAt: added.createdAt.toISOString(),
      };
      print(opts.json, json, `added ${added.credits} prepaid credits to ${org.id}; balance ${org.prepaidCredits}`);
    });

  orgs
    .command('set-spending-limit')
    .description('monthly overage cap in US dollars (paid plan; 0 disables overage; "default" uses the configured one)')
    .argument('<orgId>', 'organization id')
    .argument('<usd>', 'US dollars, e.g. 100 or 12.50, or "default"', (v: string) => (v === 'default' ? null : usdToCents(v)))
    .option('--json', 'print one JSON object')
    .action(async (orgId: string, limit: number | null, opts: { json?: boolean }) => {
      const org = await run((a) => a.setSpendingLimit(orgId, limit));
      const text = org.spendingLimitCents === null ? 'the configured default' : cents(org.spendingLimitCents);
      print(opts.json, orgJson(org), `organization ${org.id}: monthly spending limit ${text}`);
    });

  orgs
    .command('set-contacts')
    .description('billing contacts that receive usage warnings (none given: remove all)')
    .argument('<orgId>', 'organization id')
    .argument('[emails...]', 'email addresses')
    .option('--json', 'print one JSON object')
    .action(async (orgId: string, emails: string[], opts: { json?: boolean }) => {
      const org = await run((a) => a.setContacts(orgId, emails));
      print(opts.json, orgJson(org), `organization ${org.id}: ${org.billingContacts.length} billing contact(s)`);
    });

  orgs
    .command('set-rate-limit')
    .description('request throughput limit per minute ("default" uses the configured one)')
    .argument('<orgId>', 'organization id')
    .argument('<perMinute>', 'requests per minute >= 1, or "default"', (v: string) => (v === 'default' ? null : wholeNumber(v)))
    .option('--json', 'print one JSON object')
    .action(async (orgId: string, perMinute: number | null, opts: { json?: boolean }) => {
      const org = await run((a) => a.setRateLimit(orgId, perMinute));
      print(opts.json, orgJson(org), `organization ${org.id}: rate limit ${org.rateLimitPerMinute ?? 'default'} per minute`);
    });

  orgs
    .command('usage')
    .description('credits used this billing period, prepaid balance and overage')
    .argument('<orgId>', 'organization id')
    .option('--json', 'print one JSON object')
    .action(async (orgId: string, opts: { json?: boolean }) => {
      const report = await run((a) => a.usage(orgId));
      print(opts.json, { ...report }, reportText(report));
    });
}
