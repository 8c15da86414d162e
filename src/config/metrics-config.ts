/**
 * Metrics settings (docs/configuration.md, "Metrics"; docs/deployment.md#metrics; ADR 0039). `/metrics` is served
 * only where it cannot leak: on the API's listener behind a bearer token, or on a listener of its own that the
 * operator keeps on a private network. With neither set, no listener serves it.
 */

/** Reported like config.ts's ConfigError (the CLI prints it as a user error by its name). */
class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export interface MetricsConfig {
  /** Bearer token `/metrics` on the API's listener requires; null: the API's listener does not serve it. */
  token: string | null;
  /** Port of a listener serving `/metrics`, `/healthz` and `/readyz` without a token (0: any free port); null: none. */
  port: number | null;
}

export const METRICS_ENV_VARS = ['BRANDBASE_METRICS_TOKEN', 'BRANDBASE_METRICS_PORT'] as const;

/** A token short enough to guess is refused at start, not discovered by a scraper of the public listener. */
const MIN_TOKEN_CHARS = 16;

export function loadMetricsConfig(env: Env): MetricsConfig {
  const token = env.BRANDBASE_METRICS_TOKEN?.trim() || null;
  if (token !== null && token.length < MIN_TOKEN_CHARS) throw new ConfigError(`BRANDBASE_METRICS_TOKEN must be at least ${MIN_TOKEN_CHARS} characters`);
  const portText = env.BRANDBASE_METRICS_PORT?.trim() || null;
  let port: number | null = null;
  if (portText !== null) {
    port = Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ConfigError(`BRANDBASE_METRICS_PORT must be an integer from 0 to 65535, got "${portText}"`);
  }
  return { token, port };
}
