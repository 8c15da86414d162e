import { brandEventsContract } from './brand-events.contract.js';
import { storeContract } from './store.contract.js';
import { spawnStorePeer } from './store-peer-process.js';
import { PG_URL, tempPostgres } from './temp-database.js';
import { needsPostgres } from '../helpers/optional.js';

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
needsPostgres.describe('PostgreSQL store', () => {
  storeContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));

  const withPeer = async () => {
    const url = PG_URL ?? '';
    const temp = await tempPostgres(url);
    let peer: Awaited<ReturnType<typeof spawnStorePeer>> | undefined;
    return {
      migrate: temp.migrate,
      stores: temp.stores,
      db: temp.db,
      async openPeerQueue() {
        peer ??= await spawnStorePeer({ kind: 'postgres', url, schema: temp.schema });
        return peer.queue;
      },
      async openPeerBrands() {
        peer ??= await spawnStorePeer({ kind: 'postgres', url, schema: temp.schema });
        return peer.brands;
      },
      async cleanup() {
        await peer?.kill();
        await temp.cleanup();
      },
    };
  };

  brandEventsContract('PostgreSQL (fresh schema)', withPeer);
});
