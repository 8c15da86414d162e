/**
 * The `brandbase` program as users run it (the built dist/, through bin/brandbase.js): its version, a description
 * for every command, one store wherever it is run from, and the configuration file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_DIR, loadConfig } from '../../src/config/config.js';
import { buildProgram } from '../../src/cli/program.js';
import { runCli } from '../helpers/brandbase-process.js';

const PACKAGE = JSON.parse(readFileSync(path.join(INSTALL_DIR, 'package.json'), 'utf8')) as { version: string };

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...allCommands(c)]);
}

describe('program', () => {
  it('--version prints the package version and exits 0', async () => {
    const result = await runCli(['--version'], {});
    expect(result).toMatchObject({ code: 0, stdout: `${PACKAGE.version}\n` });
  });

  it('every command and subcommand has a description', () => {
    const commands = allCommands(buildProgram());
    expect(commands.length).toBeGreaterThan(15);
    const missing = commands.filter((c) => c.description().trim() === '').map((c) => c.name());
    expect(missing).toEqual([]);
  });

  it('help lists the commands with their descriptions', async () => {
    const result = await runCli(['orgs', '--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/list \[options\]\s+list organizations/);
  });
});

describe('one store wherever the command runs', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'brandbase-cli-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('defaults to the data folder of the installation, not of the current folder', () => {
    expect(loadConfig({}).dataDir).toBe(path.join(INSTALL_DIR, 'data'));
    expect(path.isAbsolute(INSTALL_DIR) && existsSync(path.join(INSTALL_DIR, 'package.json'))).toBe(true);
  });

  it('finds the store named by the configuration file from any folder, and says when it creates one', async () => {
    const configDir = path.join(root, 'etc');
    const elsewhere = path.join(root, 'somewhere', 'docs');
    const other = path.join(root, 'other');
    await Promise.all([mkdir(configDir, { recursive: true }), mkdir(elsewhere, { recursive: true }), mkdir(other, { recursive: true })]);
    const file = path.join(configDir, 'brandbase.env');
    await writeFile(file, '# Brandbase settings\nBRANDBASE_DATA_DIR=./store\nBRANDBASE_DEFAULT_FREE_QUOTA=123\n');
    const env = { BRANDBASE_CONFIG_FILE: file };

    const created = await runCli(['orgs', 'create', '--name', 'Acme', '--json'], env, { cwd: elsewhere });
    expect(created.code).toBe(0);
    const store = path.join(configDir, 'store', 'brandbase.sqlite');
    expect(created.stderr).toContain(`created a new store at ${store}`);
    expect(existsSync(store)).toBe(true);
    expect(readdirSync(elsewhere)).toEqual([]);
    const org = JSON.parse(created.stdout) as { id: string; quota: number };
    expect(org.quota).toBe(123);

    const listed = await runCli(['orgs', 'list', '--json'], env, { cwd: other });
    expect(listed.code).toBe(0);
    expect(listed.stderr).not.toContain('created a new store');
    expect(JSON.parse(listed.stdout).organizations).toEqual([expect.objectContaining({ id: org.id })]);
    expect(readdirSync(other)).toEqual([]);
  });

  it('the environment wins over the configuration file', async () => {
    const file = path.join(root, 'env-wins.env');
    await writeFile(file, 'BRANDBASE_DATA_DIR=./never\n');
    const dataDir = path.join(root, 'from-env');
    const result = await runCli(['migrate', '--json'], { BRANDBASE_CONFIG_FILE: file, BRANDBASE_DATA_DIR: dataDir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ migrated: true, store: path.join(dataDir, 'brandbase.sqlite') });
    expect(existsSync(path.join(root, 'never'))).toBe(false);
  });

  it('a misspelled setting in the file, or a missing file, is a one-line error with exit code 2', async () => {
    const file = path.join(root, 'typo.env');
    await writeFile(file, 'BRANDBASE_DATADIR=/tmp/x\n');
    const typo = await runCli(['orgs', 'list'], { BRANDBASE_CONFIG_FILE: file });
    expect(typo).toMatchObject({ code: 2, stdout: '' });
    expect(typo.stderr.trim()).toBe(`brandbase: ${file}: unknown setting BRANDBASE_DATADIR (see docs/configuration.md)`);
    const missing = await runCli(['orgs', 'list'], { BRANDBASE_CONFIG_FILE: path.join(root, 'absent.env') });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('does not exist');
  });
});
