/** Dashboard accounts' store over the kernel's Database (SQLite or PostgreSQL; dashboard-account-rows.ts, migration 0021). */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';
import type { DashboardAccountStore } from '../dashboard-account-store.js';
import * as dashboardAccounts from './dashboard-account-rows.js';
import type { DashboardAccountTables } from './dashboard-account-tables.js';

export class KyselyDashboardAccountStore implements DashboardAccountStore {
  private readonly db: Kysely<DashboardAccountTables>;
  private readonly quirks: DialectQuirks;

  constructor(database: Database) {
    this.db = database.tables<DashboardAccountTables>();
    this.quirks = database.quirks;
  }

  createDashboardUser: DashboardAccountStore['createDashboardUser'] = (user) => dashboardAccounts.createDashboardUser(this.db, user);
  findDashboardUserByEmail: DashboardAccountStore['findDashboardUserByEmail'] = (email) => dashboardAccounts.findDashboardUserByEmail(this.db, email);
  getDashboardUser: DashboardAccountStore['getDashboardUser'] = (id) => dashboardAccounts.getDashboardUser(this.db, id);
  deleteDashboardUser: DashboardAccountStore['deleteDashboardUser'] = (id) => dashboardAccounts.deleteDashboardUser(this.db, this.quirks, id);
  setDashboardMembership: DashboardAccountStore['setDashboardMembership'] = (m) => dashboardAccounts.setDashboardMembership(this.db, m);
  removeDashboardMembership: DashboardAccountStore['removeDashboardMembership'] = (u, o) => dashboardAccounts.removeDashboardMembership(this.db, u, o);
  dashboardMembership: DashboardAccountStore['dashboardMembership'] = (u, o) => dashboardAccounts.dashboardMembership(this.db, u, o);
  dashboardMemberships: DashboardAccountStore['dashboardMemberships'] = (u) => dashboardAccounts.dashboardMemberships(this.db, u);
  listDashboardMembers: DashboardAccountStore['listDashboardMembers'] = (o) => dashboardAccounts.listDashboardMembers(this.db, o);
  insertSignInToken: DashboardAccountStore['insertSignInToken'] = (t) => dashboardAccounts.insertSignInToken(this.db, t);
  findSignInTokenByLinkHash: DashboardAccountStore['findSignInTokenByLinkHash'] = (h) => dashboardAccounts.findSignInTokenByLinkHash(this.db, h);
  latestSignInToken: DashboardAccountStore['latestSignInToken'] = (u, now) => dashboardAccounts.latestSignInToken(this.db, u, now);
  useSignInToken: DashboardAccountStore['useSignInToken'] = (id, at) => dashboardAccounts.useSignInToken(this.db, id, at);
  countSignInCodeTry: DashboardAccountStore['countSignInCodeTry'] = (id, at) => dashboardAccounts.countSignInCodeTry(this.db, this.quirks, id, at);
  admitSignInRequest: DashboardAccountStore['admitSignInRequest'] = (key, limit, at, since) => dashboardAccounts.admitSignInRequest(this.db, key, limit, at, since);
  forgetSignInRequests: DashboardAccountStore['forgetSignInRequests'] = (keys) => dashboardAccounts.forgetSignInRequests(this.db, keys);
  insertDashboardSession: DashboardAccountStore['insertDashboardSession'] = (s) => dashboardAccounts.insertDashboardSession(this.db, s);
  getDashboardSession: DashboardAccountStore['getDashboardSession'] = (id) => dashboardAccounts.getDashboardSession(this.db, id);
  touchDashboardSession: DashboardAccountStore['touchDashboardSession'] = (id, at) => dashboardAccounts.touchDashboardSession(this.db, id, at);
  listDashboardSessions: DashboardAccountStore['listDashboardSessions'] = (u, now) => dashboardAccounts.listDashboardSessions(this.db, u, now);
  revokeDashboardSessions: DashboardAccountStore['revokeDashboardSessions'] = (u, at, scope) => dashboardAccounts.revokeDashboardSessions(this.db, u, at, scope);
  dashboardSecret: DashboardAccountStore['dashboardSecret'] = (name, candidate, at) => dashboardAccounts.dashboardSecret(this.db, name, candidate, at);
}
