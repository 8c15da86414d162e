/** A realistic brand record, every field family filled, for round-trip tests. */
import type { Brand } from '../../src/domain/brand.js';
import { brandIdForDomain, brandUrn } from '../../src/domain/ids.js';

export function sampleBrand(domain: string, overrides: Partial<Brand> = {}): Brand {
  const id = brandIdForDomain(domain);
  return {
    id,
    name: 'Acme Rockets',
    domain,
    claimed: false,
    description: 'Acme builds rockets, anvils & "portable holes" — since 1949. Ünïcödé ✓ 🚀',
    longDescription: 'Line one.\nLine two with a tab\tand a backslash \\ and quotes \'single\' "double".',
    links: [
      { name: 'twitter', url: 'https://twitter.com/acme' },
      { name: 'github', url: 'https://github.com/acme' },
    ],
    logos: [
      {
        theme: 'dark',
        formats: [
          { src: `https://cdn.example/${id}/logo.svg`, format: 'svg', height: null, width: null, size: 2048, background: 'transparent' },
          { src: `https://cdn.example/${id}/logo.png`, format: 'png', height: 256, width: 512, size: 18_311, background: null },
        ],
        tags: ['photographic'],
        type: 'logo',
      },
      { theme: null, formats: [{ src: `https://cdn.example/${id}/icon.webp`, format: 'webp', height: 64, width: 64, size: 912, background: null }], tags: [], type: 'icon' },
    ],
    colors: [
      { hex: '#ff5a1f', type: 'accent', brightness: 142 },
      { hex: '#0b0b0f', type: 'dark', brightness: 11 },
    ],
    fonts: [{ name: 'Inter', type: 'title', origin: 'google', originId: 'inter', weights: [{ weight: 700, style: 'normal' }] }],
    images: [
      {
        formats: [{ src: `https://cdn.example/${id}/hero.jpeg`, format: 'jpeg', height: 900, width: 1600, size: 240_001, background: null }],
        tags: [],
        type: 'picture',
        pictureMetadata: {
          score: 0.87,
          rank: 1,
          naturalWidth: 3200,
          naturalHeight: 1800,
          alt: 'Rocket on the pad',
          sourceUrl: `https://${domain}/img/hero.jpg`,
          imageCategory: 'product',
          categoryConfidence: 0.61,
        },
      },
    ],
    qualityScore: 0.734,
    company: {
      employees: 1001,
      financialIdentifiers: { isin: ['US0000000001'], ticker: ['ACME'] },
      foundedYear: 1949,
      industries: [
        {
          id: 'ind_aero',
          slug: 'aerospace',
          name: 'Aerospace',
          emoji: '🚀',
          score: 0.92,
          parent: [{ id: 'ind_mfg', slug: 'manufacturing', name: 'Manufacturing', emoji: '🏭' }],
        },
      ],
      kind: 'PUBLIC_COMPANY',
      location: { city: 'Phoenix', country: 'United States', countryCode: 'US', region: 'Americas', state: 'Arizona', subregion: 'Northern America' },
    },
    isNsfw: false,
    urn: brandUrn(id),
    ...overrides,
  };
}
