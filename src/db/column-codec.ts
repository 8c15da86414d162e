/**
 * Conversions between domain values and column values, identical on both dialects.
 */

/** Epoch milliseconds: every timestamp column, on both backends (`bigint`). */
export type Millis = number;

export function toMillis(date: Date): Millis {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('invalid Date');
  return ms;
}

export function fromMillis(ms: Millis | string | bigint): Date {
  return new Date(toSafeInteger(ms));
}

export function fromNullableMillis(ms: Millis | string | bigint | null): Date | null {
  return ms === null ? null : fromMillis(ms);
}

/**
 * Aggregates come back as number (SQLite), or as a string or bigint when a driver keeps 64-bit integers exact;
 * credits are integers, so anything that is not a safe integer is a bug worth failing loudly on.
 */
export function toSafeInteger(value: number | string | bigint): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a safe integer: ${String(value)}`);
  return n;
}

/** Rejects floats and unsafe integers before they reach an integer column. */
export function assertSafeInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer, got ${value}`);
}
