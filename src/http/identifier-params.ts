/** The routes' identifier parameters: read as every transport reads them (usecases/identifier-readings.ts). */
export { detectedReadings, domainReadings, EXPLICIT_TYPES, invalidIdentifier, typedReadings } from '../usecases/identifier-readings.js';

/** `?exchange=XLON` (a MIC, vendor suffix or exchange name): the exchange of a ticker; other kinds ignore it. */
export function exchangeOf(query: unknown): string | undefined {
  const value = (query as { exchange?: unknown } | undefined)?.exchange;
  return typeof value === 'string' ? value : undefined;
}
