import { InvalidArgumentError } from 'commander';

/** Commander argument parser for credit counts and quotas. */
export function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number >= 0');
  return n;
}
