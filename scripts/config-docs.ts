/**
 * Rewrites the settings tables of docs/configuration.md from the schema (src/config/config-schema.ts), leaving the
 * prose between them alone. `--check` only reports what differs (exit code 1), as test/config/config-doc.test.ts does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { configDocProblems, renderConfigDoc } from '../src/config/config-doc.js';

const file = new URL('../docs/configuration.md', import.meta.url);
const doc = readFileSync(file, 'utf8');
if (process.argv.includes('--check')) {
  const problems = configDocProblems(doc);
  for (const problem of problems) console.error(problem);
  process.exitCode = problems.length > 0 ? 1 : 0;
} else {
  const rendered = renderConfigDoc(doc);
  writeFileSync(file, rendered);
  // What rendering cannot fix: a section without its markers, a row outside the tables.
  for (const problem of configDocProblems(rendered)) console.error(problem);
}
