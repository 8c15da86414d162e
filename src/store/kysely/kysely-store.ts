/**
 * The one Store implementation, written against Kysely so SQLite and PostgreSQL share every query. The
 * backends (src/db/sqlite, src/db/postgres) open the kernel's Database: the handle, and the dialect quirks for what differs.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Store } from '../store.js';
import type { BrandStore, BrandWriteLog, RefreshStore } from '../../brands/brand-store.js';
import * as webhookDeliveries from './webhook-delivery-rows.js';
import * as webhookAdmin from './webhook-admin-rows.js';
import type { DisabledWebhook, WebhookAttemptRecord, WebhookDeliveryToSend, WebhookFanOut } from '../store.js';
import type { JobQueue } from '../../jobs/queue.js';
import { SqlJobQueue } from '../../jobs/sql/sql-job-queue.js';
import type { Database as Db } from '../../db/database.js';
import { migrateToLatest, type ProductMigrations } from '../../db/migrations.js';
import { MIGRATIONS } from './migrations.js';
import type { Database } from './schema.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';

export interface KyselyStoreOptions {
  /** The brands product's store (brands/store/, built by main/product-stores.ts): the brand members delegate to it. */
  brands: BrandStore & BrandWriteLog & RefreshStore;
  migrations?: readonly ProductMigrations[];
  /** Webhook deliveries are enqueued here, in the transaction that inserts them; the queue on `database` by default. */
  jobs?: Pick<JobQueue, 'enqueue' | 'makeDue' | 'complete' | 'fail'>;
}

export class KyselyStore implements Store {
  private readonly db: Kysely<Database>;
  private readonly quirks: DialectQuirks;
  private readonly brands: BrandStore & BrandWriteLog & RefreshStore;
  private readonly migrations: readonly ProductMigrations[];
  private readonly jobs: Pick<JobQueue, 'enqueue' | 'makeDue' | 'complete' | 'fail'>;

  /**
   * `brands` answers the brand members; `migrations` are what `migrate()` runs (main/'s product list; the store's own
   * migrations alone when absent).
   */
  constructor(private readonly database: Db, options: KyselyStoreOptions) {
    this.brands = options.brands;
    this.migrations = options.migrations ?? [MIGRATIONS];
    this.jobs = options.jobs ?? new SqlJobQueue(database);
    this.db = database.tables<Database>();
    this.quirks = database.quirks;
  }

  // ---- brands: the brands product's store (brands/store/kysely-brand-store.ts), until Store goes (issue 30) ----

  getBrand: Store['getBrand'] = (id) => this.brands.getBrand(id);
  findBrandByIdentifier: Store['findBrandByIdentifier'] = (ref) => this.brands.findBrandByIdentifier(ref);
  saveBrand: Store['saveBrand'] = (stored, identifiers, options) => this.brands.saveBrand(stored, identifiers, options);
  insertBrands: Store['insertBrands'] = (brands) => this.brands.insertBrands(brands);
  setBrandStatus: Store['setBrandStatus'] = (id, status, at) => this.brands.setBrandStatus(id, status, at);
  listIdentifiers: Store['listIdentifiers'] = (brandId) => this.brands.listIdentifiers(brandId);

  // ---- crawl failure memory (brands/store/crawl-failure-memory.ts) ----

  getCrawlFailure: Store['getCrawlFailure'] = (domain) => this.brands.getCrawlFailure(domain);
  recordCrawlFailure: Store['recordCrawlFailure'] = (failure) => this.brands.recordCrawlFailure(failure);
  clearCrawlFailures: Store['clearCrawlFailures'] = (domains) => this.brands.clearCrawlFailures(domains);
  pruneCrawlFailures: Store['pruneCrawlFailures'] = (before) => this.brands.pruneCrawlFailures(before);

  // ---- webhook outbox (webhook-delivery-rows.ts, ADR 0031) ----

  fanOutWebhookEvent(fanOut: WebhookFanOut): Promise<number> {
    return webhookDeliveries.fanOutWebhookEvent(this.db, this.quirks, this.jobs, fanOut);
  }

  webhookDeliveryToSend(deliveryId: string): Promise<WebhookDeliveryToSend | null> {
    return webhookDeliveries.webhookDeliveryToSend(this.db, deliveryId);
  }

  recordWebhookAttempt(record: WebhookAttemptRecord): Promise<boolean> {
    return webhookDeliveries.recordWebhookAttempt(this.db, this.quirks, this.jobs, record);
  }

  postponeWebhookDelivery(deliveryId: string, until: Date): Promise<void> {
    return webhookDeliveries.postponeWebhookDelivery(this.db, deliveryId, until);
  }

  disableFailingWebhooks(failingSince: Date, now: Date): Promise<DisabledWebhook[]> {
    return webhookDeliveries.disableFailingWebhooks(this.db, failingSince, now);
  }

