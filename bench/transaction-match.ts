/**
 * Transaction matches per second with 100,000 names in the index (issue 21), part of `npm run bench`; alone:
 * `node --import tsx bench/transaction-match.ts`. Two fresh SQLite stores as `serve` opens them (embedded reference
 * data and the eval's held brands); one also gets 100,000 generated company listings, so its name index holds
 * 100,000 more names. The eval descriptors (eval/transactions/descriptors.ts, cycled) are matched one at a time
 * through MerchantMatcher, in rounds alternating between the stores. Reported: matches per second (median of the
 * rounds) and p95 latency for all descriptors and for those that reach the name index, and the loaded/baseline ratio.
 * Wall-clock on whatever machine runs it: a figure, never a test.
 */
import { openEvalStore } from '../eval/transactions/eval-store.js';
import { DESCRIPTORS } from '../eval/transactions/descriptors.js';
import type { Listing } from '../src/refdata/reference-data.js';
import type { MerchantMatcher } from '../src/transactions/merchant-matcher.js';

const TARGET_NAMES = 100_000;
const SECONDS = Number(process.env.BENCH_TRANSACTION_SECONDS ?? 4);
const ROUNDS = 3;

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ten', 'vor', 'qua', 'zel', 'dri', 'sun', 'pex', 'bal', 'nor', 'tig', 'wex', 'lum', 'cor', 'fen', 'gar', 'hol'];
const TAILS = ['Foods', 'Systems', 'Holdings', 'Retail', 'Labs', 'Outfitters', 'Motors', 'Pharma', 'Energy', 'Logistics', 'Bakery', 'Coffee', ''];

/** A deterministic pronounceable company name for row `i` (distinct for every i below 20^4 × 13). */
function syntheticName(i: number): string {
  let n = i;
  let word = '';
  for (let k = 0; k < 4; k++) {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  const tail = TAILS[i % TAILS.length] ?? '';
  return `${word.charAt(0).toUpperCase()}${word.slice(1)} ${tail}`.trim();
}

function syntheticListings(count: number): Listing[] {
  const rows: Listing[] = [];
  for (let i = 0; i < count; i++) {
    const name = syntheticName(i);
    rows.push({
      ticker: `ZZ${i.toString(36).toUpperCase()}`,
      tickerNorm: `ZZ${i.toString(36).toUpperCase()}`,
      mic: 'XNAS',
      shareClass: null,
      name,
      isin: null,
      country: 'US',
      domain: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${i}.com`,
      primary: true,
      rank: 5,
      source: 'bench',
      sourceDate: '2026-11-28',
    });
  }
  return rows;
}

type Input = { transactionLabel: string; countryCode: string; mcc?: string; city?: string };

const ALL: Input[] = DESCRIPTORS.map((d) => ({ transactionLabel: d.label, countryCode: d.countryCode, mcc: d.mcc, city: d.city }));

interface Rate {
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
}

async function matchesPerSecond(matcher: MerchantMatcher, inputs: readonly Input[]): Promise<Rate> {
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; performance.now() - start < SECONDS * 1000; i++) {
    const input = inputs[i % inputs.length] as Input;
    const t0 = performance.now();
    await matcher.match(input);
    times.push(performance.now() - t0);
  }
  const elapsed = (performance.now() - start) / 1000;
  times.sort((a, b) => a - b);
  const at = (p: number): number => Math.round((times[Math.floor((times.length - 1) * p)] ?? 0) * 100) / 100;
  return { perSecond: Math.round(times.length / elapsed), p50Ms: at(0.5), p95Ms: at(0.95) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Rounds alternate between the two stores, so a busy moment of the machine costs both alike. */
async function alternate(baseline: MerchantMatcher, loaded: MerchantMatcher, inputs: readonly Input[]): Promise<Record<string, unknown>> {
  const a: Rate[] = [];
  const b: Rate[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    a.push(await matchesPerSecond(baseline, inputs));
    b.push(await matchesPerSecond(loaded, inputs));
  }
  const perSecond = { baseline: median(a.map((r) => r.perSecond)), loaded: median(b.map((r) => r.perSecond)) };
  return {
    matchesPerSecond: perSecond,
    p95Ms: { baseline: median(a.map((r) => r.p95Ms)), loaded: median(b.map((r) => r.p95Ms)) },
    ratioLoadedToBaseline: Math.round((perSecond.loaded / Math.max(1, perSecond.baseline)) * 100) / 100,
  };
}

export async function benchTransactionMatch(): Promise<Record<string, unknown>> {
  const baseline = await openEvalStore();
  const loaded = await openEvalStore();
  try {
    await loaded.referenceData.upsertListings(syntheticListings(TARGET_NAMES));
    await loaded.referenceData.recordReferenceImport({ source: 'bench', format: 'bench', file: 'synthetic', sourceDate: '2026-11-28', importedAt: new Date(), report: '{}' });
    for (const s of [baseline, loaded]) await s.search.syncSearchReferenceNames(true);
    // Descriptors that reach the name index (no alias or seller prefix decides them): the store-bound path.
    const indexed: Input[] = [];
    for (const input of ALL) {
      const best = await baseline.matcher.bestCandidate(input);
      if (!best || (best.source !== 'alias' && best.source !== 'processor')) indexed.push(input);
    }
    for (const input of ALL) await loaded.matcher.match(input);
    return {
      names: { baseline: 'embedded reference data + 17 held brands (a fresh store)', loaded: `the same + ${TARGET_NAMES} generated company names` },
      allDescriptors: { count: ALL.length, ...(await alternate(baseline.matcher, loaded.matcher, ALL)) },
      nameIndexDescriptors: { count: indexed.length, ...(await alternate(baseline.matcher, loaded.matcher, indexed)) },
      secondsPerRound: SECONDS,
      rounds: ROUNDS,
    };
  } finally {
    await baseline.close();
    await loaded.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchTransactionMatch(), null, 2));
