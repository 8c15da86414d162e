/**
 * The brand record exactly as the interface contract (spec section 2) names its fields.
 * Field names here are part of the public API: existing clients key on them.
 */

export const LINK_NAMES = ['twitter', 'facebook', 'instagram', 'github', 'youtube', 'linkedin', 'crunchbase'] as const;
export type LinkName = (typeof LINK_NAMES)[number];

export interface Link {
  name: LinkName;
  url: string;
}

export const IMAGE_FORMATS = ['svg', 'webp', 'png', 'jpeg'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export interface Format {
  src: string;
  format: ImageFormat;
  height: number | null;
  width: number | null;
  size: number;
  background: 'transparent' | null;
}

export type LogoType = 'icon' | 'logo' | 'symbol' | 'other';
export type LogoTheme = 'dark' | 'light' | null;

export interface Logo {
  theme: LogoTheme;
  formats: Format[];
  tags: string[];
  type: LogoType;
}

export type ColorType = 'accent' | 'dark' | 'light' | 'brand';

export interface Color {
  hex: string;
  type: ColorType;
  brightness: number;
}

export type FontType = 'title' | 'body';
export type FontOrigin = 'google' | 'custom' | 'system';

/** The spec leaves the fields of a weight open ("not shown"); ours are documented in docs/extraction.md. */
export interface FontWeight {
  weight: number;
  style: 'normal' | 'italic' | null;
}

export interface Font {
  name: string | null;
  type: FontType;
  origin: FontOrigin;
  originId: string | null;
  weights: FontWeight[];
}

export type ImageType = 'banner' | 'other' | 'picture';

export interface PictureMetadata {
  score: number;
  rank: number;
  naturalWidth: number;
  naturalHeight: number;
  alt: string;
  sourceUrl: string;
  imageCategory: string | null;
  categoryConfidence: number | null;
}

export interface Image {
  formats: Format[];
  tags: string[];
  type: ImageType;
  pictureMetadata?: PictureMetadata;
}

export interface IndustryRef {
  id: string;
  slug: string;
  name: string;
  emoji: string;
}

export interface Industry extends IndustryRef {
  score: number;
  /** Empty list for a top-level industry is shown as null per spec 2.7; a sub-industry lists its parent. */
  parent: IndustryRef[] | null;
}

export interface Location {
  city: string | null;
  country: string | null;
  countryCode: string | null;
  region: string | null;
  state: string | null;
  subregion: string | null;
}

export const COMPANY_KINDS = [
  'EDUCATIONAL',
  'GOVERNMENT_AGENCY',
  'NON_PROFIT',
  'PARTNERSHIP',
  'PRIVATELY_HELD',
  'PUBLIC_COMPANY',
  'SELF_EMPLOYED',
  'SELF_OWNED',
] as const;
export type CompanyKind = (typeof COMPANY_KINDS)[number];

export interface FinancialIdentifiers {
  isin: string[];
  ticker: string[];
}

export interface Company {
  employees: number | null;
  financialIdentifiers: FinancialIdentifiers | null;
  foundedYear: number | null;
  industries: Industry[];
  kind: CompanyKind | null;
  location: Location;
}

export interface Brand {
  id: string;
  name: string | null;
  domain: string;
  claimed: boolean;
  description: string | null;
  longDescription: string | null;
  links: Link[];
  logos: Logo[];
  colors: Color[];
  fonts: Font[];
  images: Image[];
  qualityScore: number;
  company: Company;
  isNsfw: boolean;
  urn: string;
  /** Present only on request (spec 2.8); absent otherwise. */
  palette?: unknown;
}

export function emptyLocation(): Location {
  return { city: null, country: null, countryCode: null, region: null, state: null, subregion: null };
}

export function emptyCompany(): Company {
  return { employees: null, financialIdentifiers: null, foundedYear: null, industries: [], kind: null, location: emptyLocation() };
}