  claimAbandonNotice(webhookId: string, now: Date, minIntervalMs: number): Promise<boolean> {
    return webhookDeliveries.claimAbandonNotice(this.db, webhookId, now, minIntervalMs);
  }

  // ---- webhook management (webhook-admin-rows.ts; GraphQL and `brandbase webhooks`) ----

  insertWebhook: Store['insertWebhook'] = (webhook) => webhookAdmin.insertWebhook(this.db, webhook);
  getWebhook: Store['getWebhook'] = (orgId, id) => webhookAdmin.getWebhook(this.db, orgId, id);
  listWebhooks: Store['listWebhooks'] = (orgId, after, limit) => webhookAdmin.listWebhooks(this.db, orgId, after, limit);
  updateWebhook: Store['updateWebhook'] = (orgId, id, patch, at) => webhookAdmin.updateWebhook(this.db, this.jobs, orgId, id, patch, at);
  rotateWebhookSecret: Store['rotateWebhookSecret'] = (orgId, id, rotation, at) => webhookAdmin.rotateWebhookSecret(this.db, orgId, id, rotation, at);
  deleteWebhook: Store['deleteWebhook'] = (orgId, id) => webhookAdmin.deleteWebhook(this.db, this.quirks, orgId, id);
  addWebhookSubscriptions: Store['addWebhookSubscriptions'] = (orgId, webhookId, domains, at) =>
    webhookAdmin.addWebhookSubscriptions(this.db, this.quirks, orgId, webhookId, domains, at);
  removeWebhookSubscriptions: Store['removeWebhookSubscriptions'] = (orgId, webhookId, domains) =>
    webhookAdmin.removeWebhookSubscriptions(this.db, this.quirks, orgId, webhookId, domains);
  listWebhookSubscriptions: Store['listWebhookSubscriptions'] = (orgId, webhookId, after, limit) =>
    webhookAdmin.listWebhookSubscriptions(this.db, orgId, webhookId, after, limit);
  insertWebhookDelivery: Store['insertWebhookDelivery'] = (delivery) => webhookAdmin.insertWebhookDelivery(this.db, this.quirks, this.jobs, delivery);
  listWebhookDeliveries: Store['listWebhookDeliveries'] = (orgId, webhookId, query) => webhookAdmin.listWebhookDeliveries(this.db, orgId, webhookId, query);
  listWebhookAttempts: Store['listWebhookAttempts'] = (deliveryIds) => webhookAdmin.listWebhookAttempts(this.db, deliveryIds);

  // ---- refresh, popularity, analysis cache, mark signatures (brands/store/refresh-rows.ts, migration 0014) ----

  addBrandLookups: Store['addBrandLookups'] = (counts) => this.brands.addBrandLookups(counts);
  brandLookups: Store['brandLookups'] = (brandId) => this.brands.brandLookups(brandId);
  saveMarkSignatures: Store['saveMarkSignatures'] = (marks, at) => this.brands.saveMarkSignatures(marks, at);
  markSignatures: Store['markSignatures'] = (keys) => this.brands.markSignatures(keys);
  loadAnalyses: Store['loadAnalyses'] = (domain, at) => this.brands.loadAnalyses(domain, at);
  saveAnalyses: Store['saveAnalyses'] = (domain, entries, at, maxRows) => this.brands.saveAnalyses(domain, entries, at, maxRows);
  analysisCacheSize: Store['analysisCacheSize'] = () => this.brands.analysisCacheSize();
  dueBrands: Store['dueBrands'] = (staleBefore, limit, failedSince) => this.brands.dueBrands(staleBefore, limit, failedSince);
  refreshCounts: Store['refreshCounts'] = (staleBefore) => this.brands.refreshCounts(staleBefore);
  acquireRefreshLease: Store['acquireRefreshLease'] = (name, holder, leaseMs, now) => this.brands.acquireRefreshLease(name, holder, leaseMs, now);
  releaseRefreshLease: Store['releaseRefreshLease'] = (name, holder, now) => this.brands.releaseRefreshLease(name, holder, now);
  recordRefreshRun: Store['recordRefreshRun'] = (name, run) => this.brands.recordRefreshRun(name, run);
  refreshState: Store['refreshState'] = (name) => this.brands.refreshState(name);

  // ---- brand write log (brands/store/brand-write-log.ts) ----

  latestBrandWrite: Store['latestBrandWrite'] = () => this.brands.latestBrandWrite();
  brandWritesAfter: Store['brandWritesAfter'] = (after, limit) => this.brands.brandWritesAfter(after, limit);

  // ---- lifecycle ----

  /** The migrations the store was given (main/'s product list; tests migrate a store through this). */
  async migrate(): Promise<void> {
    await migrateToLatest(this.database, this.migrations);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  /** Closes the Database, which the queue may share: close the store last. Idempotent. */
  async close(): Promise<void> {
    await this.database.close();
  }
}
