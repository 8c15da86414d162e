/**
 * One revision as the revision comparison (bench/compare-revisions.ts) talks to it: its folder, its environment
 * (data folder, port, host map) and its `brandbase` program run as a child process. The comparison never imports
 * either tree's src/, because the two trees' source layouts differ; only the CLI and HTTP interfaces are shared.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface RevisionTree {
  /** `base` or `head`, as the figures are labelled. */
  name: string;
  /** The checkout holding `bin/brandbase.js`. */
  dir: string;
  /** Its `brandbase serve` listens here. */
  port: number;
  env: NodeJS.ProcessEnv;
}

/**
 * Runs `brandbase ARGS --json` of `tree` and returns the JSON object it printed last. Asynchronous, so receivers and
 * sites in this process keep answering while the command runs (a crawl or a webhook delivery waits on them).
 */
export async function brandbase(tree: RevisionTree, args: string[]): Promise<Record<string, unknown>> {
  try {
    const { stdout } = await run(process.execPath, [path.join(tree.dir, 'bin/brandbase.js'), ...args, '--json'], { env: tree.env, cwd: tree.dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? '';
    const message = stderr.split('\n').find((line) => /error/i.test(line)) ?? stderr.trim().slice(-600);
    throw new Error(`${tree.name}: brandbase ${args.slice(0, 2).join(' ')} failed: ${message || String(err)}`);
  }
}

export function treeUrl(tree: RevisionTree, pathname: string): string {
  return `http://127.0.0.1:${tree.port}${pathname}`;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** `part` of the sorted values (0.9: the 90th percentile, nearest rank). */
export function percentile(values: number[], part: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(part * sorted.length) - 1)] ?? 0;
}

/** Runs `count` tasks, `concurrency` at a time, and returns how many per second completed. */
export async function perSecond(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return count / ((performance.now() - started) / 1000);
}
