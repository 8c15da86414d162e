/**
 * No shared file branches on the database it runs on: what differs between SQLite and PostgreSQL is a method of the
 * dialect quirks (src/db/dialect-quirks.ts), implemented in src/db/sqlite and src/db/postgres only (ADR: Kysely's
 * DialectAdapter shape). This reads every source file outside those two folders for the forms such a branch takes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BACKENDS = /^src\/db\/(sqlite|postgres)\//;

const BRANCHES: RegExp[] = [
  // dialect === 'postgres', opts.dialect !== x, kind == 'sqlite' ...
  /\bdialect\s*[!=]==?/,
  /[!=]==?\s*['"`](postgres|postgresql|sqlite)['"`]/,
  /['"`](postgres|postgresql|sqlite)['"`]\s*[!=]==?/,
  /\bcase\s+['"`](postgres|postgresql|sqlite)['"`]/,
  // asking Kysely which adapter runs the query
  /instanceof\s+(Sqlite|Postgres|Mysql|Mssql)(Adapter|Dialect|Driver)\b/,
  /getExecutor\(\)\s*\.adapter/,
];

function branchesIn(text: string): string[] {
  return text.split('\n').filter((line) => BRANCHES.some((pattern) => pattern.test(line)));
}

function sourceFiles(): string[] {
  return readdirSync(path.join(ROOT, 'src'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

describe('no dialect branches in shared code', () => {
  it('finds none in src/ outside src/db/sqlite and src/db/postgres', () => {
    const files = sourceFiles().filter((file) => !BACKENDS.test(file));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => branchesIn(readFileSync(path.join(ROOT, file), 'utf8')).map((line) => `${file}: ${line.trim()}`));
    expect(found).toEqual([]);
  });

  it('recognizes the branches shared code used to have', () => {
    const before = [
      "  if (dialect === 'postgres') return db.transaction().execute(fn);",
      "    .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked());",
      "    if (this.dialect === 'sqlite') {",
      "    this.#trgm ??= this.opts.dialect === 'postgres' ? search.trgmSchema(db) : null;",
      '  return db.getExecutor().adapter instanceof SqliteAdapter;',
      "    case 'postgres':",
    ];
    for (const line of before) expect(branchesIn(line), line).toEqual([line]);
    expect(branchesIn("await quirks.transactionLock(trx, { name: ['brandbase.brand.writes'] });")).toEqual([]);
  });
});
