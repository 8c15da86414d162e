/**
 * Merchant corrections (issue 34, docs/transactions.md#corrections, ADR 0053): the one service behind the routes
 * `/v2/transactions/corrections`, GraphQL (`merchantCorrections`, `addMerchantCorrection`,
 * `removeMerchantCorrection`), the dashboard's corrections page and `brandbase merchants`, and the lookup
 * usecases/enrich-transaction.ts makes before any matching rule. Every operation is scoped: an organization's
 * correction applies to that organization's transactions only, and another organization's id answers
 * `correction_not_found` exactly like a missing one; the operator's aliases (scope OPERATOR_SCOPE) apply to everyone's,
 * after their own. Nothing is cached: every transaction reads the table, so every process of a fleet applies a
 * correction from the moment it is written.
 */
import { ApiError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { parseTypedIdentifier } from '../../domain/identifiers.js';
import { MAX_LABEL_LENGTH } from '../descriptor.js';
import { applicableCorrection, correctionKey, lookupKeys, OPERATOR_SCOPE, type MerchantCorrection } from './merchant-correction.js';
import type { CorrectionLimits, CorrectionPosition, MerchantCorrectionStore } from './merchant-correction-store.js';

/** What an organization may keep and add (docs/transactions.md#limits). */
export const DEFAULT_CORRECTION_LIMITS: CorrectionLimits = { maxActive: 10_000, maxAdded: 1_000, windowMs: 24 * 60 * 60 * 1000 };
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 100;
/** The actor of `brandbase merchants`. */
export const CLI_ACTOR = 'cli';

export interface CorrectionInput {
  /** The descriptor as the statement prints it (1 to 256 characters). */
  transactionLabel: string;
  /** ISO 3166 alpha-2 (any case): the correction applies to transactions of that country only; absent: every country. */
  countryCode?: string | null;
  /** The merchant's domain (a subdomain stands for its registrable domain); exclusive with `notMerchant`. */
  domain?: string | null;
  /** The descriptor names no merchant: its transactions answer 400 `Failed to enrich transaction`. */
  notMerchant?: boolean | null;
}

export interface AddedCorrection {
  correction: MerchantCorrection;
  /** The correction of the same descriptor key and country that applied until now, removed by this one. */
  replaced: MerchantCorrection | null;
}

export interface CorrectionPageArgs {
  first?: number | null;
  after?: string | null;
  includeRemoved?: boolean | null;
}

export interface CorrectionPage {
  corrections: MerchantCorrection[];
  /** Pass as `after` for the next page; null on the last page. */
  endCursor: string | null;
  hasNextPage: boolean;
  /** The cursor of each correction, in order (GraphQL edges). */
  cursors: string[];
}

/** What a transaction's answer says of the correction that decided it (usecases/enrich-transaction.ts). */
export type CorrectionSource = 'correction' | 'operator';

export interface CorrectedMatch {
  /** Null: the descriptor names no merchant. */
  domain: string | null;
  confidence: 1;
  /** The key the correction is filed under (`x-bf-matched-alias`). */
  alias: string;
  /** `correction`: the organization's own; `operator`: an alias the operator added. */
  source: CorrectionSource;
  correctionId: string;
}

export interface MerchantCorrectionsOptions {
  /** Bounds of an organization's corrections; the operator's aliases have none. */
  limits?: CorrectionLimits;
  clock?: () => Date;
}

function invalid(reason: string): ApiError {
  return new ApiError('invalid_correction', `Invalid correction: ${reason}.`);
}

function readLabel(raw: unknown): string {
  const label = typeof raw === 'string' ? raw.trim() : '';
  if (label.length === 0 || label.length > MAX_LABEL_LENGTH) throw invalid(`transactionLabel must be a string of 1 to ${MAX_LABEL_LENGTH} characters, not only spaces`);
  return label;
}

function readCountry(raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string' || !/^[A-Za-z]{2}$/.test(raw)) throw invalid('countryCode must be an ISO 3166 alpha-2 code, or absent for every country');
  return raw.toUpperCase();
}

/** The answer: a registrable domain, or null for "not a merchant"; exactly one of the two must be sent. */
function readAnswer(input: CorrectionInput): string | null {
  const hasDomain = input.domain !== undefined && input.domain !== null;
  const notMerchant = input.notMerchant === true;
  if (hasDomain === notMerchant) throw invalid('send either domain (the merchant\'s domain) or notMerchant: true');
  if (notMerchant) return null;
  const raw = typeof input.domain === 'string' ? input.domain : '';
  const parsed = parseTypedIdentifier('domain', raw);
  if (!parsed.ok || parsed.readings.primary.kind !== 'domain') {
    throw invalid(`domain ${JSON.stringify(raw.slice(0, 80))} is not a domain name (${parsed.ok ? 'Invalid domain.' : parsed.message})`);
  }
  return parsed.readings.primary.domain;
}

function encodeCursor(c: MerchantCorrection): string {
  return Buffer.from(`c:${c.createdAt.getTime()}:${c.id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string | null | undefined): CorrectionPosition | null {
  if (cursor === undefined || cursor === null) return null;
  const match = /^c:(\d{1,15}):(mco_[a-z2-7]{24})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || cursor.length > 100) throw new ApiError('invalid_cursor');
  return { createdAt: new Date(Number(match[1])), id: match[2] ?? '' };
}

function pageSize(first: number | null | undefined): number {
  if (first === undefined || first === null) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) throw new ApiError('invalid_page_size');
  return first;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** `a day`, `2 hours`, `a minute`: the additions' window as the refusal says it. */
function per(windowMs: number): string {
  for (const [unit, ms] of [['day', 86_400_000], ['hour', 3_600_000], ['minute', 60_000], ['second', 1000]] as const) {
    if (windowMs % ms === 0) return windowMs === ms ? `${unit === 'hour' ? 'an' : 'a'} ${unit}` : `per ${count(windowMs / ms)} ${unit}s`;
  }
  return `per ${count(windowMs)} ms`;
}

/** A correction as the API, the MCP answer and `--json` show it. */
export function correctionJson(c: MerchantCorrection): Record<string, unknown> {
  return {
    id: c.id,
    transactionLabel: c.label,
    key: c.key,
    countryCode: c.countryCode,
    domain: c.domain,
    notMerchant: c.domain === null,
    createdAt: c.createdAt.toISOString(),
    createdBy: c.createdBy,
    removedAt: c.removedAt?.toISOString() ?? null,
    removedBy: c.removedBy,
  };
}

export class MerchantCorrections {
  private readonly limits: CorrectionLimits;
  private readonly clock: () => Date;

  constructor(
    private readonly store: MerchantCorrectionStore,
    options: MerchantCorrectionsOptions = {},
  ) {
    this.limits = options.limits ?? DEFAULT_CORRECTION_LIMITS;
    this.clock = options.clock ?? (() => new Date());
  }

  /**
   * Files the correction of `input` for `scope` (an organization's id, or OPERATOR_SCOPE), made by `actor`. One that
   * applies to the same key and country is replaced (removed by `actor`, kept in the audit trail).
   */
  async add(scope: string, input: CorrectionInput, actor: string): Promise<AddedCorrection> {
    const label = readLabel(input.transactionLabel);
    const countryCode = readCountry(input.countryCode);
    const domain = readAnswer(input);
    const key = correctionKey(label, countryCode);
    if (key === '') throw invalid('the descriptor has no merchant words to file it under (only numbers, card-network noise, a processor prefix or a location)');
    const correction: MerchantCorrection = { id: newId('mco'), scope, label, key, countryCode, domain, createdBy: actor, createdAt: this.clock(), removedBy: null, removedAt: null };
    const limits = scope === OPERATOR_SCOPE ? null : this.limits;
    const result = await this.store.addMerchantCorrection(correction, limits);
    if ('added' in result) return { correction: result.added, replaced: result.replaced };
    if (result.refused === 'too_many') {
      throw new ApiError('too_many_corrections', `Too many corrections: an organization may have at most ${count(this.limits.maxActive)} that apply. Remove one to add another. Nothing was changed.`);
    }
    const seconds = Math.max(1, Math.ceil((result.oldestAt.getTime() + this.limits.windowMs - correction.createdAt.getTime()) / 1000));
    throw new ApiError(
      'rate_limited',
      `Too many corrections added: an organization may add at most ${count(this.limits.maxAdded)} ${per(this.limits.windowMs)}. Retry in ${seconds} seconds. Nothing was changed.`,
      {},
      { 'retry-after': String(seconds) },
    );
  }

  /** Removes the scope's correction `id` (kept in the audit trail); 404 `correction_not_found` when none applies. */
  async remove(scope: string, id: string, actor: string): Promise<MerchantCorrection> {
    const removed = typeof id === 'string' && id.length <= 100 ? await this.store.removeMerchantCorrection(scope, id, actor, this.clock()) : null;
    if (!removed) throw new ApiError('correction_not_found');
    return removed;
  }

  /** The scope's corrections, newest first; removed ones too with `includeRemoved` (who removed them, when). */
  async list(scope: string, args: CorrectionPageArgs = {}): Promise<CorrectionPage> {
    const size = pageSize(args.first);
    const rows = await this.store.listMerchantCorrections(scope, { includeRemoved: args.includeRemoved === true, after: decodeCursor(args.after), limit: size + 1 });
    const corrections = rows.slice(0, size);
    const cursors = corrections.map(encodeCursor);
    return { corrections, cursors, hasNextPage: rows.length > size, endCursor: rows.length > size ? (cursors[cursors.length - 1] ?? null) : null };
  }

  /**
   * The correction that decides a transaction of `orgScope` (null: a payer of no organization: the operator's aliases
   * only), or null when the rules decide. One read of the table's unique index.
   */
  async find(orgScope: string | null, request: { transactionLabel: string; countryCode: string; city?: string }): Promise<CorrectedMatch | null> {
    const keys = lookupKeys(request.transactionLabel, request.countryCode, request.city);
    const scopes = orgScope === null || orgScope === OPERATOR_SCOPE ? [OPERATOR_SCOPE] : [orgScope, OPERATOR_SCOPE];
    const found = await this.store.findMerchantCorrections(scopes, keys, request.countryCode);
    const correction = applicableCorrection(found, orgScope);
    if (!correction) return null;
    return { domain: correction.domain, confidence: 1, alias: correction.key, source: correction.scope === OPERATOR_SCOPE ? 'operator' : 'correction', correctionId: correction.id };
  }
}
