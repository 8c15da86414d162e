/**
 * Resolvers of the webhook schema (webhook-schema.ts): each calls one WebhookManagement operation with the
 * organization of the request's API key and shapes the answer (enum names, connections, ISO dates).
 */
import { GraphQLError, Kind, type ValueNode } from 'graphql';
import type { Organization } from '../../domain/accounts.js';
import type { Webhook, WebhookAttempt, WebhookEventKind } from '../../domain/webhooks.js';
import type { Page } from '../../webhooks/management/page-cursor.js';
import type { DeliveryView, WebhookManagement } from '../../webhooks/management/webhook-management.js';
import type { MerchantCorrections } from '../../transactions/corrections/merchant-corrections.js';

export interface GraphqlContext {
  org: Organization;
  management: WebhookManagement;
  /** Merchant corrections (merchant-correction-resolvers.ts). */
  corrections: MerchantCorrections;
  /** Who is acting, as the corrections' audit trail records it: the API key's id. */
  actor: string;
  /** The HTTP request: crawls a mutation queues carry it into the worker's log lines (`reqId`, ADR 0039). */
  requestId?: string;
  /** The operation the request names: the route measures its cost before it runs (graphql-route.ts). */
  operationName?: string | null;
}

/** `brand.rebranded` ↔ `BRAND_REBRANDED`: GraphQL enum values cannot hold dots. */
export function kindToEnum(kind: string): string {
  return kind.replace('.', '_').toUpperCase();
}

export function enumToKind(value: string): WebhookEventKind {
  return value.toLowerCase().replace('_', '.') as WebhookEventKind;
}

function connection<T>(page: Page<T>) {
  return {
    edges: page.edges,
    pageInfo: { hasNextPage: page.hasNextPage, hasPreviousPage: false, startCursor: page.edges[0]?.cursor ?? null, endCursor: page.endCursor },
  };
}

function parseDateTime(value: unknown): Date {
  if (typeof value !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:\d\d)$/.test(value)) {
    throw new GraphQLError('DateTime must be an ISO 8601 date and time with a time zone, e.g. 2026-11-25T06:00:00Z');
  }
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new GraphQLError(`Invalid DateTime: ${value}`);
  return date;
}

type Args = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' ? v : null);

interface WebhookInputArgs {
  url?: string | null;
  name?: string | null;
  events?: string[] | null;
  authorization?: string | null;
  enabled?: boolean | null;
}

/** Enum names to kinds; `authorization` kept absent when absent (null means "remove" on update). */
function webhookInput(input: WebhookInputArgs) {
  const { events, ...rest } = input;
  return { ...rest, ...(events === undefined || events === null ? {} : { events: events.map(enumToKind) }) };
}

function deliveryArgs(args: Args) {
  const filter = (args.filter ?? null) as { from?: Date | null; to?: Date | null } | null;
  return { from: filter?.from ?? null, to: filter?.to ?? null, first: int(args.first), after: str(args.after) };
}

export const webhookResolvers = {
  DateTime: {
    serialize: (value: unknown) => (value instanceof Date ? value.toISOString() : parseDateTime(value).toISOString()),
    parseValue: parseDateTime,
    parseLiteral: (ast: ValueNode) => {
      if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string');
      return parseDateTime(ast.value);
    },
  },
  Query: {
    webhooks: async (_: unknown, args: Args, { org, management }: GraphqlContext) =>
      connection(await management.list(org, { first: int(args.first), after: str(args.after) })),
    webhook: (_: unknown, args: { id: string }, { org, management }: GraphqlContext) => management.get(org, args.id),
  },
  Mutation: {
    createWebhook: (_: unknown, args: { input: WebhookInputArgs & { url: string } }, { org, management }: GraphqlContext) =>
      management.create(org, { ...webhookInput(args.input), url: args.input.url }),
    updateWebhook: (_: unknown, args: { id: string; input: WebhookInputArgs }, { org, management }: GraphqlContext) =>
      management.update(org, args.id, webhookInput(args.input)),
    deleteWebhook: async (_: unknown, args: { id: string }, { org, management }: GraphqlContext) => {
      await management.delete(org, args.id);
      return { deletedWebhookId: args.id };
    },
    rotateWebhookSecret: (_: unknown, args: { id: string; expireCurrentInSeconds?: number | null }, { org, management }: GraphqlContext) =>
      management.rotateSecret(org, args.id, args.expireCurrentInSeconds),
    addWebhookSubscriptions: (_: unknown, args: { webhookId: string; domains: string[] }, { org, management, requestId }: GraphqlContext) =>
      management.addSubscriptions(org, args.webhookId, args.domains, requestId),
    removeWebhookSubscriptions: (_: unknown, args: { webhookId: string; domains: string[] }, { org, management }: GraphqlContext) =>
      management.removeSubscriptions(org, args.webhookId, args.domains),
    sendTestEvent: async (_: unknown, args: { webhookId: string; domain?: string | null }, { org, management }: GraphqlContext) => ({
      delivery: await management.sendTestEvent(org, args.webhookId, args.domain),
    }),
  },
  Webhook: {
    events: (w: Webhook) => w.events.map(kindToEnum),
    disabledReason: (w: Webhook) => w.disabledReason?.toUpperCase() ?? null,
    subscriptions: async (w: Webhook, args: Args, { org, management }: GraphqlContext) =>
      connection(await management.subscriptions(org, w, { first: int(args.first), after: str(args.after) })),
    deliveries: async (w: Webhook, args: Args, { org, management }: GraphqlContext) => connection(await management.deliveries(org, w, deliveryArgs(args))),
  },
  WebhookDelivery: {
    kind: (d: DeliveryView) => kindToEnum(d.kind),
    state: (d: DeliveryView) => d.state.toUpperCase(),
    attemptCount: (d: DeliveryView) => d.attempts,
    attempts: (d: DeliveryView): WebhookAttempt[] => d.attemptList,
  },
};
