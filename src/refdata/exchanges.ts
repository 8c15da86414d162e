/**
 * Exchanges by ISO 10383 MIC: the country each is in and the data-vendor ticker suffix (Yahoo style, as in
 * FinanceDatabase: `7203.T`, `SHEL.L`, `SAP.DE`). Plus the codes each source uses for an exchange, mapped to the
 * MIC. Listings are stored under the operating MIC (`XTKS`, not JPX Group's `XJPX`); NYSE Arca keeps `ARCX` and Cboe
 * BZX `BATS`, the codes ETF lists use. docs/reference-data.md lists the choices.
 */

interface Exchange {
  country: string;
  /** Vendor suffix without the dot, or '' for none (US). */
  suffix: string;
}

export const EXCHANGES: Readonly<Record<string, Exchange>> = {
  XNAS: { country: 'US', suffix: '' },
  XNYS: { country: 'US', suffix: '' },
  XASE: { country: 'US', suffix: '' },
  ARCX: { country: 'US', suffix: '' },
  BATS: { country: 'US', suffix: '' },
  OTCM: { country: 'US', suffix: '' },
  XTSE: { country: 'CA', suffix: 'TO' },
  XTSX: { country: 'CA', suffix: 'V' },
  XCNQ: { country: 'CA', suffix: 'CN' },
  NEOE: { country: 'CA', suffix: 'NE' },
  XLON: { country: 'GB', suffix: 'L' },
  AQXE: { country: 'GB', suffix: 'AQ' },
  XETR: { country: 'DE', suffix: 'DE' },
  XFRA: { country: 'DE', suffix: 'F' },
  XBER: { country: 'DE', suffix: 'BE' },
  XMUN: { country: 'DE', suffix: 'MU' },
  XDUS: { country: 'DE', suffix: 'DU' },
  XHAM: { country: 'DE', suffix: 'HM' },
  XHAN: { country: 'DE', suffix: 'HA' },
  XSTU: { country: 'DE', suffix: 'SG' },
  XPAR: { country: 'FR', suffix: 'PA' },
  XAMS: { country: 'NL', suffix: 'AS' },
  XBRU: { country: 'BE', suffix: 'BR' },
  XLIS: { country: 'PT', suffix: 'LS' },
  XDUB: { country: 'IE', suffix: 'IR' },
  XMIL: { country: 'IT', suffix: 'MI' },
  XMAD: { country: 'ES', suffix: 'MC' },
  XSWX: { country: 'CH', suffix: 'SW' },
  XWBO: { country: 'AT', suffix: 'VI' },
  XSTO: { country: 'SE', suffix: 'ST' },
  XOSL: { country: 'NO', suffix: 'OL' },
  XCSE: { country: 'DK', suffix: 'CO' },
  XHEL: { country: 'FI', suffix: 'HE' },
  XICE: { country: 'IS', suffix: 'IC' },
  XTAL: { country: 'EE', suffix: 'TL' },
  XRIS: { country: 'LV', suffix: 'RG' },
  XLIT: { country: 'LT', suffix: 'VS' },
  XWAR: { country: 'PL', suffix: 'WA' },
  XPRA: { country: 'CZ', suffix: 'PR' },
  XBUD: { country: 'HU', suffix: 'BD' },
  ASEX: { country: 'GR', suffix: 'AT' },
  XIST: { country: 'TR', suffix: 'IS' },
  MISX: { country: 'RU', suffix: 'ME' },
  XBSE: { country: 'RO', suffix: 'RO' },
  XZAG: { country: 'HR', suffix: 'ZA' },
  XTKS: { country: 'JP', suffix: 'T' },
  XFKA: { country: 'JP', suffix: 'F' },
  XSAP: { country: 'JP', suffix: 'S' },
  XHKG: { country: 'HK', suffix: 'HK' },
  XSHG: { country: 'CN', suffix: 'SS' },
  XSHE: { country: 'CN', suffix: 'SZ' },
  XKRX: { country: 'KR', suffix: 'KS' },
  XKOS: { country: 'KR', suffix: 'KQ' },
  XTAI: { country: 'TW', suffix: 'TW' },
  ROCO: { country: 'TW', suffix: 'TWO' },
  XSES: { country: 'SG', suffix: 'SI' },
  XKLS: { country: 'MY', suffix: 'KL' },
  XBKK: { country: 'TH', suffix: 'BK' },
  XIDX: { country: 'ID', suffix: 'JK' },
  XPHS: { country: 'PH', suffix: 'PS' },
  XSTC: { country: 'VN', suffix: 'VN' },
  HSTC: { country: 'VN', suffix: 'VN' },
  XBOM: { country: 'IN', suffix: 'BO' },
  XNSE: { country: 'IN', suffix: 'NS' },
  XKAR: { country: 'PK', suffix: 'KA' },
  XCOL: { country: 'LK', suffix: 'CM' },
  XASX: { country: 'AU', suffix: 'AX' },
  XNZE: { country: 'NZ', suffix: 'NZ' },
  XTAE: { country: 'IL', suffix: 'TA' },
  XSAU: { country: 'SA', suffix: 'SR' },
  DSMD: { country: 'QA', suffix: 'QA' },
  XADS: { country: 'AE', suffix: 'AD' },
  XDFM: { country: 'AE', suffix: 'AE' },
  XBAH: { country: 'BH', suffix: 'BH' },
  XMUS: { country: 'OM', suffix: 'OM' },
  XCAI: { country: 'EG', suffix: 'CA' },
  XCAS: { country: 'MA', suffix: 'CS' },
  XJSE: { country: 'ZA', suffix: 'JO' },
  XNSA: { country: 'NG', suffix: 'LG' },
  XNAI: { country: 'KE', suffix: 'NR' },
  XBOT: { country: 'BW', suffix: 'BW' },
  XZIM: { country: 'ZW', suffix: 'ZW' },
  XLUS: { country: 'ZM', suffix: 'LUSE' },
  XGHA: { country: 'GH', suffix: 'GH' },
  XMAU: { country: 'MU', suffix: 'MU' },
  XMEX: { country: 'MX', suffix: 'MX' },
  BVMF: { country: 'BR', suffix: 'SA' },
  XBUE: { country: 'AR', suffix: 'BA' },
  XSGO: { country: 'CL', suffix: 'SN' },
  XLIM: { country: 'PE', suffix: 'LM' },
  BVCA: { country: 'VE', suffix: 'CR' },
};

