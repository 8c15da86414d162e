/**
 * Resolvers of the merchant corrections' fields (merchant-correction-schema.ts): each calls one MerchantCorrections
 * operation with the organization of the request's API key, recorded as the actor by the key's id.
 */
import { correctionJson, type CorrectionInput, type CorrectionPage } from '../../transactions/corrections/merchant-corrections.js';
import type { MerchantCorrection } from '../../transactions/corrections/merchant-correction.js';
import type { GraphqlContext } from './webhook-resolvers.js';

type Args = Record<string, unknown>;

/** The GraphQL shape of a correction: the API's fields, dates as Date for the DateTime scalar. */
function node(c: MerchantCorrection) {
  return { ...correctionJson(c), createdAt: c.createdAt, removedAt: c.removedAt };
}

function connection(page: CorrectionPage) {
  const edges = page.corrections.map((c, i) => ({ cursor: page.cursors[i] ?? '', node: node(c) }));
  return { edges, pageInfo: { hasNextPage: page.hasNextPage, hasPreviousPage: false, startCursor: edges[0]?.cursor ?? null, endCursor: page.endCursor } };
}

export const merchantCorrectionResolvers = {
  Query: {
    merchantCorrections: async (_: unknown, args: Args, { org, corrections }: GraphqlContext) =>
      connection(
        await corrections.list(org.id, {
          first: typeof args.first === 'number' ? args.first : null,
          after: typeof args.after === 'string' ? args.after : null,
          includeRemoved: args.includeRemoved === true,
        }),
      ),
  },
  Mutation: {
    addMerchantCorrection: async (_: unknown, args: { input: CorrectionInput }, { org, corrections, actor }: GraphqlContext) => {
      const { correction, replaced } = await corrections.add(org.id, args.input, actor);
      return { correction: node(correction), replaced: replaced === null ? null : node(replaced) };
    },
    removeMerchantCorrection: async (_: unknown, args: { id: string }, { org, corrections, actor }: GraphqlContext) => node(await corrections.remove(org.id, args.id, actor)),
  },
};
