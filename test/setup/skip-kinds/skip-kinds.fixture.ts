/**
 * Every way a test can be not run, for the skip report's own test (test/setup/skip-report.test.ts): the expected
 * count of each is in the test names' brackets, and the test adds them up.
 */
import { describe, it } from 'vitest';
import { needsChromium, needsPostgres, needsSpecText } from '../../helpers/optional.js';

it('runs [ran]', () => undefined);
it.skipIf(true)('skipIf [other]', () => undefined);
it.runIf(false)('runIf [other]', () => undefined);
it.skip('skip [other]', () => undefined);
it.todo('todo [todo]');
it('a tag defined with skip: true [other]', { tags: ['turned-off'] }, () => undefined);
describe.skip('describe-level skip', () => {
  it('first [other]', () => undefined);
  it('second [other]', () => undefined);
});
describe('a describe whose tests are all todo', () => {
  it.todo('first [todo]');
});
needsPostgres.describe('describe-level, needs PostgreSQL', () => {
  it('first [postgres]', () => undefined);
  describe('nested', () => {
    it('second [postgres]', () => undefined);
  });
});
needsPostgres.it('test-level, needs PostgreSQL [postgres]', () => undefined);
needsChromium('browser').describe('browser pages', () => {
  it('first [browser]', () => undefined);
  it('second [browser]', () => undefined);
});
needsChromium('palette').it('a palette from a render [palette]', () => undefined);
needsChromium('render').describe('rendering', () => {
  it('renders [render]', () => undefined);
  it('the SSRF trap [ssrf]', { tags: ['chromium-ssrf'] }, () => undefined);
});
needsSpecText.it('reads the spec [spec]', () => undefined);
