/**
 * Brands the eval store holds as if crawled (name, domain, country): independent merchants that no listing and no
 * alias names, so descriptors of theirs can only match a held brand's name (what a real installation has indexed).
 */
export const HELD_BRANDS: readonly { domain: string; name: string; countryCode: string }[] = [
  { domain: 'bluebottlecoffee.com', name: 'Blue Bottle Coffee', countryCode: 'US' },
  { domain: 'philzcoffee.com', name: 'Philz Coffee', countryCode: 'US' },
  { domain: 'tartinebakery.com', name: 'Tartine Bakery', countryCode: 'US' },
  { domain: 'biritemarket.com', name: 'Bi-Rite Market', countryCode: 'US' },
  { domain: 'allbirds.com', name: 'Allbirds', countryCode: 'US' },
  { domain: 'glossier.com', name: 'Glossier', countryCode: 'US' },
  { domain: 'warbyparker.com', name: 'Warby Parker', countryCode: 'US' },
  { domain: 'sweetgreen.com', name: 'sweetgreen', countryCode: 'US' },
  { domain: 'lacolombe.com', name: 'La Colombe Coffee Roasters', countryCode: 'US' },
  { domain: 'intelligentsia.com', name: 'Intelligentsia Coffee', countryCode: 'US' },
  { domain: 'dishoom.com', name: 'Dishoom', countryCode: 'GB' },
  { domain: 'monmouthcoffee.co.uk', name: 'Monmouth Coffee Company', countryCode: 'GB' },
  { domain: 'brewdog.com', name: 'BrewDog', countryCode: 'GB' },
  { domain: 'ottolenghi.co.uk', name: 'Ottolenghi', countryCode: 'GB' },
  { domain: 'zeitfuerbrot.com', name: 'Zeit für Brot', countryCode: 'DE' },
  { domain: 'lepainquotidien.com', name: 'Le Pain Quotidien', countryCode: 'BE' },
  { domain: 'joejuice.com', name: 'Joe & The Juice', countryCode: 'DK' },
];
