/**
 * Regenerates src/crawl/fields/fonts/google-font-families.json, the Google Fonts family list the crawler uses to recognise a
 * self-hosted Google family, from the `google-fonts-complete` dev dependency (1,581 families, data of late 2024).
 *   node --import tsx eval/record/build-google-font-list.ts
 */
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const data = require('google-fonts-complete/google-fonts.json') as Record<string, { category?: string }>;
const families = Object.keys(data).sort((a, b) => a.localeCompare(b, 'en'));
const target = new URL('../../src/crawl/fields/fonts/google-font-families.json', import.meta.url);
await writeFile(target, `${JSON.stringify(families)}\n`);
console.log(`wrote ${families.length} families to ${target.pathname}`);
