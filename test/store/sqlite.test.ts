import { brandEventsContract } from './brand-events.contract.js';
import { storeContract } from './store.contract.js';
import { spawnStorePeer } from './store-peer-process.js';
import { tempSqlite } from './temp-database.js';

storeContract('SQLite (temp file)', tempSqlite);

// The peer is another OS process: two better-sqlite3 handles in one thread would only take turns.
async function sqliteWithPeer() {
  const temp = await tempSqlite();
  let peer: Awaited<ReturnType<typeof spawnStorePeer>> | undefined;
  return {
    migrate: temp.migrate,
    stores: temp.stores,
    db: temp.db,
    async openPeerQueue() {
      peer ??= await spawnStorePeer({ kind: 'sqlite', file: temp.file });
      return peer.queue;
    },
    async openPeerBrands() {
      peer ??= await spawnStorePeer({ kind: 'sqlite', file: temp.file });
      return peer.brands;
    },
    async cleanup() {
      await peer?.kill();
      await temp.cleanup();
    },
  };
}

brandEventsContract('SQLite (temp file)', sqliteWithPeer);
