/**
 * Trains the industry classifier offline and writes src/crawl/fields/industries/industry-model.json,
 * eval/industries/training-report.json and the held-out test sample in test/fixtures/industries/.
 *   node --import tsx scripts/train-industries.ts [company_descriptions.csv.gz]
 * Default input: ../shared/refdata/financedatabase/company_descriptions.csv.gz (MIT). Method: eval/industries/train.ts,
 * docs/industries.md, ADR 0025.
 */
import { train } from '../eval/industries/train.js';

await train(process.argv[2]);
