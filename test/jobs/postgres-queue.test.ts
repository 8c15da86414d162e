import { createSqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { PG_URL, tempPostgres } from '../store/temp-database.js';
import { queueContract } from './queue.contract.js';
import type { QueueHarness } from './queue.contract.js';
import { insertActiveJobRow } from './raw-job-row.js';
import { needsPostgres } from '../helpers/optional.js';

async function openHarness(url: string): Promise<QueueHarness> {
  const temp = await tempPostgres(url);
  await temp.migrate();
  return {
    queue: createSqlJobQueue(temp.database),
    // A second pg Pool on the same schema: its own connections, as another process would hold.
    async openPeer() {
      const peer = await temp.openPeer();
      return { queue: createSqlJobQueue(peer.database), close: () => peer.database.close() };
    },
    insertActiveRow: (id, name, key) => insertActiveJobRow(temp.db, id, name, key),
    transaction: (fn) => temp.database.quirks.writeTransaction(temp.database.tables<unknown>(), fn),
    cleanup: temp.cleanup,
  };
}

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
needsPostgres.describe('PostgreSQL job queue', () => {
  queueContract('SQL queue on PostgreSQL (fresh schema per test)', () => openHarness(PG_URL ?? ''));
});
