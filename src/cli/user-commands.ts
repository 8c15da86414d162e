/**
 * `brandbase users add|list|remove|link` and `brandbase sessions revoke` (issue 23, docs/dashboard.md): the
 * operator's side of dashboard accounts. Registration loads only commander; each action opens the store when it runs.
 */
import type { Command } from 'commander';
import type { DashboardAccounts } from '../dashboard-accounts/dashboard-accounts.js';
import type { MemberRole } from '../domain/dashboard-accounts.js';
import { print, table } from './cli-output.js';

async function withDashboard<T>(run: (accounts: DashboardAccounts) => Promise<T>): Promise<T> {
  const { cliConfig, withAdmin } = await import('./cli-runtime.js');
  return withAdmin(cliConfig(), async (admin) => run(await admin.dashboard()));
}

export function registerUserCommands(program: Command): void {
  const users = program.command('users').description('manage dashboard users: who may sign in to /dashboard and for which organizations');
  users
    .command('add')
    .description('add a person (by email) to an organization, or change their role; they sign in with a link mailed to them')
    .argument('<email>', 'their email address')
    .requiredOption('--org <orgId>', 'organization id')
    .option('--role <role>', 'owner or member', 'member')
    .option('--json', 'print one JSON object')
    .action(async (email: string, opts: { org: string; role: string; json?: boolean }) => {
      const m = await withDashboard((d) => d.addMember({ email, orgId: opts.org, role: opts.role as MemberRole }) /* checked there */);
      print(opts.json, { userId: m.userId, orgId: m.orgId, role: m.role }, `${email.trim().toLowerCase()} is ${m.role === 'owner' ? 'an owner' : 'a member'} of ${m.orgId}`);
    });
  users
    .command('list')
    .description('list dashboard users and their memberships')
    .option('--org <orgId>', 'only the members of this organization')
    .option('--json', 'print one JSON object')
    .action(async (opts: { org?: string; json?: boolean }) => {
      const members = await withDashboard((d) => d.listMembers(opts.org ?? null));
      const rows = members.map((m) => [m.user.email, m.orgId, m.role, m.user.id]);
      print(opts.json, { users: members.map((m) => ({ id: m.user.id, email: m.user.email, orgId: m.orgId, role: m.role })) }, table(['email', 'org', 'role', 'id'], rows, 'no dashboard users'));
    });
  users
    .command('remove')
    .description('remove a person from an organization, or (without --org) delete the user and end their sessions')
    .argument('<email>', 'their email address')
    .option('--org <orgId>', 'organization id')
    .option('--json', 'print one JSON object')
    .action(async (email: string, opts: { org?: string; json?: boolean }) => {
      await withDashboard((d) => d.removeMember(email, opts.org ?? null));
      print(opts.json, { removed: true }, opts.org ? `removed ${email} from ${opts.org}` : `deleted user ${email} and their sessions`);
    });
  users
    .command('link')
    .description('print a one-time sign-in link for a user (valid 15 minutes), e.g. when no SMTP server is configured')
    .argument('<email>', 'their email address')
    .option('--json', 'print one JSON object')
    .action(async (email: string, opts: { json?: boolean }) => {
      const link = await withDashboard((d) => d.signInLink(email));
      print(opts.json, { link }, link);
    });
  const sessions = program.command('sessions').description('dashboard sessions');
  sessions
    .command('revoke')
    .description("sign a user out everywhere: every session of theirs ends at once (pages and /v2/viewer)")
    .argument('<email>', 'their email address')
    .option('--json', 'print one JSON object')
    .action(async (email: string, opts: { json?: boolean }) => {
      const revoked = await withDashboard((d) => d.revokeAllSessions(email));
      print(opts.json, { revoked }, `revoked ${revoked} session${revoked === 1 ? '' : 's'} of ${email}`);
    });
}
