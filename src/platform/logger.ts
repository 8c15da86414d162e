import { pino, type Logger as PinoLogger, type LoggerOptions } from 'pino';

export type Logger = PinoLogger;

/**
 * Request logs must never contain website URLs or email addresses (spec section 1, rules 2 and 3): the
 * request URL is redacted by the HTTP layer's serializer, and callers log resolved domains only.
 */
export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const base: LoggerOptions = { level: options.level ?? 'info', base: undefined };
  return options.destination ? pino(base, options.destination) : pino(base);
}

/** A logger that discards everything, for tests and quiet CLI commands. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
