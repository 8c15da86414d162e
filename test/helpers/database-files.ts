/**
 * The SQLite files of a data folder, read for a byte scan ("this secret is stored nowhere"). A scan that read no
 * file, or an empty one, would pass whatever is stored: this helper fails unless the database file is there and
 * holds bytes, and reads its write-ahead log too when there is one (recent writes live there until a checkpoint).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';

export const SQLITE_FILE = 'brandbase.sqlite';

export interface DatabaseFile {
  file: string;
  bytes: Buffer;
}

export async function readDatabaseFiles(dataDir: string, name = SQLITE_FILE): Promise<DatabaseFile[]> {
  const present = await readdir(dataDir);
  expect(present, `the database file ${name} in ${dataDir}`).toContain(name);
  const names = [name, `${name}-wal`].filter((file) => present.includes(file));
  const files = await Promise.all(names.map(async (file) => ({ file, bytes: await readFile(path.join(dataDir, file)) })));
  expect(files[0]?.bytes.length, `bytes in ${name}`).toBeGreaterThan(0);
  return files;
}

/** The files (of those read) whose bytes contain `needle`. */
export function filesContaining(files: DatabaseFile[], needle: string): string[] {
  return files.filter(({ bytes }) => bytes.includes(Buffer.from(needle))).map(({ file }) => file);
}
