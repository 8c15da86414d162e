/**
 * `brandbase merchants add|list|remove` (issue 34, docs/transactions.md#operator-aliases): the operator's merchant
 * aliases, which apply to every organization's transactions after its own corrections and before every rule; with
 * `--org ORG_ID`, that organization's corrections instead. Every change is recorded as made by `cli`. It calls the
 * service the routes, GraphQL and the dashboard call (transactions/corrections/merchant-corrections.ts); refusals are
 * one line on stderr and exit code 2. Loaded on demand like every command (ADR 0018).
 */
import type { Command } from 'commander';
import type { MerchantCorrection } from '../transactions/corrections/merchant-correction.js';
import type { MerchantCorrections } from '../transactions/corrections/merchant-corrections.js';
import { print, table } from './cli-output.js';
import { wholeNumber } from './whole-number.js';
import { CliError, guarded } from './guarded-command.js';

interface ScopeOption {
  org?: string;
  json?: boolean;
}

/** The scope a command acts on (the operator's aliases, or `--org`'s corrections) and the service, for one command. */
async function withCorrections<T>(orgId: string | undefined, run: (corrections: MerchantCorrections, scope: string, actor: string) => Promise<T>): Promise<T> {
  const [{ cliConfig, withAdmin }, { OPERATOR_SCOPE }, { CLI_ACTOR }] = await Promise.all([
    import('./cli-runtime.js'),
    import('../transactions/corrections/merchant-correction.js'),
    import('../transactions/corrections/merchant-corrections.js'),
  ]);
  return withAdmin(cliConfig(), async (admin) => {
    if (orgId !== undefined && !(await admin.accounts.getOrganization(orgId))) throw new CliError(`unknown organization ${orgId}`);
    return run(admin.merchantCorrections, orgId ?? OPERATOR_SCOPE, CLI_ACTOR);
  });
}

async function json(c: MerchantCorrection): Promise<Record<string, unknown>> {
  const { correctionJson } = await import('../transactions/corrections/merchant-corrections.js');
  return { ...correctionJson(c), scope: c.scope };
}

function answer(c: MerchantCorrection): string {
  return c.domain ?? 'not a merchant';
}

function describe(c: MerchantCorrection): string {
  return `${c.id}: "${c.key}"${c.countryCode ? ` (${c.countryCode})` : ''} → ${answer(c)}`;
}

export function registerMerchantCommands(program: Command): void {
  const merchants = program
    .command('merchants')
    .description("merchant aliases for every organization's transactions (or, with --org, an organization's corrections)");
  merchants
    .command('add')
    .description('file an alias: transactions whose descriptor reads to the same merchant words answer this domain (or no merchant)')
    .argument('<descriptor>', 'the descriptor as a statement prints it, e.g. "SQ *BLUE BOTTLE COF 4"')
    .argument('[domain]', "the merchant's domain")
    .option('--country <code>', 'ISO 3166 alpha-2: transactions of that country only (default: every country)')
    .option('--not-a-merchant', 'the descriptor names no merchant: its transactions answer 400 Failed to enrich transaction')
    .option('--org <orgId>', "an organization's correction instead of an operator alias")
    .option('--json', 'print one JSON object')
    .action((descriptor: string, domain: string | undefined, opts: ScopeOption & { country?: string; notAMerchant?: boolean }) =>
      guarded(async () => {
        const input = { transactionLabel: descriptor, countryCode: opts.country ?? null, domain: domain ?? null, notMerchant: opts.notAMerchant === true };
        const { correction, replaced } = await withCorrections(opts.org, (c, scope, actor) => c.add(scope, input, actor));
        const text = `added ${describe(correction)}${replaced ? `, replacing ${replaced.id} (→ ${answer(replaced)})` : ''}`;
        print(opts.json, { correction: await json(correction), replaced: replaced === null ? null : await json(replaced) }, text);
      }),
    );
  merchants
    .command('list')
    .description('list the aliases that apply, newest first (--removed: the removed ones too, with who and when)')
    .option('--removed', 'include removed aliases (the audit trail)')
    .option('--first <n>', 'at most this many (1 to 100, default 100)', wholeNumber)
    .option('--after <cursor>', 'the cursor printed after the previous page')
    .option('--org <orgId>', "an organization's corrections instead of the operator's aliases")
    .option('--json', 'print one JSON object')
    .action((opts: ScopeOption & { removed?: boolean; first?: number; after?: string }) =>
      guarded(async () => {
        const page = await withCorrections(opts.org, (c, scope) => c.list(scope, { first: opts.first ?? null, after: opts.after ?? null, includeRemoved: opts.removed === true }));
        const rows = page.corrections.map((c) => [c.id, c.removedAt ? `removed ${c.removedAt.toISOString()} by ${c.removedBy ?? ''}` : 'applies', c.countryCode ?? '*', c.key, answer(c), `${c.createdAt.toISOString()} by ${c.createdBy}`]);
        const text = table(['id', 'state', 'country', 'key', 'answer', 'created'], rows, 'no merchant aliases') + (page.endCursor ? `\nmore: --after ${page.endCursor}` : '');
        print(opts.json, { corrections: await Promise.all(page.corrections.map(json)), nextCursor: page.endCursor }, text);
      }),
    );
  merchants
    .command('remove')
    .description('remove an alias (kept, with who and when, in the audit trail); the rules answer its transactions again')
    .argument('<id>', 'the alias id (mco_...)')
    .option('--org <orgId>', "an organization's correction instead of an operator alias")
    .option('--json', 'print one JSON object')
    .action((id: string, opts: ScopeOption) =>
      guarded(async () => {
        const removed = await withCorrections(opts.org, (c, scope, actor) => c.remove(scope, id, actor));
        print(opts.json, await json(removed), `removed ${describe(removed)}`);
      }),
    );
}
