/**
 * Field-by-field merge of a reference row with the stored one (ReferenceData's upsert rule): a missing field is
 * filled; when both hold different values, the better-attested one is kept (source trust, or a field's own
 * score) and the disagreement is reported. Each field remembers which source gave it (`field_sources`).
 */
import type { Contradiction, ReferenceTable } from '../reference-data.js';
import { sourceTrust } from '../source-trust.js';

export type FieldValue = string | number | null;
export type Fields = Record<string, FieldValue>;

export interface MergeSpec {
  table: ReferenceTable;
  /** Fields whose disagreement is reported as a contradiction (the others are silently kept by trust). */
  reported: readonly string[];
  /** Extra attestation for a value of a field (added to the source's trust); e.g. an ISIN of the listing's country. */
  score?: (field: string, value: FieldValue, row: Fields) => number;
  /** Fields combined rather than chosen (e.g. primary = either, rank = the smaller). */
  combine?: Readonly<Record<string, (stored: FieldValue, incoming: FieldValue) => FieldValue>>;
}

export interface MergeResult {
  fields: Fields;
  fieldSources: Record<string, string>;
  changed: boolean;
  contradictions: Contradiction[];
}

function attestation(spec: MergeSpec, field: string, value: FieldValue, source: string, row: Fields): number {
  return sourceTrust(source) + (spec.score?.(field, value, row) ?? 0);
}

/** Merges `incoming` (all from `source`) into `stored` (with its per-field sources). */
export function mergeFields(
  spec: MergeSpec,
  key: string,
  stored: { fields: Fields; fieldSources: Record<string, string>; source: string },
  incoming: Fields,
  source: string,
): MergeResult {
  const fields: Fields = { ...stored.fields };
  const fieldSources = { ...stored.fieldSources };
  const contradictions: Contradiction[] = [];
  let changed = false;
  for (const [field, value] of Object.entries(incoming)) {
    const current = fields[field] ?? null;
    const combine = spec.combine?.[field];
    let next = current;
    if (combine) next = combine(current, value);
    else if (value !== null && current === null) next = value;
    else if (value !== null && current !== null && value !== current) {
      const currentSource = fieldSources[field] ?? stored.source;
      const keepNew = attestation(spec, field, value, source, incoming) > attestation(spec, field, current, currentSource, fields);
      next = keepNew ? value : current;
      if (spec.reported.includes(field)) {
        contradictions.push({
          table: spec.table,
          key,
          field,
          kept: String(keepNew ? value : current),
          keptSource: keepNew ? source : currentSource,
          rejected: String(keepNew ? current : value),
          rejectedSource: keepNew ? currentSource : source,
        });
      }
    }
    if (next !== current) {
      fields[field] = next;
      if (!combine) fieldSources[field] = source;
      changed = true;
    }
  }
  return { fields, fieldSources, changed, contradictions };
}
