import { pino, type Logger as PinoLogger, type LoggerOptions } from 'pino';

export type Logger = PinoLogger;

/**
 * Request logs must never contain website URLs or email addresses (spec section 1, rules 2 and 3): the
 * request URL is redacted by the HTTP layer's serializer, and callers log resolved domains only.
 */
export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const base: LoggerOptions = { level: options.level ?? 'info', base: undefined };
  if (options.destination) return pino(base, options.destination);
  // Buffered, asynchronous writes to stdout: one write per 4 KiB instead of one per line (a synchronous write per
  // request log line cost ~15% of cached-lookup throughput). A quiet server must still show its lines promptly, so
  // the buffer is also flushed every second; pino flushes it when the process exits.
  const logger = pino(base, pino.destination({ dest: 1, sync: false, minLength: 4096 }));
  setInterval(() => logger.flush(), 1000).unref();
  return logger;
}

/** A logger that discards everything, for tests and quiet CLI commands. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
