/** How a child process opens the parent's test database: the SQLite file, or the PostgreSQL URL and schema. */
import { openPostgresStore, openSqliteStore, type OpenedStore } from './open-store.js';
import type { ProductStores } from '../../src/main/product-stores.js';

export type BackendSpec = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string };

/** Every product's store over the parent's database, as main/ builds them (the queue and the events among them). */
export async function openBackendStores(spec: BackendSpec): Promise<ProductStores> {
  return (await openBackendDatabaseStores(spec)).stores;
}

/** The same, with the database handle for SQL a test reads. */
export function openBackendDatabaseStores(spec: BackendSpec): Promise<OpenedStore> {
  return spec.kind === 'sqlite' ? openSqliteStore({ file: spec.file }) : openPostgresStore({ url: spec.url, schema: spec.schema });
}
