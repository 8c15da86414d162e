/**
 * The types a setting can have, one parser each, and the one error every refused setting raises. The schema
 * (config-schema.ts) lists the settings with these types; config.ts derives `Config` from the values read here.
 */
import { isIP } from 'node:net';

/** A setting refused at start (the CLI prints it as a user error by its name, exit code 2). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

/** One setting: how its text is read, its value when unset, and its line in docs/configuration.md. */
export interface Setting<T> {
  /** The type's name (`int`, `text`, `secret`, ...): which parser reads it. */
  readonly kind: string;
  /** The "meaning" column of docs/configuration.md. */
  readonly doc: string;
  /** The "default" column: the default as written by its type, or a phrase where it is derived from other settings. */
  readonly shownDefault: string;
  /** The value when the setting is unset or blank; null where config.ts derives it from other settings. */
  readonly fallback: T;
  /** The value of a set setting (`raw` trimmed and not empty); a malformed one throws ConfigError naming `name`. */
  parse(raw: string, name: string): T;
}

/** What every setting declares besides its type: the documentation line and, where derived, the default's phrase. */
interface Described {
  doc: string;
  shown?: string;
}

type AnySetting = Setting<unknown>;
export type SettingValues<S extends Record<string, AnySetting>> = { [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

/** Each setting's value from `env` (blank counts as unset), in schema order; the first malformed one throws. */
export function readSettings<S extends Record<string, AnySetting>>(schema: S, env: Env): SettingValues<S> {
  const values: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(schema)) {
    const raw = env[name]?.trim();
    values[name] = raw ? setting.parse(raw, name) : setting.fallback;
  }
  return values as SettingValues<S>;
}

function setting<T>(kind: string, described: Described, fallback: T, shown: string, parse: (raw: string, name: string) => T): Setting<T> {
  return Object.freeze({ kind, doc: described.doc, shownDefault: described.shown ?? shown, fallback, parse });
}

function code(value: string | number): string {
  return `\`${value}\``;
}

/** A whole number within [min, max]. */
export function int<D extends number | null>(o: Described & { default: D; min: number; max?: number }): Setting<number | D> {
  return setting<number | D>('int', o, o.default, o.default === null ? 'empty' : code(o.default), (raw, name) => {
    const value = Number(raw);
    if (Number.isSafeInteger(value) && value >= o.min && value <= (o.max ?? Number.MAX_SAFE_INTEGER)) return value;
    const range = o.max === undefined ? `>= ${o.min}` : `from ${o.min} to ${o.max}`;
    throw new ConfigError(`${name} must be an integer ${range}, got "${raw}"`);
  });
}

/** Free text. */
export function text<D extends string | null>(o: Described & { default: D }): Setting<string | D> {
  return setting<string | D>('text', o, o.default, o.default === null ? 'empty' : code(o.default), (raw) => raw);
}

/** A key or token: at least `minLength` characters, never echoed in an error. */
export function secret(o: Described & { minLength: number }): Setting<string | null> {
  return setting<string | null>('secret', o, null, 'empty', (raw, name) => {
    if (raw.length < o.minLength) throw new ConfigError(`${name} must be at least ${o.minLength} characters`);
    return raw;
  });
}

/** Text of a given form (`what` names it in the error); `echo: false` keeps a secret out of the error. */
export function matching<D extends string | null>(o: Described & { default: D; pattern: RegExp; what: string; echo?: boolean }): Setting<string | D> {
  return setting<string | D>('matching', o, o.default, o.default === null ? 'empty' : code(o.default), (raw, name) => {
    if (o.pattern.test(raw)) return raw;
    throw new ConfigError(`${name} must be ${o.what}${o.echo === false ? '' : `, got "${raw}"`}`);
  });
}

/** One of a few words. */
export function oneOf<const V extends string, D extends V | null>(o: Described & { values: readonly V[]; default: D }): Setting<V | D> {
  return setting<V | D>('oneOf', o, o.default, o.default === null ? 'empty' : code(o.default), (raw, name) => {
    if ((o.values as readonly string[]).includes(raw)) return raw as V;
    throw new ConfigError(`${name} must be ${o.values.slice(0, -1).join(', ')} or ${o.values.at(-1)}, got "${raw}"`);
  });
}

/** An `on`/`off` switch. */
export function onOff<D extends boolean | null>(o: Described & { default: D }): Setting<boolean | D> {
  const word = oneOf({ doc: o.doc, values: ['on', 'off'], default: null });
  return setting<boolean | D>('onOff', o, o.default, o.default === null ? 'empty' : code(o.default ? 'on' : 'off'), (raw, name) => word.parse(raw, name) === 'on');
}

/** An http(s) URL, trailing slashes dropped; `echo: false` keeps it out of the error (it may carry credentials). */
export function httpUrl(o: Described & { echo?: boolean }): Setting<string | null> {
  return setting<string | null>('httpUrl', o, null, 'empty', (raw, name) => {
    const url = URL.canParse(raw) ? new URL(raw) : null;
    if (url !== null && (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '') return raw.replace(/\/+$/, '');
    throw new ConfigError(`${name} must be an http(s) URL${o.echo === false ? '' : `, got "${raw}"`}`);
  });
}

/** IP addresses separated by commas. */
export function ipList(o: Described): Setting<readonly string[]> {
  return setting<readonly string[]>('ipList', o, Object.freeze([]), 'empty', (raw, name) => {
    const list = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
    const bad = list.find((entry) => isIP(entry) === 0);
    if (bad !== undefined) throw new ConfigError(`${name} must list IP addresses separated by commas, got ${bad}`);
    return Object.freeze(list);
  });
}

/** A JSON object mapping host names (lower-cased) to `ip:port`. */
export function hostMap(o: Described): Setting<Readonly<Record<string, string>>> {
  return setting<Readonly<Record<string, string>>>('hostMap', o, Object.freeze({}), 'empty', (raw, name) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new ConfigError(`${name} must be a JSON object such as {"acme.test":"127.0.0.1:4101"}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`${name} must be a JSON object`);
    const map: Record<string, string> = {};
    for (const [host, target] of Object.entries(parsed)) {
      if (typeof target !== 'string' || !/^[0-9a-f.:[\]]+:\d{1,5}$/i.test(target)) throw new ConfigError(`${name}: "${host}" must map to "ip:port"`);
      map[host.toLowerCase()] = target;
    }
    return Object.freeze(map);
  });
}

/**
 * `true`, `false`, or addresses/CIDRs separated by commas (Fastify's `trustProxy`): whose X-Forwarded-For to believe.
 */
export function proxyTrust(o: Described): Setting<boolean | string[]> {
  return setting<boolean | string[]>('proxyTrust', o, false, 'empty', (raw, name) => {
    if (raw === 'false' || raw === 'true') return raw === 'true';
    const list = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
    if (list.some((entry) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry))) {
      throw new ConfigError(`${name} must be true or addresses/CIDRs separated by commas, got "${raw}"`);
    }
    return list;
  });
}

/**
 * A URL path: `/` (or blank) is the root, given as ''; otherwise `/a/b` with safe characters only, no trailing
 * slash, no `.` or `..` segment. `prefix` ('cdn') keeps the leading slash; `key` (object names) drops it and ends
 * the value with `/`, ready to be prepended.
 */
export function pathSetting<D extends string | null>(o: Described & { default: D; form: 'prefix' | 'key'; example: string }): Setting<string | D> {
  return setting<string | D>('path', o, o.default, o.default === null || o.default === '' ? 'empty' : code(o.default), (raw, name) => {
    const trimmed = raw.replace(/^\/+|\/+$/g, '');
    if (trimmed === '') return '';
    const segments = trimmed.split('/');
    if (segments.some((segment) => !/^[A-Za-z0-9._~-]+$/.test(segment) || segment === '.' || segment === '..') || (o.form === 'key' && trimmed.includes('~'))) {
      throw new ConfigError(`${name} must be a path such as ${o.example}, got "${raw}"`);
    }
    return o.form === 'prefix' ? `/${trimmed}` : `${trimmed}/`;
  });
}
