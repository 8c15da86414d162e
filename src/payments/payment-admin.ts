/**
 * The operator's and the dashboard's view of the money (issue 31: transports call services, never storage): the
 * pay-per-request ledger (`brandbase payments list|summary`), the embedded facilitator's and card processor's demo
 * funding (`payments fund|card-token`), and an organization's standing access (the dashboard's payments page).
 */
import type { AccessPurchase, AgentPayer, McpTokenRecord } from '../domain/access-purchases.js';
import type { ApiKeyRecord, CreditGrant } from '../domain/accounts.js';
import type { PaymentQuery, PaymentRecord, PaymentTotal } from '../domain/payments.js';
import type { AccessStore } from './access-store.js';
import type { PaymentLedger, PaymentStore } from './payment-store.js';
import { EmbeddedCardProcessor } from './embedded-card-processor.js';

/** The storage the view reads: the payments product's own, and the organization's keys, grants and access rows. */
export interface PaymentAdminStores {
  payments: Pick<PaymentStore, 'listPayments' | 'summarizePayments'> & Pick<PaymentLedger, 'creditLedger'>;
  access: Pick<AccessStore, 'issueCardToken' | 'chargeCardToken' | 'cardTokenCharge' | 'agentOfApiKey' | 'listAccessPurchases' | 'listMcpTokens'>;
  /** Billing's reads of an organization (declared here, not imported: payments depends on no part of the store facade, which is being taken apart). */
  accounts: {
    listApiKeys(orgId: string): Promise<ApiKeyRecord[]>;
    listCreditGrants(orgId: string): Promise<CreditGrant[]>;
  };
}

/** What an organization bought through standing access (spec 5.3, ADR 0029) and every prepaid credit grant. */
export interface OrganizationPayments {
  purchases: readonly AccessPurchase[];
  /** The organization's keys that standing access issued, with who paid for them. */
  accessKeys: readonly { key: ApiKeyRecord; payer: AgentPayer }[];
  mcpTokens: readonly McpTokenRecord[];
  grants: readonly CreditGrant[];
}

/** The embedded facilitator's asset, where `fund` credits a wallet; null when a remote facilitator settles. */
export interface EmbeddedLedger {
  network: string;
  asset: string;
}

export class PaymentAdmin {
  constructor(
    private readonly stores: PaymentAdminStores,
    private readonly ledger: EmbeddedLedger | null,
    /** Whether card tokens are issued here (cards on, no Stripe key): the embedded card processor. */
    private readonly embeddedCards: boolean,
  ) {}

  /** Settlements, newest first. */
  list(query: PaymentQuery): Promise<PaymentRecord[]> {
    return this.stores.payments.listPayments(query);
  }

  /** Revenue per method, network and asset. */
  summary(query: Omit<PaymentQuery, 'limit'>): Promise<PaymentTotal[]> {
    return this.stores.payments.summarizePayments(query);
  }

  /** Credits a wallet on the embedded ledger (offline demos and tests); refused when a remote facilitator settles. */
  async fund(address: string, units: bigint): Promise<{ network: string; asset: string; address: string; balance: bigint }> {
    if (this.ledger === null) throw new Error('payments fund only applies to the embedded facilitator (BRANDBASE_X402_FACILITATOR_URL is set)');
    const { network, asset } = this.ledger;
    return { network, asset, address, balance: await this.stores.payments.creditLedger(network, asset, address, units) };
  }

  /** A single-use card token of the embedded card processor, for up to `usd` whole dollars. */
  issueCardToken(usd: number, expiresInSeconds: number): Promise<{ token: string; expiresAt: Date }> {
    if (!this.embeddedCards) throw new Error('payments card-token only applies to the embedded card processor (cards are off, or BRANDBASE_MPP_STRIPE_SECRET_KEY is set)');
    return new EmbeddedCardProcessor(this.stores.access).issueToken({ maxAmount: BigInt(usd) * 100n, expiresInSeconds });
  }

  /** The newest `purchases` standing-access purchases of an organization, its access keys, MCP tokens and grants. */
  async ofOrganization(orgId: string, purchases: number): Promise<OrganizationPayments> {
    const [bought, keys, mcpTokens, grants] = await Promise.all([
      this.stores.access.listAccessPurchases(orgId, purchases),
      this.stores.accounts.listApiKeys(orgId),
      this.stores.access.listMcpTokens(orgId),
      this.stores.accounts.listCreditGrants(orgId),
    ]);
    const payers = await Promise.all(keys.map(async (key) => ({ key, payer: await this.stores.access.agentOfApiKey(key.id) })));
    const accessKeys = payers.filter((k): k is { key: ApiKeyRecord; payer: AgentPayer } => k.payer !== null);
    return { purchases: bought, accessKeys, mcpTokens, grants };
  }
}
