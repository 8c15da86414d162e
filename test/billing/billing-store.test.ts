/**
 * The billing store's contracts (billing-store.contract.ts, client-id-store.contract.ts, credit-lease.contract.ts) on
 * SQLite and, when one answers, PostgreSQL. The credit-lease suite's peer is another OS process on the same database
 * (test/store/store-peer-process.ts): two better-sqlite3 handles in one thread would only take turns.
 */
import type { BillingTables } from '../../src/billing/store/billing-tables.js';
import { needsPostgres } from '../helpers/optional.js';
import { spawnStorePeer } from '../store/store-peer-process.js';
import type { BackendSpec } from '../store/store-peer-backend.js';
import { PG_URL, tempPostgres, tempSqlite, type TempDatabase } from '../store/temp-database.js';
import { billingStoreContract } from './billing-store.contract.js';
import { clientIdStoreContract } from './client-id-store.contract.js';
import { creditLeaseContract, type CreditLeaseFixture } from './credit-lease.contract.js';

/** The temp database's billing store, with a peer process opened on `spec` on first use (killed by cleanup). */
function withPeer(temp: TempDatabase, spec: BackendSpec): CreditLeaseFixture {
  let peer: Awaited<ReturnType<typeof spawnStorePeer>> | undefined;
  return {
    store: temp.stores.billing,
    database: temp.database,
    db: temp.database.tables<BillingTables>(),
    async openPeer() {
      peer ??= await spawnStorePeer(spec);
      return peer.billing;
    },
    async cleanup() {
      await peer?.kill();
      await temp.cleanup();
    },
  };
}

billingStoreContract('SQLite (temp file)', tempSqlite);
clientIdStoreContract('SQLite (temp file)', tempSqlite);
creditLeaseContract('SQLite (temp file)', async () => {
  const temp = await tempSqlite();
  return withPeer(temp, { kind: 'sqlite', file: temp.file });
});

needsPostgres.describe('PostgreSQL billing store', () => {
  const url = PG_URL ?? '';
  billingStoreContract('PostgreSQL (fresh schema)', () => tempPostgres(url));
  clientIdStoreContract('PostgreSQL (fresh schema)', () => tempPostgres(url));
  creditLeaseContract('PostgreSQL (fresh schema)', async () => {
    const temp = await tempPostgres(url);
    return withPeer(temp, { kind: 'postgres', url, schema: temp.schema });
  });
});