/** Vendor suffix (`T`, `L`, `DE`) → the exchanges that use it (`F` is Frankfurt's and Fukuoka's). */
export const SUFFIX_MICS: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const [mic, { suffix }] of Object.entries(EXCHANGES)) {
    if (suffix) map.set(suffix, [...(map.get(suffix) ?? []), mic]);
  }
  return map;
})();

/**
 * The exchange a vendor symbol's suffix names (`UMG.AS` → XAMS), when only one exchange uses that suffix: for rows
 * whose exchange column is empty. Null for a symbol without a suffix or with an ambiguous one.
 */
export function micOfVendorSuffix(symbol: string): string | null {
  const suffix = /\.([A-Z]{1,4})$/.exec(symbol.trim().toUpperCase())?.[1];
  const mics = suffix ? SUFFIX_MICS.get(suffix) : undefined;
  return mics?.length === 1 ? (mics[0] ?? null) : null;
}

/** Market or segment MICs some sources write, mapped to the operating MIC we store (the README's XJPX→XTKS). */
const MIC_FIXES: Readonly<Record<string, string>> = {
  XJPX: 'XTKS',
  XNGS: 'XNAS',
  XNMS: 'XNAS',
  XNCM: 'XNAS',
  XOSE: 'XTKS',
  XETA: 'XETR',
  XLSE: 'XLON',
};

/** Upper-cased, segment MICs replaced by the operating MIC; null when it is not a known exchange. */
export function operatingMic(mic: string): string | null {
  const upper = mic.trim().toUpperCase();
  const fixed = MIC_FIXES[upper] ?? upper;
  return fixed in EXCHANGES ? fixed : null;
}

export function exchangeCountry(mic: string): string | null {
  return EXCHANGES[mic]?.country ?? null;
}

/** FinanceDatabase's (Yahoo's) exchange codes, for rows without a MIC and for the 2022 snapshot. */
export const YAHOO_EXCHANGE_MICS: Readonly<Record<string, string>> = {
  NMS: 'XNAS', NGM: 'XNAS', NCM: 'XNAS', NAS: 'XNAS', NYQ: 'XNYS', NYS: 'XNYS', ASE: 'XASE', PCX: 'ARCX', BTS: 'BATS',
  PNK: 'OTCM', OQB: 'OTCM', OQX: 'OTCM', OEM: 'OTCM', OID: 'OTCM', OBB: 'OTCM', NAE: 'OTCM',
  FRA: 'XFRA', GER: 'XETR', BER: 'XBER', MUN: 'XMUN', DUS: 'XDUS', HAM: 'XHAM', HAN: 'XHAN', STU: 'XSTU',
  JPX: 'XTKS', FKA: 'XFKA', SAP: 'XSAP', SHZ: 'XSHE', SHH: 'XSHG', HKG: 'XHKG', KSC: 'XKRX', KOE: 'XKOS', TAI: 'XTAI', TWO: 'ROCO',
  SES: 'XSES', KLS: 'XKLS', SET: 'XBKK', JKT: 'XIDX', BSE: 'XBOM', NSI: 'XNSE', CSE: 'XCOL', ASX: 'XASX', NZE: 'XNZE',
  LSE: 'XLON', IOB: 'XLON', AQS: 'AQXE', PAR: 'XPAR', AMS: 'XAMS', BRU: 'XBRU', LIS: 'XLIS', ISE: 'XDUB', MIL: 'XMIL', MCE: 'XMAD',
  EBS: 'XSWX', VIE: 'XWBO', STO: 'XSTO', OSL: 'XOSL', CPH: 'XCSE', HEL: 'XHEL', ICE: 'XICE', TAL: 'XTAL', RIS: 'XRIS', LIT: 'XLIT',
  PRA: 'XPRA', BUD: 'XBUD', ATH: 'ASEX', IST: 'XIST', MCX: 'MISX', TLV: 'XTAE', SAU: 'XSAU', DOH: 'DSMD', CAI: 'XCAI', JNB: 'XJSE',
  TOR: 'XTSE', VAN: 'XTSX', CNQ: 'XCNQ', NEO: 'NEOE', MEX: 'XMEX', SAO: 'BVMF', BUE: 'XBUE', SGO: 'XSGO', CCS: 'BVCA',
};

