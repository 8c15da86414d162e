/**
 * The optional configuration file: `KEY=value` lines (the .env format) holding the same settings as the
 * environment, so the server and every CLI command read one configuration wherever they are started from.
 * Found at BRANDBASE_CONFIG_FILE, else `brandbase.env` in the installation folder when it exists. The
 * environment wins over the file. A relative BRANDBASE_DATA_DIR in the file is relative to the file's folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { INSTALL_DIR, loadConfig, type Config } from './config.js';
import { CONFIG_SCHEMA } from './config-schema.js';
import { ConfigError, type Env } from './setting-types.js';

export const DEFAULT_CONFIG_FILE = path.join(INSTALL_DIR, 'brandbase.env');

const KNOWN: ReadonlySet<string> = new Set(Object.keys(CONFIG_SCHEMA));

/** The configuration file's settings, checked: an unknown name is a typo that would otherwise be silently ignored. */
export function readConfigFile(file: string): Record<string, string> {
  let parsed: Record<string, string>;
  try {
    parsed = parseEnv(readFileSync(file, 'utf8')) as Record<string, string>;
  } catch (error) {
    throw new ConfigError(`cannot read the configuration file ${file}: ${(error as Error).message}`);
  }
  const unknown = Object.keys(parsed).filter((name) => !KNOWN.has(name) || name === 'BRANDBASE_CONFIG_FILE');
  if (unknown.length > 0) throw new ConfigError(`${file}: unknown setting ${unknown.join(', ')} (see docs/configuration.md)`);
  const dataDir = parsed.BRANDBASE_DATA_DIR?.trim();
  if (dataDir) parsed.BRANDBASE_DATA_DIR = path.resolve(path.dirname(file), dataDir);
  return parsed;
}

/** Which file configures this process, or null: the named one must exist; the default one may be absent. */
export function configFileFor(env: Env): string | null {
  const named = env.BRANDBASE_CONFIG_FILE?.trim();
  if (named) {
    const file = path.resolve(named);
    if (!existsSync(file)) throw new ConfigError(`BRANDBASE_CONFIG_FILE names ${file}, which does not exist`);
    return file;
  }
  return existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : null;
}

/** Config from the environment over the configuration file: what `brandbase` commands and the server run with. */
export function loadConfigWithFile(env: Env = process.env): { config: Readonly<Config>; file: string | null } {
  const file = configFileFor(env);
  const merged = file ? { ...readConfigFile(file), ...definedOnly(env) } : env;
  return { config: loadConfig(merged), file };
}

function definedOnly(env: Env): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1].trim() !== ''));
}
