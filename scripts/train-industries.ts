/**
 * Trains the industry classifier offline and writes src/crawl/fields/industries/industry-model.json,
 * eval/industries/training-report.json and the held-out test sample in test/fixtures/industries/, then the
 * home-page register model (industry-home-page-model.json, eval/industries/home-page-report.json), which is
 * calibrated against the listing model just written.
 *   node --import tsx scripts/train-industries.ts [--home-page-only] [company_descriptions.csv.gz]
 * Default input: ../shared/refdata/financedatabase/company_descriptions.csv.gz (MIT). Method: eval/industries/train.ts,
 * eval/industries/home-page-train.ts, docs/industries.md, ADR 0025.
 */
import { trainHomePage } from '../eval/industries/home-page-train.js';
import { train } from '../eval/industries/train.js';

const homePageOnly = process.argv.includes('--home-page-only');
const source = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (!homePageOnly) await train(source);
await trainHomePage(source);
