import { MAX_DELIVERY_ATTEMPTS } from '../../webhooks/delivery/retry-schedule.js';
import { MAX_DOMAINS_PER_CALL } from '../../webhooks/management/subscription-domains.js';

/**
 * The GraphQL schema of `POST /graphql` (webhook management, spec 6 rule 5), as SDL: the one source for the server
 * (graphql-route.ts) and for the schema printed in docs/webhooks.md (test/http/graphql/graphql-doc.test.ts
 * checks the doc's block equals `printSchema` of the served schema).
 */
export const WEBHOOK_SDL = /* GraphQL */ `
"""An instant in ISO 8601, UTC, with milliseconds (2026-11-25T06:00:00.000Z)."""
scalar DateTime

"""What a delivery announces. WEBHOOK_TEST is sent by sendTestEvent only and cannot be subscribed to."""
enum WebhookEventKind {
  BRAND_REBRANDED
  BRAND_UPDATED
  WEBHOOK_TEST
}

enum WebhookDisabledReason {
  """Disabled by its owner (updateWebhook with enabled: false)."""
  MANUAL
  """Disabled after 14 days without an accepted delivery."""
  FAILING
}

enum WebhookDeliveryState {
  PENDING
  DELIVERED
  ABANDONED
}

"""Relay page information. Paging is forward only (first/after): hasPreviousPage is always false."""
type PageInfo {
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
  endCursor: String
}

type Webhook {
  id: ID!
  name: String!
  url: String!
  events: [WebhookEventKind!]!
  enabled: Boolean!
  disabledReason: WebhookDisabledReason
  """True when an Authorization header value is configured; the value is never shown again."""
  hasAuthorization: Boolean!
  createdAt: DateTime!
  updatedAt: DateTime!
  lastAcceptedAt: DateTime
  """Subscribed registrable domains, by domain. first: default 100, at most 100."""
  subscriptions(first: Int, after: String): WebhookSubscriptionConnection!
  """Deliveries newest first (createdAt desc, then id). first: default 100, at most 100."""
  deliveries(filter: WebhookDeliveryFilter, first: Int, after: String): WebhookDeliveryConnection!
}

type WebhookEdge {
  cursor: String!
  node: Webhook!
}

type WebhookConnection {
  edges: [WebhookEdge!]!
  pageInfo: PageInfo!
}

type WebhookSubscription {
  domain: String!
  createdAt: DateTime!
}

type WebhookSubscriptionEdge {
  cursor: String!
  node: WebhookSubscription!
}

type WebhookSubscriptionConnection {
  edges: [WebhookSubscriptionEdge!]!
  pageInfo: PageInfo!
}

"""Bounds on a delivery's createdAt: from inclusive, to exclusive."""
input WebhookDeliveryFilter {
  from: DateTime
  to: DateTime
}

type WebhookAttempt {
  attempt: Int!
  startedAt: DateTime!
  """Null when no response arrived (refused address, timeout, connection error)."""
  statusCode: Int
  latencyMs: Int!
  responseExcerpt: String
  error: String
  sourceAddress: String
}

type WebhookDelivery {
  """The webhook-id header of every attempt."""
  id: ID!
  eventId: String!
  kind: WebhookEventKind!
  domain: String!
  state: WebhookDeliveryState!
  attemptCount: Int!
  createdAt: DateTime!
  deliveredAt: DateTime
  nextAttemptAt: DateTime
  attempts: [WebhookAttempt!]!
}

type WebhookDeliveryEdge {
  cursor: String!
  node: WebhookDelivery!
}

type WebhookDeliveryConnection {
  edges: [WebhookDeliveryEdge!]!
  pageInfo: PageInfo!
}

type Query {
  """The organization's webhooks, newest first. first: default 100, at most 100."""
  webhooks(first: Int, after: String): WebhookConnection!
  """A webhook of the organization; a missing id or another organization's answers the error webhook_not_found."""
  webhook(id: ID!): Webhook
}

input CreateWebhookInput {
  """https only (http only for hosts of BRANDBASE_CRAWL_HOSTS); no credentials, no private address."""
  url: String!
  """Default: the URL's host name."""
  name: String
  """Default: [BRAND_REBRANDED, BRAND_UPDATED]."""
  events: [WebhookEventKind!]
  """The Authorization header value sent with every delivery."""
  authorization: String
  """Default: true."""
  enabled: Boolean
}

"""Absent or null fields stay unchanged, except authorization: null or "" removes the header."""
input UpdateWebhookInput {
  url: String
  name: String
  events: [WebhookEventKind!]
  authorization: String
  enabled: Boolean
}

type CreateWebhookPayload {
  webhook: Webhook!
  """The signing secret (whsec_...), shown this once."""
  secret: String!
}

type RotateWebhookSecretPayload {
  webhook: Webhook!
  """The new signing secret, shown this once."""
  secret: String!
  """Until when the previous secret also signs (a second signature); null when it stopped at once."""
  previousSecretExpiresAt: DateTime
}

type DeleteWebhookPayload {
  deletedWebhookId: ID!
}

type InvalidDomain {
  input: String!
  message: String!
}

type WebhookSubscriptionsPayload {
  webhookId: ID!
  """Registrable domains added (or removed)."""
  changed: [String!]!
  """Valid domains that needed no change."""
  unchanged: [String!]!
  invalid: [InvalidDomain!]!
  """Added domains not held yet whose indexing was queued."""
  queued: [String!]!
  """Added domains not held yet that the crawl queue refused (full); indexed on a later lookup."""
  notQueued: [String!]!
}

type SendTestEventPayload {
  delivery: WebhookDelivery!
}

type Mutation {
  createWebhook(input: CreateWebhookInput!): CreateWebhookPayload!
  updateWebhook(id: ID!, input: UpdateWebhookInput!): Webhook!
  """Deletes the webhook with its subscriptions and delivery history."""
  deleteWebhook(id: ID!): DeleteWebhookPayload!
  """A new secret; the current one keeps signing for expireCurrentInSeconds (default 86400, 0 to 604800)."""
  rotateWebhookSecret(id: ID!, expireCurrentInSeconds: Int): RotateWebhookSecretPayload!
  """At most 1,000 domains per call; subdomains count as their registrable domain."""
  addWebhookSubscriptions(webhookId: ID!, domains: [String!]!): WebhookSubscriptionsPayload!
  """At most 1,000 domains per call."""
  removeWebhookSubscriptions(webhookId: ID!, domains: [String!]!): WebhookSubscriptionsPayload!
  """Queues a webhook.test delivery, sent like any other; domain: a held brand to carry (default: a subscribed one, or a sample). Always the sample without a credit for a lookup; at most BRANDBASE_WEBHOOK_TESTS_PER_MINUTE per organization."""
  sendTestEvent(webhookId: ID!, domain: String): SendTestEventPayload!
}
`;

/**
 * The bounds of the schema's lists that take no `first` and sit in no connection, for the query cost
 * (query-cost.ts): every other list of objects is a connection's `edges`, sized by its `first`.
 */
export const WEBHOOK_LIST_SIZES: Readonly<Record<string, number>> = {
  'WebhookDelivery.attempts': MAX_DELIVERY_ATTEMPTS,
  'WebhookSubscriptionsPayload.invalid': MAX_DOMAINS_PER_CALL,
};
