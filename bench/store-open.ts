/**
 * How long opening a NEW store takes (issue 34 item 6): migrations plus the embedded reference data (listings, ETFs,
 * crypto assets and the brand knowledge set), as `brandbase migrate` or the server's first start does it
 * (`openBackends`), then the first search's one-time sync of the reference names into the name index. Each run opens a
 * fresh SQLite file (or a fresh PostgreSQL schema when `BENCH_PG_URL` is set) in a new child process, so module loading
 * and the store are cold every time. Prints each run and the median.
 * Run: `node --import tsx bench/store-open.ts [runs]` (default 5).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const RUNS = Number(process.argv[2] ?? 5);
const PG_URL = process.env.BENCH_PG_URL;

interface Timing {
  openMs: number;
  syncMs: number;
  rows: Record<string, number>;
}

/** The child: one cold open of a new store, timed. */
async function child(dataDir: string): Promise<void> {
  const started = performance.now();
  const [{ loadConfig }, { openBackends }] = await Promise.all([import('../src/config/config.js'), import('../src/main/open-backends.js')]);
  const env: Record<string, string> = { BRANDBASE_DATA_DIR: dataDir };
  const schema = process.env.BENCH_PG_SCHEMA;
  if (PG_URL && schema) env.BRANDBASE_DATABASE_URL = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
  const backends = await openBackends(loadConfig(env));
  const openMs = performance.now() - started;
  const syncStarted = performance.now();
  await backends.stores.search.syncSearchReferenceNames();
  const syncMs = performance.now() - syncStarted;
  const { sources } = await backends.stores.referenceData.referenceStatus();
  const rows: Record<string, number> = {};
  for (const s of sources) rows[s.table] = (rows[s.table] ?? 0) + s.rows;
  await backends.close();
  process.stdout.write(JSON.stringify({ openMs, syncMs, rows } satisfies Timing));
}

async function createSchema(schema: string): Promise<void> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`create schema "${schema}"`);
  } finally {
    await client.end();
  }
}

async function dropSchema(schema: string): Promise<void> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  const timings: Timing[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-open-'));
    const schema = PG_URL ? `bench_${randomBytes(4).toString('hex')}` : undefined;
    try {
      if (schema) await createSchema(schema);
      const out = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', dir], {
        env: { ...process.env, ...(schema ? { BENCH_PG_SCHEMA: schema } : {}) },
        encoding: 'utf8',
      });
      const timing = JSON.parse(out) as Timing;
      timings.push(timing);
      process.stdout.write(`run ${i + 1}: open ${timing.openMs.toFixed(0)} ms, first search sync ${timing.syncMs.toFixed(0)} ms, rows ${JSON.stringify(timing.rows)}\n`);
    } finally {
      await rm(dir, { recursive: true, force: true });
      if (schema) await dropSchema(schema);
    }
  }
  const backend = PG_URL ? 'PostgreSQL' : 'SQLite';
  process.stdout.write(
    `${backend}, ${RUNS} runs: new store open median ${median(timings.map((t) => t.openMs)).toFixed(0)} ms; first search sync median ${median(timings.map((t) => t.syncMs)).toFixed(0)} ms\n`,
  );
}

if (process.argv[2] === '--child') await child(process.argv[3] ?? '');
else await main();
