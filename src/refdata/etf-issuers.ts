/**
 * ETF issuers → the registrable domain of the issuer's brand (spec rule 9: an ETF ticker answers the provider's
 * brand). Matched on the issuer name a source gives (FinanceDatabase's `family`) or, when there is none, on the
 * fund's name (free-ticker-database has no issuer column; fund names start with the brand: "iShares Core …").
 *
 * Decision: iShares funds answer ishares.com, the ETF brand investors see on the fund, not blackrock.com; SPDR and
 * State Street answer ssga.com; Xtrackers/DWS answer xtrackers.com... see docs/reference-data.md.
 */

interface Issuer {
  domain: string;
  /** Lower-case patterns matched at a word start in the family or the fund name. */
  patterns: readonly string[];
}

const ISSUERS: readonly Issuer[] = [
  { domain: 'ishares.com', patterns: ['ishares', 'blackrock'] },
  { domain: 'vanguard.com', patterns: ['vanguard'] },
  { domain: 'ssga.com', patterns: ['spdr', 'state street'] },
  { domain: 'invesco.com', patterns: ['invesco', 'powershares'] },
  { domain: 'schwab.com', patterns: ['schwab'] },
  { domain: 'jpmorgan.com', patterns: ['jpmorgan', 'jp morgan', 'j.p. morgan'] },
  { domain: 'fidelity.com', patterns: ['fidelity'] },
  { domain: 'amundi.com', patterns: ['amundi', 'lyxor'] },
  { domain: 'xtrackers.com', patterns: ['xtrackers', 'dws', 'db x-trackers'] },
  { domain: 'wisdomtree.com', patterns: ['wisdomtree'] },
  { domain: 'vaneck.com', patterns: ['vaneck', 'van eck', 'market vectors'] },
  { domain: 'proshares.com', patterns: ['proshares'] },
  { domain: 'globalxetfs.com', patterns: ['global x'] },
  { domain: 'ftportfolios.com', patterns: ['first trust'] },
  { domain: 'ubs.com', patterns: ['ubs'] },
  { domain: 'hsbc.com', patterns: ['hsbc'] },
  { domain: 'nomura.com', patterns: ['nomura', 'next funds'] },
  { domain: 'nikkoam.com', patterns: ['nikko'] },
  { domain: 'miraeasset.com', patterns: ['mirae', 'tiger'] },
  { domain: 'globalx.ca', patterns: ['horizons'] },
  { domain: 'betashares.com.au', patterns: ['betashares'] },
  { domain: 'franklintempleton.com', patterns: ['franklin'] },
  { domain: 'deka.de', patterns: ['deka'] },
  { domain: 'bnpparibas-am.com', patterns: ['bnp paribas'] },
  { domain: 'allianzgi.com', patterns: ['allianz'] },
  { domain: 'lgim.com', patterns: ['lgim', 'l&g', 'legal & general'] },
  { domain: 'goldmansachs.com', patterns: ['goldman sachs'] },
  { domain: 'bmo.com', patterns: ['bmo'] },
  { domain: 'direxion.com', patterns: ['direxion'] },
  { domain: 'pimco.com', patterns: ['pimco'] },
  { domain: 'kraneshares.com', patterns: ['kraneshares'] },
  { domain: 'ark-funds.com', patterns: ['ark '] },
  { domain: 'ci.com', patterns: ['ci investments', 'ci first asset'] },
  { domain: 'hanetf.com', patterns: ['hanetf'] },
  { domain: 'janushenderson.com', patterns: ['janus henderson'] },
  { domain: 'samsungfund.com', patterns: ['samsung', 'kodex'] },
  { domain: 'kbstar.com', patterns: ['kbstar'] },
  { domain: 'daiwa-am.co.jp', patterns: ['daiwa'] },
  { domain: 'am-one.co.jp', patterns: ['asset management one'] },
  { domain: 'mackenzieinvestments.com', patterns: ['mackenzie'] },
  { domain: 'innovatoretfs.com', patterns: ['innovator'] },
  { domain: 'flexshares.com', patterns: ['flexshares'] },
  { domain: 'ossiam.com', patterns: ['ossiam'] },
  { domain: 'purposeinvest.com', patterns: ['purpose'] },
  { domain: 'columbiathreadneedle.com', patterns: ['columbia', 'threadneedle'] },
];

const COMPILED = ISSUERS.map((issuer) => ({
  domain: issuer.domain,
  // A pattern must start a word: "ubs" must not match "subsea".
  re: new RegExp(`(?:^|[^a-z0-9])(?:${issuer.patterns.map((p) => p.replace(/[.*+?^${}()|[\]\\&]/g, '\\$&')).join('|')})`),
}));

/** The issuer brand's domain for an issuer (family) name, else for the fund's name; null when unknown. */
export function etfIssuerDomain(issuer: string | null, fundName: string): string | null {
  for (const text of [issuer, fundName]) {
    if (!text) continue;
    const lower = text.toLowerCase();
    const hit = COMPILED.find((c) => c.re.test(lower));
    if (hit) return hit.domain;
  }
  return null;
}
