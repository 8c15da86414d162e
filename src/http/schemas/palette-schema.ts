/**
 * JSON Schema of the palette, written from the tables of spec 2.8 (field names, types, enumerations, nullability)
 * and the limits of section 8 (tokens 5, variants 8, gradients 4, examples 2 of at most 40 characters). Every
 * object is closed (`additionalProperties: false`) so a field the spec does not name fails validation. The OpenAPI
 * document describes `palette` with it, and the palette tests validate every built palette against it.
 */
const HEX = { type: 'string', pattern: '^#[0-9a-f]{6}$' } as const;
const NULLABLE_HEX = { anyOf: [HEX, { type: 'null' }] } as const;
const RATIO = { type: 'number', minimum: 1, maximum: 21 } as const;
const SHARE = { type: 'number', minimum: 0, maximum: 1 } as const;
const closed = (properties: Record<string, unknown>, optional: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
});

export const PALETTE_COLOR_SCHEMA = closed(
  {
    hex: HEX,
    name: { type: ['string', 'null'] },
    role: { enum: ['primary', 'secondary', 'accent', 'background', 'surface', 'text', 'muted', 'border', 'other'] },
    context: { enum: ['identity', 'interface', 'both'] },
    rank: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
    member: { const: true },
    legibleText: { enum: ['#ffffff', '#000000'] },
    legibleTextContrast: RATIO,
    onColor: NULLABLE_HEX,
    onColorContrast: { anyOf: [RATIO, { type: 'null' }] },
    brightness: { anyOf: [{ type: 'number', minimum: 0, maximum: 255 }, { type: 'null' }] },
    prevalence: { anyOf: [SHARE, { type: 'null' }] },
    usage: closed({
      elements: {
        type: 'array',
        items: closed({
          element: { enum: ['button', 'link', 'heading', 'nav', 'header', 'footer', 'body', 'html'] },
          property: { enum: ['background', 'text', 'border'] },
          count: { type: 'integer', minimum: 1 },
          examples: { type: 'array', maxItems: 2, items: { type: 'string', maxLength: 40 } },
        }),
      },
      css: closed({
        background: { type: 'integer', minimum: 0 },
        text: { type: 'integer', minimum: 0 },
        border: { type: 'integer', minimum: 0 },
        other: { type: 'integer', minimum: 0 },
      }),
    }),
    tokens: { type: 'array', maxItems: 5, items: { type: 'string' } },
    variants: { type: 'array', maxItems: 8, items: HEX },
  },
  ['member'],
);

const THEME = closed({ background: HEX, surface: NULLABLE_HEX, text: HEX, muted: NULLABLE_HEX, border: NULLABLE_HEX, accent: NULLABLE_HEX, contrast: RATIO });

export const PALETTE_SCHEMA = closed({
  colors: { type: 'array', items: PALETTE_COLOR_SCHEMA },
  logos: {
    type: 'array',
    items: closed({
      asset: { enum: ['logo', 'icon'] },
      type: { enum: ['icon', 'logo', 'symbol', 'other', null] },
      theme: { enum: ['light', 'dark', null] },
      format: { enum: ['svg', 'png'] },
      primary: { type: 'boolean' },
      colors: { type: 'array', items: closed({ hex: HEX, coverage: SHARE }) },
    }),
  },
  onPairs: {
    type: 'array',
    items: closed({
      element: { type: 'string' },
      theme: { enum: ['light', 'dark'] },
      background: HEX,
      text: HEX,
      contrast: RATIO,
      wcag: { enum: ['AAA', 'AA', 'AA-large', 'fail'] },
      count: { type: 'integer', minimum: 1 },
    }),
  },
  gradients: {
    type: 'array',
    maxItems: 4,
    items: closed({
      rank: { type: 'integer', minimum: 1 },
      type: { enum: ['linear', 'radial', 'conic'] },
      angle: { type: ['number', 'null'] },
      stops: { type: 'array', minItems: 1, items: closed({ hex: HEX, position: { anyOf: [SHARE, { type: 'null' }] } }) },
      css: { type: 'string' },
    }),
  },
  themes: { type: 'object', additionalProperties: false, properties: { light: THEME, dark: THEME } },
});
