import { describe, expect, it } from 'vitest';
import { run } from '../../eval/logos/suite.js';

/** The `npm run eval` logo scoreboard in CI: a rule change that breaks a labelled site fails here. */
describe('logo evaluation corpus (eval/logos)', () => {
  it('meets the issue 4 targets on every generated site', async () => {
    const report = await run({ realCorpus: null });
    expect(report.sites).toBeGreaterThanOrEqual(40);
    const metric = (prefix: string) => report.metrics.find((m) => m.name.startsWith(prefix))?.value;
    expect(metric('primary logo correct')).toBeGreaterThanOrEqual(0.95);
    expect(metric('icon correct')).toBeGreaterThanOrEqual(0.95);
    expect(metric('theme accuracy')).toBeGreaterThanOrEqual(0.95);
    expect(metric('third-party logos chosen')).toBe(0);
    expect(metric('tags precision')).toBe(1);
  }, 600_000); // a hang guard: 65 sites built and crawled (some rendered) on a possibly busy machine
});