/** free-ticker-database's exchange names. `Euronext` alone is resolved by the listing's country (euronextMic). */
export const FREE_TICKER_EXCHANGE_MICS: Readonly<Record<string, string>> = {
  NASDAQ: 'XNAS', NYSE: 'XNYS', 'NYSE ARCA': 'ARCX', 'NYSE MKT': 'XASE', BATS: 'BATS', LSE: 'XLON', TSE: 'XTKS', SZSE: 'XSHE',
  SSE: 'XSHG', HKEX: 'XHKG', BSE_IN: 'XBOM', NSE_IN: 'XNSE', XETRA: 'XETR', KRX: 'XKRX', KOSDAQ: 'XKOS', TSX: 'XTSE', TSXV: 'XTSX',
  NEO: 'NEOE', B3: 'BVMF', ASX: 'XASX', TWSE: 'XTAI', TPEX: 'ROCO', Bursa: 'XKLS', STO: 'XSTO', IDX: 'XIDX', TASE: 'XTAE',
  BIST: 'XIST', SET: 'XBKK', SGX: 'XSES', SIX: 'XSWX', PSX: 'XKAR', WSE: 'XWAR', CSE_LK: 'XCOL', EGX: 'XCAI', OSL: 'XOSL',
  AMS: 'XAMS', JSE: 'XJSE', TADAWUL: 'XSAU', HEL: 'XHEL', BME: 'XMAD', HOSE: 'XSTC', HNX: 'HSTC', NGX: 'XNSA', BMV: 'XMEX',
  CPH: 'XCSE', ATHEX: 'ASEX', SSE_CL: 'XSGO', MSX: 'XMUS', PSE: 'XPHS', ADX: 'XADS', BVB: 'XBSE', CSE_MA: 'XCAS', BCBA: 'XBUE',
  QSE: 'DSMD', SEM: 'XMAU', DFM: 'XDFM', NSE_KE: 'XNAI', NZX: 'XNZE', BSE_BW: 'XBOT', BVL: 'XLIM', BHB: 'XBAH', ZSE_ZW: 'XZIM',
  VSE: 'XWBO', BSE_HU: 'XBUD', PSE_CZ: 'XPRA', ZSE: 'XZAG', LUSE: 'XLUS', GSE: 'XGHA',
};

const EURONEXT_BY_COUNTRY: Readonly<Record<string, string>> = { FR: 'XPAR', NL: 'XAMS', BE: 'XBRU', PT: 'XLIS', IE: 'XDUB', NO: 'XOSL', IT: 'XMIL' };

/** A listing on "Euronext" without a venue: the venue of the company's country, Paris otherwise. */
export function euronextMic(country: string | null): string {
  return (country && EURONEXT_BY_COUNTRY[country]) ?? 'XPAR';
}

/** SEC's exchange names in company_tickers_exchange.json. */
export const SEC_EXCHANGE_MICS: Readonly<Record<string, string>> = { Nasdaq: 'XNAS', NYSE: 'XNYS', OTC: 'OTCM', CBOE: 'BATS' };

/** Regional and off-exchange venues: a company's listing there is never its primary one (Xetra is, for Germany). */
const SECONDARY_VENUES = new Set(['XBER', 'XMUN', 'XDUS', 'XHAM', 'XHAN', 'XSTU', 'XFRA', 'OTCM', 'AQXE', 'XFKA', 'XSAP']);

export function isSecondaryVenue(mic: string): boolean {
  return SECONDARY_VENUES.has(mic);
}

/**
 * Venues by prominence, for the last tie-break between equally ranked listings of a plain ticker (a homonym on
 * two home markets): the bigger market first. Unlisted venues come after these, secondary venues last.
 */
const PROMINENCE = ['XNYS', 'XNAS', 'ARCX', 'BATS', 'XLON', 'XETR', 'XTKS', 'XPAR', 'XHKG', 'XSHG', 'XSHE', 'XSWX', 'XAMS', 'XTSE',
  'XASX', 'XKRX', 'XNSE', 'XBOM', 'XTAI', 'XMIL', 'XMAD', 'XSTO', 'XCSE', 'XHEL', 'XOSL', 'XBRU', 'XDUB', 'XLIS', 'XWBO', 'BVMF',
  'XMEX', 'XJSE', 'XSES', 'XASE'];

export function venueProminence(mic: string): number {
  const i = PROMINENCE.indexOf(mic);
  if (i >= 0) return i;
  return isSecondaryVenue(mic) ? 1000 : 500;
}
