/**
 * The merchant corrections' part of the GraphQL schema (issue 34, docs/transactions.md#graphql), as SDL extending the
 * webhook schema's Query and Mutation (graphql-schema.ts joins them). docs/transactions.md prints this text
 * (test/http/graphql/graphql-doc.test.ts checks it). Every plan may use these fields; the webhook fields stay on paid
 * plans (graphql-route.ts).
 */
export const MERCHANT_CORRECTION_SDL = /* GraphQL */ `
"""A correction of a descriptor's merchant, filed by your organization: it decides before every rule of POST /v2/brands/transaction until removed."""
type MerchantCorrection {
  id: ID!
  """The descriptor as it was sent."""
  transactionLabel: String!
  """The merchant words it is filed under: a transaction whose descriptor reads to the same words is corrected."""
  key: String!
  """ISO 3166 alpha-2; null: every country."""
  countryCode: String
  """The merchant's registrable domain; null when notMerchant."""
  domain: String
  """True: the descriptor names no merchant (its transactions answer 400 Failed to enrich transaction)."""
  notMerchant: Boolean!
  createdAt: DateTime!
  """Who filed it: an API key id (key_...), a dashboard user id (usr_...) or cli."""
  createdBy: String!
  removedAt: DateTime
  """Who removed it; null while it applies."""
  removedBy: String
}

type MerchantCorrectionEdge {
  cursor: String!
  node: MerchantCorrection!
}

type MerchantCorrectionConnection {
  edges: [MerchantCorrectionEdge!]!
  pageInfo: PageInfo!
}

input AddMerchantCorrectionInput {
  """The descriptor as the statement prints it, 1 to 256 characters."""
  transactionLabel: String!
  """ISO 3166 alpha-2: transactions of that country only; absent or null: every country."""
  countryCode: String
  """The merchant's domain (a subdomain stands for its registrable domain); send this or notMerchant: true."""
  domain: String
  """True: the descriptor names no merchant."""
  notMerchant: Boolean
}

type AddMerchantCorrectionPayload {
  correction: MerchantCorrection!
  """The correction of the same key and country this one replaced (now removed), or null."""
  replaced: MerchantCorrection
}

extend type Query {
  """Your organization's merchant corrections, newest first; includeRemoved: removed ones too (the audit trail). first: default 100, at most 100."""
  merchantCorrections(first: Int, after: String, includeRemoved: Boolean): MerchantCorrectionConnection!
}

extend type Mutation {
  """Files a correction for your organization; one of the same key and country is replaced."""
  addMerchantCorrection(input: AddMerchantCorrectionInput!): AddMerchantCorrectionPayload!
  """Removes a correction (kept, with who and when, in the audit trail); another organization's id answers correction_not_found."""
  removeMerchantCorrection(id: ID!): MerchantCorrection!
}
`;

/** Root fields every plan may use: a request of these (and introspection) only is served to free-plan organizations. */
export const MERCHANT_CORRECTION_ROOT_FIELDS: ReadonlySet<string> = new Set(['merchantCorrections', 'addMerchantCorrection', 'removeMerchantCorrection']);
