/**
 * docs/configuration.md's tables, generated from the schema (config-schema.ts): one table per section, between
 * `<!-- settings:ID -->` and `<!-- /settings -->`; the prose around them is written by hand. `npm run config-docs`
 * rewrites them; test/config/config-doc.test.ts fails while the page differs from the schema.
 */
import { CONFIG_SECTIONS } from './config-schema.js';
import type { Setting } from './setting-types.js';

const HEADER = '| variable | default | meaning |\n|---|---|---|';
const BLOCK = /(<!-- settings:(\w+) -->\n)[\s\S]*?(\n<!-- \/settings -->)/g;
const ROW = /^\| `([A-Z][A-Z0-9_]*)` \| (.*?) \| (.*) \|$/gm;

function row(name: string, setting: Setting<unknown>): string {
  return `| \`${name}\` | ${setting.shownDefault} | ${setting.doc} |`;
}

/** The generated rows of every setting, by name. */
function schemaRows(): Map<string, string> {
  return new Map(CONFIG_SECTIONS.flatMap((section) => Object.entries(section.settings).map(([name, setting]): [string, string] => [name, row(name, setting)])));
}

export function settingsTable(sectionId: string): string {
  const section = CONFIG_SECTIONS.find((candidate) => candidate.id === sectionId);
  if (section === undefined) throw new Error(`no settings section "${sectionId}" (config-schema.ts)`);
  return [HEADER, ...Object.entries(section.settings).map(([name, setting]) => row(name, setting))].join('\n');
}

/** The page with each marked table replaced by the schema's. */
export function renderConfigDoc(doc: string): string {
  return doc.replace(BLOCK, (_block, open: string, id: string, close: string) => `${open}${settingsTable(id)}${close}`);
}

/** What the page gets wrong against the schema, one line each; empty when it is as generated. */
export function configDocProblems(doc: string): string[] {
  const expected = schemaRows();
  const documented = new Map([...doc.matchAll(ROW)].map((match): [string, string] => [match[1] ?? '', match[0]]));
  const problems: string[] = [];
  for (const [name, line] of expected) {
    const found = documented.get(name);
    if (found === undefined) problems.push(`${name} is a setting but is not documented`);
    else if (found !== line) problems.push(`${name} is documented as\n  ${found}\nbut the schema says\n  ${line}`);
  }
  for (const name of documented.keys()) if (!expected.has(name)) problems.push(`${name} is documented but is not a setting`);
  const sections = new Set([...doc.matchAll(BLOCK)].map((match) => match[2]));
  for (const section of CONFIG_SECTIONS) if (!sections.has(section.id)) problems.push(`the settings table "${section.id}" has no <!-- settings:${section.id} --> block`);
  if (problems.length === 0 && renderConfigDoc(doc) !== doc) problems.push('the settings tables are not in schema order: run npm run config-docs');
  return problems;
}
