/**
 * Word lists of descriptor normalization (docs/transactions.md), written by us: card-network noise, legal forms,
 * words too generic to name a merchant alone, and the location words statements append (state and province codes,
 * country codes, the largest cities of the countries the eval covers). All normalized (domain/search-text.ts).
 */

/** Leading words card networks and banks put before the merchant ("POS DEBIT", "PURCHASE AUTHORIZED ON 03/14"). */
export const NOISE_PREFIX =
  /^(?:POS|DBT|DEBIT|CREDIT|VISA|MC|MASTERCARD|MAESTRO|CHECKCARD|CHECK CARD|CHKCARD|PURCHASE AUTHORIZED ON|PURCHASE|AUTHORIZED ON|RECURRING PAYMENT|RECURRING|CARD PURCHASE|DEBIT CARD|CREDIT CARD|CARD|CONTACTLESS|SALE|PREAUTH|PRE-AUTH|PENDING|ACH|DDA|INTL|POINT OF SALE|APPLE PAY|GOOGLE PAY|ANDROID PAY|SAMSUNG PAY|WWW)(?=[\s:#*-]|$)[\s:#*-]*/;

/** Words dropped wherever they stand: legal forms, store-number words, statement noise. */
export const NOISE_WORDS = new Set([
  'inc', 'llc', 'ltd', 'plc', 'gmbh', 'corp', 'corporation', 'sa', 'bv', 'nv', 'ag', 'pty', 'store', 'str', 'pending', 'www', 'nr',
  'no', 'pos', 'purchase', 'debit',
]);

/** Top-level-domain words left from a written domain (`NETFLIX.COM` → netflix com): not part of the name. */
export const DOMAIN_WORDS = new Set(['com', 'net', 'org', 'co', 'uk', 'de', 'fr', 'nl', 'au', 'ca', 'io', 'us', 'bill', 'help']);

/**
 * Words that never name a merchant alone: a span made only of these is not looked up by name (an alias may still
 * match, e.g. `shell`). Bank operations ("ATM WITHDRAWAL", "MONTHLY SERVICE FEE") are made only of these.
 */
export const GENERIC_WORDS = new Set([
  'the', 'a', 'an', 'and', 'of', 'to', 'on', 'for', 'by', 'at', 'in', 'de', 'du', 'la', 'le', 'el', 'des', 'der', 'die', 'das',
  'city', 'main', 'united', 'first', 'national', 'american', 'general', 'best', 'new', 'golden', 'green', 'happy', 'sunshine', 'riverside',
  'royal', 'star', 'sun', 'gas', 'fuel', 'food', 'foods', 'market', 'cafe', 'coffee', 'pizza', 'pizzeria', 'deli', 'bar', 'grill',
  'restaurant', 'bakery', 'shop', 'store', 'stores', 'hotel', 'taxi', 'cab', 'parking', 'meter', 'school', 'church', 'bank', 'credit',
  'card', 'payment', 'pay', 'transfer', 'deposit', 'withdrawal', 'fee', 'fees', 'interest', 'charge', 'check', 'service', 'services',
  'online', 'mobile', 'auto', 'car', 'home', 'pharmacy', 'dental', 'medical', 'clinic', 'health', 'insurance', 'ins', 'tax', 'state',
  'county', 'lunch', 'laundry', 'laundromat', 'vending', 'atm', 'cash', 'energy', 'power', 'water', 'electric', 'global',
  'international', 'capital', 'trust', 'group', 'holdings', 'partners', 'solutions', 'systems', 'digital', 'tech', 'media', 'one',
  'plus', 'pro', 'express', 'direct', 'smart', 'life', 'care', 'center', 'centre', 'club', 'world', 'park', 'dr', 'mr', 'mrs', 'st',
  'ave', 'road', 'street', 'monthly', 'annual', 'foreign', 'transaction', 'thank', 'you', 'office',
  'chinese', 'thai', 'indian', 'mexican', 'italian', 'taqueria', 'boulangerie', 'baeckerei', 'backerei', 'purchases', 'refund',
  'return', 'co', 'company',
]);

/** Extra name words that cost little when a descriptor leaves them out ("MONMOUTH COFFEE" of Monmouth Coffee Company). */
export const NAME_TAIL_WORDS = new Set([
  'coffee', 'company', 'co', 'market', 'markets', 'bakery', 'roasters', 'cafe', 'restaurant', 'restaurants', 'stores', 'store', 'shop',
  'foods', 'group', 'supermarkets', 'supermarket', 'brands', 'kitchen', 'and', 'the',
]);

export const STATE_CODES: Readonly<Record<string, ReadonlySet<string>>> = {
  US: new Set(
    'al ak az ar ca co ct de dc fl ga hi id il in ia ks ky la me md ma mi mn ms mo mt ne nv nh nj nm ny nc nd oh ok or pa ri sc sd tn tx ut vt va wa wv wi wy pr'.split(' '),
  ),
  CA: new Set('ab bc mb nb nl ns nt nu on pe qc sk yt'.split(' ')),
  AU: new Set('nsw vic qld wa sa tas act nt'.split(' ')),
};

/** ISO 3166 alpha-3 (and the common spellings) of the countries statements write after the city. */
export const COUNTRY_WORDS: Readonly<Record<string, readonly string[]>> = {
  US: ['usa', 'us'], GB: ['gbr', 'gb', 'uk'], DE: ['deu', 'de', 'ger'], FR: ['fra', 'fr'], CA: ['can', 'ca'], AU: ['aus', 'au'],
  NL: ['nld', 'nl'], ES: ['esp', 'es'], IT: ['ita', 'it'], IE: ['irl', 'ie'], BE: ['bel', 'be'], CH: ['che', 'ch'], AT: ['aut', 'at'],
  SE: ['swe', 'se'], NO: ['nor', 'no'], DK: ['dnk', 'dk'], JP: ['jpn', 'jp'], IN: ['ind', 'in'], BR: ['bra', 'br'], MX: ['mex', 'mx'],
  ZA: ['zaf', 'za'], SG: ['sgp', 'sg'], NZ: ['nzl', 'nz'],
};

/** The largest cities per country, normalized: statements append them after the merchant name. */
export const CITIES: Readonly<Record<string, readonly string[]>> = {
  US: [
    'new york', 'brooklyn', 'los angeles', 'chicago', 'houston', 'phoenix', 'philadelphia', 'san antonio', 'san diego', 'dallas', 'austin',
    'san jose', 'san francisco', 'seattle', 'denver', 'boston', 'miami', 'atlanta', 'portland', 'oakland', 'las vegas', 'detroit',
    'minneapolis', 'nashville', 'washington', 'baltimore', 'orlando', 'tampa', 'charlotte', 'columbus', 'indianapolis', 'sacramento',
  ],
  GB: ['london', 'manchester', 'birmingham', 'leeds', 'glasgow', 'edinburgh', 'liverpool', 'bristol', 'sheffield', 'cardiff', 'belfast', 'newcastle', 'nottingham', 'oxford', 'cambridge'],
  DE: ['berlin', 'hamburg', 'munchen', 'muenchen', 'koln', 'koeln', 'frankfurt', 'stuttgart', 'dusseldorf', 'duesseldorf', 'leipzig', 'dresden', 'hannover', 'bremen', 'nurnberg', 'nuernberg'],
  FR: ['paris', 'marseille', 'lyon', 'toulouse', 'nice', 'nantes', 'strasbourg', 'montpellier', 'bordeaux', 'lille', 'rennes'],
  NL: ['amsterdam', 'rotterdam', 'den haag', 'utrecht', 'eindhoven', 'groningen', 'leiden', 'haarlem'],
  ES: ['madrid', 'barcelona', 'valencia', 'sevilla', 'zaragoza', 'malaga', 'bilbao'],
  IT: ['roma', 'milano', 'napoli', 'torino', 'firenze', 'bologna', 'venezia'],
  BE: ['brussels', 'bruxelles', 'brux', 'antwerpen', 'gent', 'liege'],
  AT: ['wien', 'vienna', 'graz', 'linz', 'salzburg', 'innsbruck'],
  CH: ['zurich', 'geneve', 'geneva', 'basel', 'bern', 'lausanne'],
  DK: ['kobenhavn', 'copenhagen', 'aarhus', 'odense'],
  CA: ['toronto', 'montreal', 'vancouver', 'calgary', 'edmonton', 'ottawa', 'winnipeg', 'quebec', 'halifax'],
  AU: ['sydney', 'melbourne', 'brisbane', 'perth', 'adelaide', 'canberra', 'hobart', 'darwin'],
  NZ: ['auckland', 'wellington', 'christchurch'],
  ZA: ['johannesburg', 'cape town', 'durban', 'pretoria', 'sandton'],
  IN: ['mumbai', 'delhi', 'new delhi', 'bangalore', 'bengaluru', 'hyderabad', 'chennai', 'kolkata', 'pune'],
  BR: ['sao paulo', 'rio de janeiro', 'brasilia', 'salvador', 'belo horizonte'],
  MX: ['ciudad de mexico', 'cdmx', 'guadalajara', 'monterrey'],
  JP: ['tokyo', 'osaka', 'kyoto', 'yokohama', 'nagoya', 'sapporo', 'fukuoka'],
  SG: ['singapore'],
  IE: ['dublin', 'cork', 'galway'],
};
