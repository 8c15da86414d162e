/**
 * Relay-style paging for the management API: `first` (default 100, at most 100, spec 8) and opaque cursors. A
 * cursor is base64url of a tagged JSON array, so a cursor of one connection is refused by another instead of being
 * read as something else; clients must treat it as opaque.
 */
import { ApiError } from '../../domain/errors.js';
import type { TimeCursor } from '../../domain/webhooks.js';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 100;

/** The page size asked for: the default when absent, 400 `invalid_page_size` outside 1..100 (never clamped). */
export function pageSize(first: number | null | undefined): number {
  if (first === null || first === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) throw new ApiError('invalid_page_size');
  return first;
}

export interface Edge<T> {
  node: T;
  cursor: string;
}

/** A page: a cursor on every edge, `hasNextPage` exact (one extra row was read to learn it). */
export interface Page<T> {
  edges: Edge<T>[];
  hasNextPage: boolean;
  endCursor: string | null;
}

/** Cuts the `size + 1` rows read into a page. */
export function toPage<T>(rows: readonly T[], size: number, cursorOf: (row: T) => string): Page<T> {
  const edges = rows.slice(0, size).map((node) => ({ node, cursor: cursorOf(node) }));
  return { edges, hasNextPage: rows.length > size, endCursor: edges.at(-1)?.cursor ?? null };
}

function encode(tag: string, values: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify([tag, ...values]), 'utf8').toString('base64url');
}

function decode(tag: string, cursor: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new ApiError('invalid_cursor');
  }
  if (!Array.isArray(parsed) || parsed[0] !== tag) throw new ApiError('invalid_cursor');
  return parsed.slice(1);
}

/** Cursors of lists ordered newest first: `tag` names the list (`w` webhooks, `d` deliveries). */
export function encodeTimeCursor(tag: string, position: TimeCursor): string {
  return encode(tag, [position.createdAt.getTime(), position.id]);
}

export function decodeTimeCursor(tag: string, cursor: string | null | undefined): TimeCursor | null {
  if (cursor === null || cursor === undefined) return null;
  const [ms, id] = decode(tag, cursor);
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || typeof id !== 'string' || id.length === 0 || id.length > 64) throw new ApiError('invalid_cursor');
  return { createdAt: new Date(ms), id };
}

/** Cursors of lists ordered by a text key (subscriptions by domain). */
export function encodeKeyCursor(tag: string, key: string): string {
  return encode(tag, [key]);
}

export function decodeKeyCursor(tag: string, cursor: string | null | undefined): string | null {
  if (cursor === null || cursor === undefined) return null;
  const [key] = decode(tag, cursor);
  if (typeof key !== 'string' || key.length === 0 || key.length > 253) throw new ApiError('invalid_cursor');
  return key;
}
