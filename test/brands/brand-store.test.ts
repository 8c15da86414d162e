/**
 * The brands store's contracts (brands/store/, issue 30) on SQLite and, when one answers, PostgreSQL: records and
 * identifiers, the crawl failure memory, the brand write log (with a second OS process saving at once) and refresh.
 */
import { describeEachBackend, type Backend } from '../helpers/backends.js';
import { PG_URL, tempPostgres, tempSqlite, type TempDatabase } from '../store/temp-database.js';
import { spawnStorePeer } from '../store/store-peer-process.js';
import type { BackendSpec } from '../store/store-peer-backend.js';
import { brandStoreContract } from './brand-store.contract.js';
import { brandWriteLogContract, type WriteLogFixture } from './brand-write-log.contract.js';
import { refreshStoreContract } from './refresh-store.contract.js';

/** A fresh database of `backend` and the spec another OS process opens it by. */
async function fresh(backend: Backend): Promise<{ temp: TempDatabase; spec: BackendSpec }> {
  if (backend === 'sqlite') {
    const temp = await tempSqlite();
    return { temp, spec: { kind: 'sqlite', file: temp.file } };
  }
  const url = PG_URL ?? '';
  const temp = await tempPostgres(url);
  return { temp, spec: { kind: 'postgres', url, schema: temp.schema } };
}

// The peer is another OS process: two better-sqlite3 handles in one thread would only take turns.
async function withPeer(backend: Backend): Promise<WriteLogFixture> {
  const { temp, spec } = await fresh(backend);
  let peer: Awaited<ReturnType<typeof spawnStorePeer>> | undefined;
  return {
    stores: temp.stores,
    database: temp.database,
    async openPeer() {
      peer ??= await spawnStorePeer(spec);
      return peer.brands;
    },
    async cleanup() {
      await peer?.kill();
      await temp.cleanup();
    },
  };
}

describeEachBackend('brand store', (backend) => {
  const open = async () => (await fresh(backend)).temp;
  brandStoreContract(backend, open);
  refreshStoreContract(backend, open);
  brandWriteLogContract(backend, () => withPeer(backend));
});
