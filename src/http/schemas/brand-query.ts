import { Type, type Static } from '@sinclair/typebox';

/**
 * Query parameters of the single lookup (spec 4.1). They are read as strings on purpose: the spec gives
 * meaning to exact values (`cachedOnly=true`; `palette=true|1`) and says any other value keeps the default,
 * so coercion or rejection of other values would change documented behaviour.
 */
export const BrandQuery = Type.Object(
  {
    allowNsfw: Type.Optional(Type.String({ description: '`true` returns NSFW brands, `false` answers 404 for them; unset returns them with isNsfw true.' })),
    cachedOnly: Type.Optional(Type.String({ description: '`true`: answer from the store only (204 when not indexed, free).' })),
    palette: Type.Optional(Type.String({ description: '`true` or `1` adds `palette`.' })),
    exchange: Type.Optional(Type.String({ description: 'for a ticker: the exchange (ISO 10383 MIC such as `XLON`, a vendor suffix such as `L`, or a name such as `LSE`); same as the `XLON:SHEL` prefix' })),
  },
  { additionalProperties: true },
);
export type BrandQueryType = Static<typeof BrandQuery>;

export interface LookupFlags {
  cachedOnly: boolean;
  allowNsfw: boolean | undefined;
  palette: boolean;
}

export function readLookupFlags(query: BrandQueryType): LookupFlags {
  const nsfw = query.allowNsfw?.toLowerCase();
  return {
    cachedOnly: query.cachedOnly === 'true',
    allowNsfw: nsfw === 'true' ? true : nsfw === 'false' ? false : undefined,
    palette: query.palette === 'true' || query.palette === '1',
  };
}
