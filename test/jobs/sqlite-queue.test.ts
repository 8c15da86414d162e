import { createSqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { tempSqlite } from '../store/temp-database.js';
import { queueContract } from './queue.contract.js';
import type { QueueHarness } from './queue.contract.js';
import { spawnQueuePeer } from './queue-peer-process.js';
import { insertActiveJobRow } from './raw-job-row.js';

async function openHarness(): Promise<QueueHarness> {
  const temp = await tempSqlite();
  await temp.migrate();
  const peers: Array<{ kill(): Promise<void> }> = [];
  return {
    queue: createSqlJobQueue(temp.database),
    // Another OS process on the same file: better-sqlite3 is synchronous, so a second handle in this thread
    // would wait on our own lock for busy_timeout instead of running concurrently.
    async openPeer() {
      const peer = await spawnQueuePeer(temp.file);
      peers.push(peer);
      return { queue: peer.queue, close: () => peer.kill() };
    },
    insertActiveRow: (id, name, key) => insertActiveJobRow(temp.db, id, name, key),
    transaction: (fn) => temp.database.quirks.writeTransaction(temp.database.tables<unknown>(), fn),
    async cleanup() {
      await Promise.all(peers.map((peer) => peer.kill()));
      await temp.cleanup();
    },
  };
}

queueContract('SQL queue on SQLite (temp file per test)', openHarness);
