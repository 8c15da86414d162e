import { describe } from 'vitest';
import { brandEventsContract } from './brand-events.contract.js';
import { storeContract } from './store.contract.js';
import { spawnStorePeer } from './store-peer-process.js';
import { PG_URL, tempPostgres } from './temp-database.js';

// Runs when BRANDBASE_TEST_PG_URL points at a PostgreSQL the suite may create and drop schemas in.
describe.skipIf(PG_URL === undefined)('PostgreSQL store', () => {
  storeContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));

  brandEventsContract('PostgreSQL (fresh schema)', async () => {
    const url = PG_URL ?? '';
    const temp = await tempPostgres(url);
    let peer: Awaited<ReturnType<typeof spawnStorePeer>> | undefined;
    return {
      store: temp.store,
      db: temp.db,
      async openPeer() {
        peer ??= await spawnStorePeer({ kind: 'postgres', url, schema: temp.schema });
        return peer.store;
      },
      async cleanup() {
        await peer?.kill();
        await temp.cleanup();
      },
    };
  });
});
