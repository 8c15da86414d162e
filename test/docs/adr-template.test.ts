/**
 * ADRs from 0045 on follow docs/adr/template.md (ADR 0001): the same headed sections in the same order, a status
 * and a date, so a decision can be checked against the code and re-run from its verification section.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ADR_DIR = path.resolve(import.meta.dirname, '../../docs/adr');
const FIRST_TEMPLATED = 45;
const SECTIONS = ['## Context', '## Decision', '## Alternatives', '## Consequences', '## Verification'];

/** The template's problems with `text`, empty when it conforms. */
export function templateProblems(text: string): string[] {
  const problems: string[] = [];
  if (!/^# \d{4}\. \S/.test(text)) problems.push('first line is not "# NNNN. Title"');
  if (!/^Status: (proposed|accepted|superseded by \d{4})\b/m.test(text)) problems.push('no Status line');
  if (!/^Date: \d{4}-\d{2}-\d{2}$/m.test(text)) problems.push('no Date line');
  const positions = SECTIONS.map((heading) => text.search(new RegExp(`^${heading}$`, 'm')));
  SECTIONS.forEach((heading, i) => {
    if (positions[i] === -1) problems.push(`missing section ${heading}`);
  });
  const present = positions.filter((p) => p !== -1);
  if (present.some((p, i) => i > 0 && p < (present[i - 1] ?? 0))) problems.push('sections out of order');
  return problems;
}

const templated = readdirSync(ADR_DIR).filter((name) => /^\d{4}-/.test(name) && Number(name.slice(0, 4)) >= FIRST_TEMPLATED);

describe('ADRs follow the template', () => {
  it('the check refuses a record without the template sections', () => {
    expect(templateProblems('# 0099. Something\n\nStatus: accepted\n\n## Decision\nx\n')).toEqual(
      expect.arrayContaining(['no Date line', 'missing section ## Context', 'missing section ## Verification']),
    );
    expect(templateProblems('# 0099. X\nStatus: accepted\nDate: 2026-12-07\n## Decision\n## Context\n## Alternatives\n## Consequences\n## Verification\n')).toContain('sections out of order');
  });

  it('the template itself conforms', () => {
    const template = readFileSync(path.join(ADR_DIR, 'template.md'), 'utf8').replace('# NNNN.', '# 0000.').replace(/^Status: .*$/m, 'Status: proposed').replace(/^Date: .*$/m, 'Date: 2026-12-07');
    expect(templateProblems(template)).toEqual([]);
  });

  it('finds the templated records (0045 is the first)', () => {
    expect(templated[0]).toMatch(/^0045-/);
  });

  it.each(templated)('%s', (name) => {
    expect(templateProblems(readFileSync(path.join(ADR_DIR, name), 'utf8'))).toEqual([]);
  });
});
