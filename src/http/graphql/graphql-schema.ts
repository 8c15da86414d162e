/**
 * The schema `POST /graphql` serves: webhook management (webhook-schema.ts, paid plans) and merchant corrections
 * (merchant-correction-schema.ts, every plan), one SDL and one resolver map.
 */
import { MERCHANT_CORRECTION_SDL } from './merchant-correction-schema.js';
import { merchantCorrectionResolvers } from './merchant-correction-resolvers.js';
import { webhookResolvers } from './webhook-resolvers.js';
import { WEBHOOK_LIST_SIZES, WEBHOOK_SDL } from './webhook-schema.js';

export const GRAPHQL_SDL = `${WEBHOOK_SDL}\n${MERCHANT_CORRECTION_SDL}`;

/** Lists sized by no `first` and in no connection (query-cost.ts): the corrections' lists are all connections. */
export const GRAPHQL_LIST_SIZES: Readonly<Record<string, number>> = { ...WEBHOOK_LIST_SIZES };

export const graphqlResolvers = {
  ...webhookResolvers,
  Query: { ...webhookResolvers.Query, ...merchantCorrectionResolvers.Query },
  Mutation: { ...webhookResolvers.Mutation, ...merchantCorrectionResolvers.Mutation },
};
