/**
 * Fetches the labelled real images of the image-kind eval (eval/images/labels.tsv) into a cache folder outside the
 * repository: `apt-get download` of the Debian packages that ship them (the versions labelled, else the current
 * one), unpacked with `dpkg-deb -x`. Needs a Debian system with apt (run `apt-get update` once first).
 *   npm run fetch-image-set [-- DIR]        DIR defaults to $BRANDBASE_IMAGE_EVAL_DIR or ~/.cache/brandbase/image-eval
 * The eval checks every file's sha256 against the labels and leaves out (and counts) any that differ.
 * Sources and licences: docs/images.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { imageSetDir, LABELLED_PACKAGES } from '../eval/images/image-set.js';

function download(pkg: string, version: string, debs: string): string {
  for (const spec of [`${pkg}=${version}`, pkg]) {
    try {
      execFileSync('apt-get', ['download', spec], { cwd: debs, stdio: ['ignore', 'ignore', 'pipe'] });
      const file = readdirSync(debs).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
      if (file) return join(debs, file);
    } catch (error) {
      console.error(`apt-get download ${spec} failed: ${(error as Error).message.split('\n')[0] ?? ''}`);
    }
  }
  throw new Error(`could not download ${pkg}`);
}

function main(): void {
  const dir = imageSetDir(process.argv[2]);
  const debs = join(dir, 'debs');
  mkdirSync(debs, { recursive: true });
  for (const [pkg, version] of Object.entries(LABELLED_PACKAGES)) {
    const target = join(dir, 'x', pkg);
    if (existsSync(target)) continue;
    const deb = download(pkg, version, debs);
    mkdirSync(target, { recursive: true });
    execFileSync('dpkg-deb', ['-x', deb, target]);
    process.stdout.write(`${pkg}: unpacked ${deb}\n`);
  }
  process.stdout.write(`image set in ${dir}; run \`npm run eval\` to score it\n`);
}

main();
