/**
 * Emails to an organization's billing contacts about its webhooks (spec section 3): a delivery abandoned after
 * its last attempt (at most one email per webhook per day, claimed in the store so two senders never both send
 * it), and a webhook disabled by the 14-day rule. Emails name the webhook and its id, never its URL. A failed
 * email is logged, not retried: the state it reports is visible in the management API anyway.
 */
import type { Mailer } from '../../billing/mailer.js';
import type { Logger } from '../../platform/logger.js';
import type { AccountStore } from '../../billing/billing-store.js';
import type { ClaimedWebhookDelivery, DisabledWebhook, WebhookDeliveryStore } from '../webhook-store.js';
import { MAX_DELIVERY_ATTEMPTS } from './retry-schedule.js';

export const ABANDON_NOTICE_INTERVAL_MS = 24 * 60 * 60 * 1000;

export class DeliveryNotices {
  constructor(
    /** The organization's billing contacts (`accounts`), and the webhooks' once-a-day claim of the abandon email. */
    private readonly stores: { accounts: Pick<AccountStore, 'getOrganization'>; webhooks: Pick<WebhookDeliveryStore, 'claimAbandonNotice'> },
    private readonly mailer: Mailer,
    private readonly logger: Logger,
  ) {}

  /** After a delivery was abandoned. */
  async abandoned(delivery: ClaimedWebhookDelivery, lastOutcome: string, now: Date): Promise<void> {
    const log = { webhookId: delivery.webhookId, deliveryId: delivery.id, orgId: delivery.orgId };
    if (!(await this.stores.webhooks.claimAbandonNotice(delivery.webhookId, now, ABANDON_NOTICE_INTERVAL_MS))) {
      this.logger.info(log, 'webhook delivery abandoned; owner already emailed today');
      return;
    }
    await this.#send(delivery.orgId, log, `Brandbase: a webhook delivery was abandoned (${delivery.webhookId})`, [
      `A ${delivery.kind} event for ${delivery.domain} could not be delivered to webhook ${delivery.webhookId}.`,
      `Delivery: ${delivery.id} (event ${delivery.eventId})`,
      `Attempts: ${MAX_DELIVERY_ATTEMPTS}, over about a week. Last outcome: ${lastOutcome}`,
      '',
      'The endpoint must answer 2xx. Its deliveries and attempts are listed by the management API (POST /graphql).',
      'An endpoint with no accepted delivery for 14 days is disabled.',
      'This email is sent at most once a day per webhook.',
    ]);
  }

  /** After the 14-day rule disabled a webhook. */
  async disabled(webhook: DisabledWebhook): Promise<void> {
    const log = { webhookId: webhook.id, orgId: webhook.orgId };
    await this.#send(webhook.orgId, log, `Brandbase: webhook "${webhook.name}" was disabled`, [
      `Webhook "${webhook.name}" (${webhook.id}) has had no accepted delivery for 14 days and was disabled.`,
      'No deliveries are sent to it while it is disabled; pending ones are kept.',
      'Fix the endpoint, then enable it again (updateWebhook with enabled: true); pending deliveries resume.',
    ]);
  }

  async #send(orgId: string, log: Record<string, string>, subject: string, lines: string[]): Promise<void> {
    if (!this.mailer.sends) {
      this.logger.warn(log, 'webhook notice not sent: no mail server configured (BRANDBASE_SMTP_URL is empty)');
      return;
    }
    const org = await this.stores.accounts.getOrganization(orgId);
    if (org === null || org.billingContacts.length === 0) {
      this.logger.warn(log, 'webhook notice not sent: the organization has no billing contacts');
      return;
    }
    try {
      await this.mailer.send({ to: org.billingContacts, subject, text: [`Organization: ${org.name} (${org.id})`, '', ...lines].join('\n') });
      this.logger.info({ ...log, recipients: org.billingContacts.length }, 'webhook notice sent');
    } catch (err) {
      this.logger.error({ ...log, err }, 'webhook notice could not be sent');
    }
  }
}
