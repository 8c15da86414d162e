import { Type, type TSchema } from '@sinclair/typebox';
import { COMPANY_KINDS, IMAGE_FORMATS, LINK_NAMES } from '../../domain/brand.js';
import { PALETTE_SCHEMA } from './palette-schema.js';

/**
 * The Brand record of spec 2.1–2.7 as JSON Schema, for the OpenAPI document and for validating real responses
 * in tests. Enumerations the spec says "can grow" (tags) are plain strings: clients must tolerate new values.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const FormatSchema = Type.Object(
  {
    src: Type.String({ description: 'URL of the file: BRANDBASE_ASSET_BASE_URL (default: BRANDBASE_PUBLIC_URL + /assets/) followed by the content key <sha256>.<ext>' }),
    format: literals(IMAGE_FORMATS),
    height: Nullable(Type.Integer()),
    width: Nullable(Type.Integer()),
    size: Type.Integer({ description: 'bytes' }),
    background: Nullable(Type.Literal('transparent')),
  },
  { $id: 'Format', additionalProperties: false },
);

export const LogoSchema = Type.Object(
  {
    theme: Nullable(literals(['dark', 'light'])),
    formats: Type.Array(Type.Ref('Format')),
    tags: Type.Array(Type.String()),
    type: literals(['icon', 'logo', 'symbol', 'other']),
  },
  { $id: 'Logo', additionalProperties: false },
);

export const ColorSchema = Type.Object(
  {
    hex: Type.String({ pattern: '^#[0-9a-f]{6}$' }),
    type: literals(['accent', 'dark', 'light', 'brand']),
    brightness: Type.Number({ description: '0.2126*R + 0.7152*G + 0.0722*B on 8-bit values' }),
  },
  { $id: 'Color', additionalProperties: false },
);

export const FontSchema = Type.Object(
  {
    name: Nullable(Type.String()),
    type: literals(['title', 'body']),
    origin: literals(['google', 'custom', 'system']),
    originId: Nullable(Type.String()),
    weights: Type.Array(Type.Object({ weight: Type.Integer(), style: Nullable(literals(['normal', 'italic'])) }, { additionalProperties: true })),
  },
  { $id: 'Font', additionalProperties: false },
);

const PictureMetadataSchema = Type.Object(
  {
    score: Type.Number(),
    rank: Type.Integer(),
    naturalWidth: Type.Integer(),
    naturalHeight: Type.Integer(),
    alt: Type.String(),
    sourceUrl: Type.String(),
    imageCategory: Nullable(Type.String()),
    categoryConfidence: Nullable(Type.Number()),
  },
  { additionalProperties: false },
);

export const ImageSchema = Type.Object(
  {
    formats: Type.Array(Type.Ref('Format')),
    tags: Type.Array(Type.String()),
    type: literals(['banner', 'other', 'picture']),
    pictureMetadata: Type.Optional(PictureMetadataSchema),
  },
  { $id: 'Image', additionalProperties: false },
);

const IndustryRefSchema = Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String(), emoji: Type.String() }, { additionalProperties: false });

export const IndustrySchema = Type.Object(
  {
    id: Type.String(),
    score: Type.Number({ minimum: 0, maximum: 1 }),
    slug: Type.String(),
    name: Type.String(),
    emoji: Type.String(),
    parent: Nullable(Type.Array(IndustryRefSchema)),
  },
  { $id: 'Industry', additionalProperties: false },
);

const LocationSchema = Type.Object(
  {
    city: Nullable(Type.String()),
    country: Nullable(Type.String()),
    countryCode: Nullable(Type.String()),
    region: Nullable(Type.String()),
    state: Nullable(Type.String()),
    subregion: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

const CompanySchema = Type.Object(
  {
    employees: Nullable(Type.Union([1, 2, 11, 51, 201, 501, 1001, 5001, 10001].map((n) => Type.Literal(n)), { description: 'lower bound of the size band' })),
    financialIdentifiers: Nullable(Type.Object({ isin: Type.Array(Type.String()), ticker: Type.Array(Type.String()) }, { additionalProperties: false })),
    foundedYear: Nullable(Type.Integer()),
    industries: Type.Array(Type.Ref('Industry')),
    kind: Nullable(literals(COMPANY_KINDS)),
    location: LocationSchema,
  },
  { additionalProperties: false },
);

export const BrandSchema = Type.Object(
  {
    id: Type.String(),
    name: Nullable(Type.String()),
    domain: Type.String(),
    claimed: Type.Boolean(),
    description: Nullable(Type.String()),
    longDescription: Nullable(Type.String()),
    links: Type.Array(Type.Object({ name: literals(LINK_NAMES), url: Type.String() }, { additionalProperties: false })),
    logos: Type.Array(Type.Ref('Logo')),
    colors: Type.Array(Type.Ref('Color')),
    fonts: Type.Array(Type.Ref('Font')),
    images: Type.Array(Type.Ref('Image')),
    qualityScore: Type.Number({ minimum: 0, maximum: 1 }),
    company: CompanySchema,
    isNsfw: Type.Boolean(),
    urn: Type.String(),
    palette: Type.Optional(Nullable(Type.Unsafe<Record<string, unknown>>({ ...PALETTE_SCHEMA, description: 'beta (spec 2.8); present only on request (`palette=true`)' }))),
  },
  { $id: 'Brand', additionalProperties: false },
);

/** Shared schemas registered once with `app.addSchema` so routes and the OpenAPI document reference them. */
export const SHARED_SCHEMAS: TSchema[] = [FormatSchema, LogoSchema, ColorSchema, FontSchema, ImageSchema, IndustrySchema, BrandSchema];
