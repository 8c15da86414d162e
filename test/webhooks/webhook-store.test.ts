/** The webhooks' store contracts (management and the delivery outbox) on a SQLite temp file and, when one answers, a fresh PostgreSQL schema. */
import { webhookAdminContract } from './webhook-admin.contract.js';
import { webhookDeliveryContract } from './webhook-delivery.contract.js';
import { PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';

webhookAdminContract('SQLite (temp file)', tempSqlite);
webhookDeliveryContract('SQLite (temp file)', tempSqlite);

needsPostgres.describe('PostgreSQL webhooks store', () => {
  webhookAdminContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
  webhookDeliveryContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
