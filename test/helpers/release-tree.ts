/**
 * Another revision of this repository checked out beside it (`git worktree`), sharing this checkout's node_modules
 * and built the way that revision builds: for tests and benches that run two releases side by side (the upgrade
 * test, `npm run bench -- --base REV`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The release before this one: the last commit that landed before the current work began. Update it when a
 * release lands (the upgrade test then proves the next release reads this one's data).
 */
export const PREVIOUS_RELEASE = '4aaba9f';

export interface ReleaseTree {
  /** The full commit id checked out. */
  sha: string;
  /** The folder holding it (with `bin/brandbase.js`). */
  dir: string;
  remove(): void;
}

/** A revision from ADR 0018 on runs its built program (dist/): build it; earlier ones ran the sources through tsx. */
export function buildIfBuilt(tree: string): void {
  const script = path.join(tree, 'scripts/build.mjs');
  if (existsSync(script)) execFileSync(process.execPath, [script], { cwd: tree, stdio: 'ignore' });
}

/** Checks `revision` out in a temporary folder and builds it. Throws when the revision is not in this clone. */
export async function checkoutRelease(revision: string): Promise<ReleaseTree> {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${revision}^{commit}`], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-release-'));
  execFileSync('git', ['worktree', 'add', '--detach', dir, sha], { cwd: REPO_ROOT, stdio: 'ignore' });
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  buildIfBuilt(dir);
  return {
    sha,
    dir,
    remove: () => execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: REPO_ROOT, stdio: 'ignore' }),
  };
}
