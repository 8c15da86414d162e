/**
 * The industry taxonomy shipped as data (taxonomy.json): top-level industries and their sub-industries, each
 * with a stable id, slug, name and emoji; sub-industries carry classifier keywords. Spec 2.7: `parent` is null
 * for a top-level industry and a one-entry list holding the top-level industry otherwise.
 */
import type { Industry, IndustryRef } from '../../../domain/brand.js';
import data from './taxonomy.json' with { type: 'json' };

export interface TaxonomyEntry extends IndustryRef {
  parent: string | null;
  keywords?: string[];
  /** Industries whose brands are adult content (spec 2.1: isNsfw reflects industry categories). */
  nsfw?: boolean;
}

export const TAXONOMY: readonly TaxonomyEntry[] = (data as { industries: TaxonomyEntry[] }).industries;
const byId = new Map(TAXONOMY.map((e) => [e.id, e]));
const bySlug = new Map(TAXONOMY.map((e) => [e.slug, e]));

export function taxonomyEntry(idOrSlug: string): TaxonomyEntry | null {
  return byId.get(idOrSlug) ?? bySlug.get(idOrSlug) ?? null;
}

export function subIndustries(): TaxonomyEntry[] {
  return TAXONOMY.filter((e) => e.parent !== null);
}

export function isNsfwIndustry(id: string): boolean {
  return taxonomyEntry(id)?.nsfw === true;
}

function ref(e: TaxonomyEntry): IndustryRef {
  return { id: e.id, slug: e.slug, name: e.name, emoji: e.emoji };
}

/** The public Industry for a taxonomy id with a score; null for an unknown id. */
export function toIndustry(id: string, score: number): Industry | null {
  const entry = byId.get(id);
  if (!entry) return null;
  const parent = entry.parent ? byId.get(entry.parent) : undefined;
  return { ...ref(entry), score, parent: parent ? [ref(parent)] : null };
}

/** An industry and, for a sub-industry, its top-level industry with the same score (a set fact implies both). */
export function withParent(id: string, score: number): Industry[] {
  const industry = toIndustry(id, score);
  if (!industry) return [];
  const parentId = industry.parent?.[0]?.id;
  const parent = parentId ? toIndustry(parentId, score) : null;
  return parent ? [industry, parent] : [industry];
}

/** Sorted by descending score (spec 2.7), sub-industry before its parent on ties, one entry per id (highest score). */
export function sortIndustries(list: Industry[]): Industry[] {
  const best = new Map<string, Industry>();
  for (const i of list) if ((best.get(i.id)?.score ?? -1) < i.score) best.set(i.id, i);
  return [...best.values()].sort((a, b) => b.score - a.score || Number(b.parent !== null) - Number(a.parent !== null) || a.id.localeCompare(b.id));
}
