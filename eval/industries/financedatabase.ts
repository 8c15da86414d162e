/**
 * FinanceDatabase company summaries (../shared/refdata/financedatabase/company_descriptions.csv.gz, MIT) read as
 * labelled training and evaluation text for the industry classifier: rows cleaned of the known defects (README of
 * ../shared/refdata: SPAC boilerplate, rows that describe another company), labels mapped to our taxonomy by
 * financedatabase-map.json, summaries stripped of listing boilerplate, and a fixed split by company name so the
 * training script, `npm run eval` and the shipped test sample agree on which rows were never trained on.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import { csvRows } from '../../src/refdata/import/csv-records.js';
import mapData from './financedatabase-map.json' with { type: 'json' };

export const DEFAULT_SOURCE = path.resolve(import.meta.dirname, '../../../shared/refdata/financedatabase/company_descriptions.csv.gz');
export const PROVENANCE = {
  source: 'JerBouma/FinanceDatabase database/equities/*.csv (summary, sector, industry), merged per company in ../shared/refdata/financedatabase/company_descriptions.csv.gz',
  commit: '268be5d',
  date: '2026-08-16',
  licence: 'MIT (Copyright (c) Jeroen Bouma)',
};

export type Split = 'train' | 'calibration' | 'test';

export interface LabelledCompany {
  name: string;
  /** Cleaned summary (boilerplate sentences and the company's own name removed). */
  text: string;
  /** Its first two sentences: a stand-in for a home page's self-description. */
  short: string;
  /** Its first sentence: a stand-in for a one-line meta description. */
  first: string;
  top: string;
  sub: string | null;
  split: Split;
}

interface MapRow {
  sector: string;
  industry: string;
  top?: string;
  sub?: string | null;
  drop?: string;
  split?: { words: string; top: string; sub: string | null }[];
}

const MAP = new Map((mapData as { rows: MapRow[] }).rows.map((r) => [`${r.sector}|${r.industry}`, r]));

/** Blank-check companies all share one text that says nothing about an industry. */
const SPAC = /\bblank check\b|\bbusiness combination with one or more\b|\bspecial purpose acquisition\b/i;

/**
 * Sentences a listing's summary has and a home page does not: founding, incorporation, headquarters, renames,
 * parent companies. They teach the model places and years, not industries.
 */
const BOILERPLATE = /\b(?:was (?:founded|incorporated|established|formed)|is headquartered|headquarters (?:are|is)|is based in|was formerly known|changed its name|formerly known as|is a subsidiary of|operates as a subsidiary|established in \d{4}|founded in \d{4}|incorporated in \d{4})\b/i;

const LEGAL_WORDS = new Set(['the', 'and', 'inc', 'ltd', 'plc', 'corp', 'corporation', 'company', 'group', 'holdings', 'holding', 'limited', 'sa', 'ag', 'se', 'nv', 'bv', 'spa', 'tbk', 'pt', 'berhad', 'bhd', 'public', 'co', 'international']);

export function splitOf(name: string): Split {
  const bucket = createHash('sha1').update(name).digest().readUInt16BE(0) % 100;
  return bucket < 70 ? 'train' : bucket < 85 ? 'calibration' : 'test';
}

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The name's first distinctive word; a summary that never mentions it describes another company. */
function mentionsOwnName(name: string, summary: string): boolean {
  const word = fold(name).match(/[a-z0-9]+/g)?.find((w) => w.length >= 3 && !LEGAL_WORDS.has(w));
  return word === undefined || fold(summary).includes(word);
}

export function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[A-Z])/).map((s) => s.trim()).filter(Boolean);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Boilerplate sentences dropped, the company's name (with and without its legal form) blanked out. */
export function cleanSummary(name: string, summary: string): string[] {
  const bare = name.replace(/[,.]?\s+(?:Inc|Ltd|Limited|plc|PLC|Corp|Corporation|S\.?A|AG|SE|N\.?V|Co|Holdings?|Group|Berhad|Bhd|Tbk)\.?$/i, '').trim();
  const names = [...new Set([name, bare])].filter((n) => n.length >= 3).map(escapeRegExp);
  const nameRe = names.length ? new RegExp(names.join('|'), 'g') : null;
  return sentences(summary)
    .filter((s) => !BOILERPLATE.test(s))
    .map((s) => (nameRe ? s.replace(nameRe, ' ') : s).replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 0);
}

/** Our label for a row, or null when the map drops it. */
export function labelOf(sector: string, industry: string, summary: string): { top: string; sub: string | null } | null {
  const row = MAP.get(`${sector}|${industry}`);
  if (!row) return null;
  if (row.split) {
    const hits = row.split.filter((s) => new RegExp(`\\b(?:${s.words})\\b`, 'i').test(summary));
    return hits.length === 1 && hits[0] ? { top: hits[0].top, sub: hits[0].sub } : null;
  }
  return row.top ? { top: row.top, sub: row.sub ?? null } : null;
}

export interface ReadReport {
  rows: number;
  spac: number;
  mismatched: number;
  unmapped: number;
  tooShort: number;
  kept: number;
}

export async function readCompanies(file = DEFAULT_SOURCE): Promise<{ companies: LabelledCompany[]; report: ReadReport }> {
  const report: ReadReport = { rows: 0, spac: 0, mismatched: 0, unmapped: 0, tooShort: 0, kept: 0 };
  const companies: LabelledCompany[] = [];
  for await (const { row } of csvRows(createReadStream(file).pipe(createGunzip()))) {
    if (!row) continue;
    report.rows += 1;
    const { name = '', sector = '', industry = '', summary = '' } = row;
    if (SPAC.test(summary)) report.spac += 1;
    else if (!mentionsOwnName(name, summary)) report.mismatched += 1;
    else {
      const label = labelOf(sector, industry, summary);
      const kept = cleanSummary(name, summary);
      if (!label) report.unmapped += 1;
      else if (kept.join(' ').length < 60) report.tooShort += 1;
      else companies.push({ name, text: kept.join(' '), short: kept.slice(0, 2).join(' '), first: kept[0] ?? '', ...label, split: splitOf(name) });
    }
  }
  report.kept = companies.length;
  return { companies, report };
}

export function sourceAvailable(file = DEFAULT_SOURCE): boolean {
  return existsSync(file);
}
