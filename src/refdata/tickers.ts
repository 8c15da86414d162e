/**
 * Ticker normal forms. Sources write share classes differently (`BRK.B` on the exchange, `BRK-B` at the SEC,
 * `BRK/B` elsewhere) and vendors append an exchange suffix (`7203.T`); the store keys listings by one normal form
 * so every spelling finds the same row. The resolver normalizes user input with the same function.
 */
import { EXCHANGES } from './exchanges.js';

/** Upper-case, share-class separators `-`, `/`, `.` and spaces unified as `.`: `brk-b` → `BRK.B`. */
export function normalizeTicker(ticker: string): string {
  return ticker
    .trim()
    .toUpperCase()
    .replace(/[\s/-]+/g, '.')
    .replace(/\.+/g, '.')
    .replace(/^\.|\.$/g, '');
}

/**
 * The stored normal form of a ticker on an exchange. Hong Kong codes are written with any zero padding (`5`,
 * `0005`, `00005`) and sources disagree, so one company became two rows (`01299` with the ISIN, `1299` with the
 * website): they are stored without leading zeros. Korean and Japanese codes have a fixed width and keep theirs.
 */
export function listingTickerNorm(ticker: string, mic: string): string {
  const norm = normalizeTicker(ticker);
  return mic === 'XHKG' && /^\d+$/.test(norm) ? norm.replace(/^0+(?=\d)/, '') : norm;
}

/** The share-class letter(s) of a normalized ticker (`B` of `BRK.B`), or null. */
export function shareClass(tickerNorm: string): string | null {
  const match = /^[A-Z0-9]+\.([A-Z]{1,2})$/.exec(tickerNorm);
  return match?.[1] ?? null;
}

/** `7203.T` on XTKS → `7203`; a symbol without the exchange's vendor suffix is returned as it is. */
export function stripVendorSuffix(symbol: string, mic: string): string {
  const suffix = EXCHANGES[mic]?.suffix;
  const trimmed = symbol.trim();
  if (!suffix) return trimmed;
  const tail = `.${suffix}`;
  return trimmed.toUpperCase().endsWith(tail) ? trimmed.slice(0, -tail.length) : trimmed;
}
