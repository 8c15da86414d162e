/**
 * The one place that lists every product's storage (issue 30): the migrations in the order their parts of one name
 * run, and the stores built from one kernel Database, with the brand save hooks in the order they run in a save.
 * Services (services.ts), the CLI and the tests take their stores from here; no store spans two products.
 */
import type { Database } from '../db/database.js';
import type { ProductMigrations } from '../db/migrations.js';
import type { BrandSaveHook } from '../brands/brand-save-hooks.js';
import type { BrandStore, BrandWriteLog, RefreshStore } from '../brands/brand-store.js';
import { KyselyBrandStore } from '../brands/store/kysely-brand-store.js';
import { brandMigrations } from '../brands/store/brand-migrations.js';
import type { BillingStore } from '../billing/billing-store.js';
import { KyselyBillingStore } from '../billing/store/kysely-billing-store.js';
import { billingMigrations } from '../billing/store/billing-migrations.js';
import type { PaletteStore } from '../palette/palette-store.js';
import { KyselyPaletteStore } from '../palette/store/kysely-palette-store.js';
import { paletteMigrations } from '../palette/store/palette-migrations.js';
import { paletteSaveHook } from '../palette/store/palette-save-hook.js';
import type { ContextStore } from '../context/context-store.js';
import { KyselyContextStore } from '../context/store/kysely-context-store.js';
import { contextMigrations } from '../context/store/context-migrations.js';
import { contextSaveHook } from '../context/store/context-save-hook.js';
import type { LogoEvidenceStore } from '../brands/logo-evidence/logo-evidence-store.js';
import { KyselyLogoEvidenceStore } from '../brands/logo-evidence/store/kysely-logo-evidence-store.js';
import { logoEvidenceMigrations } from '../brands/logo-evidence/store/logo-evidence-migrations.js';
import { logoEvidenceSaveHook } from '../brands/logo-evidence/store/logo-evidence-save-hook.js';
import type { ReferenceData } from '../refdata/reference-data.js';
import { KyselyReferenceData } from '../refdata/store/kysely-reference-data.js';
import { refdataMigrations } from '../refdata/store/refdata-migrations.js';
import type { SearchIndexStore } from '../search/search-store.js';
import { KyselySearchStore } from '../search/store/kysely-search-store.js';
import { searchMigrations } from '../search/store/search-migrations.js';
import { searchSaveHook } from '../search/store/search-save-hook.js';
import type { AccessStore } from '../payments/access-store.js';
import type { PaymentLedger, PaymentStore } from '../payments/payment-store.js';
import { KyselyAccessStore } from '../payments/store/kysely-access-store.js';
import { KyselyPaymentStore } from '../payments/store/kysely-payment-store.js';
import { paymentMigrations } from '../payments/store/payment-migrations.js';
import { jobMigrations } from '../jobs/sql/job-migrations.js';
import type { DashboardAccountStore } from '../dashboard-accounts/dashboard-account-store.js';
import { KyselyDashboardAccountStore } from '../dashboard-accounts/store/kysely-dashboard-account-store.js';
import { dashboardAccountMigrations } from '../dashboard-accounts/store/dashboard-account-migrations.js';
import type { BrandEventStore } from '../events/brand-event-store.js';
import { KyselyBrandEventStore } from '../events/store/kysely-brand-event-store.js';
import { BrandEventSaveHook } from '../events/store/brand-event-save-hook.js';
import { eventMigrations } from '../events/store/event-migrations.js';
import type { WebhookStore } from '../webhooks/webhook-store.js';
import { KyselyWebhookStore } from '../webhooks/store/kysely-webhook-store.js';
import { webhookMigrations } from '../webhooks/store/webhook-migrations.js';
import type { MerchantCorrectionStore } from '../transactions/corrections/merchant-correction-store.js';
import { KyselyMerchantCorrectionStore } from '../transactions/corrections/store/kysely-merchant-correction-store.js';
import { merchantCorrectionMigrations } from '../transactions/corrections/store/merchant-correction-migrations.js';
import type { JobQueue } from '../jobs/queue.js';
import { SqlJobQueue } from '../jobs/sql/sql-job-queue.js';


/**
 * Every product's migrations, in the order their parts of one name run (src/db/migrations.ts): the brands first, whose
 * tables the others reference ('0001_initial' created them before the rest), then billing, whose organizations and API
 * keys the webhooks', dashboard accounts' and standing access' tables reference.
 */
export const PRODUCT_MIGRATIONS: readonly ProductMigrations[] = [brandMigrations, billingMigrations, jobMigrations, paletteMigrations, contextMigrations, logoEvidenceMigrations, dashboardAccountMigrations, paymentMigrations, refdataMigrations, searchMigrations, webhookMigrations, eventMigrations, merchantCorrectionMigrations];

export interface ProductStores {
  /** Brand records and identifiers, the save, the crawl failure memory, the brand write log and scheduled refresh. */
  brands: BrandStore & BrandWriteLog & RefreshStore;
  /** Organizations, API keys, the usage ledger, credits and credit leases, client IDs and daily usage. */
  billing: BillingStore;
  /**
   * The brand save hooks, in the order they run; the brand store keeps this list by reference, so services append
   * the hooks that need what is built after the stores (the palette render job needs the queue) before the first save.
   */
  saveHooks: BrandSaveHook[];
  palette: PaletteStore;
  context: ContextStore;
  logoEvidence: LogoEvidenceStore;
  /** Pay-per-request claims and settlements, and the embedded facilitator's ledger (ADR 0028). */
  payments: PaymentStore & PaymentLedger;
  /** Standing access (ADR 0029): a purchase writes billing's organization, key and grant through its writer. */
  access: AccessStore;
  dashboardAccounts: DashboardAccountStore;
  referenceData: ReferenceData;
  search: SearchIndexStore;
  /** The one job queue (ADR 0049), on the same Database: hooks and stores enqueue in their callers' transactions. */
  queue: JobQueue;
  events: BrandEventStore;
  /** Webhooks, their subscriptions and the delivery outbox; deliveries are enqueued on `queue` in their inserting transaction. */
  webhooks: WebhookStore;
  /** Organizations' merchant corrections and the operator's aliases (issue 34, ADR 0053). */
  merchantCorrections: MerchantCorrectionStore;
}

/** What a brand save writes beside the record, in this order, in its transaction. */
function brandSaveHooks(queue: JobQueue): BrandSaveHook[] {
  return [paletteSaveHook, contextSaveHook, logoEvidenceSaveHook, searchSaveHook, new BrandEventSaveHook(queue)];
}

/** Every product's store over one Database (not migrated: migrateToLatest with PRODUCT_MIGRATIONS does that). */
export function openProductStores(database: Database): ProductStores {
  const queue = new SqlJobQueue(database);
  const saveHooks = brandSaveHooks(queue);
  const brands = new KyselyBrandStore(database, { saveHooks });
  const billing = new KyselyBillingStore(database);
  return {
    brands,
    billing,
    saveHooks,
    palette: new KyselyPaletteStore(database),
    context: new KyselyContextStore(database),
    logoEvidence: new KyselyLogoEvidenceStore(database),
    dashboardAccounts: new KyselyDashboardAccountStore(database),
    payments: new KyselyPaymentStore(database),
    access: new KyselyAccessStore(database, billing.purchasedAccounts),
    referenceData: new KyselyReferenceData(database),
    search: new KyselySearchStore(database),
    queue,
    events: new KyselyBrandEventStore(database),
    webhooks: new KyselyWebhookStore(database, queue),
    merchantCorrections: new KyselyMerchantCorrectionStore(database),
  };
}
