/**
 * Terminal manners: the crawl command's progress bar is never broken by result or log lines, and nothing but plain
 * lines reaches a pipe; tables are aligned on a terminal and tab-separated when piped.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { table } from '../../src/cli/cli-output.js';
import { ProgressLine } from '../../src/cli/progress-line.js';
import { createLogger } from '../../src/platform/logger.js';

/** A stream that records what was written, as a terminal (isTTY) or as a pipe. */
function sink(tty: boolean): PassThrough & { isTTY: boolean; columns: number; text: () => string } {
  const stream = new PassThrough() as PassThrough & { isTTY: boolean; columns: number; text: () => string };
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString()));
  stream.isTTY = tty;
  stream.columns = 80;
  stream.text = () => chunks.join('');
  return stream;
}

const ERASE_LINE = '\r\u001b[2K';

/** What a terminal shows: a carriage return plus erase-line wipes the current line. */
function screen(raw: string): string[] {
  return raw.split('\n').map((line) => {
    const erased = line.lastIndexOf(ERASE_LINE);
    return erased < 0 ? line : line.slice(erased + ERASE_LINE.length);
  });
}

describe('ProgressLine', () => {
  it('on a terminal, result lines and log lines appear whole above the bar, and the bar is redrawn last', async () => {
    const terminal = sink(true);
    const progress = new ProgressLine(2, terminal);
    const logger = createLogger({ level: 'warn', destination: progress.logs() });
    progress.start('acme.test');
    logger.warn({ domain: 'acme.test' }, 'slow host');
    progress.advance();
    progress.print('acme.test  indexed', terminal);
    progress.start('beta.test');
    await new Promise((resolve) => setImmediate(resolve));
    const shown = screen(terminal.text());
    expect(shown.at(-1)).toBe('[##########----------] 1/2 beta.test');
    const above = shown.slice(0, -1);
    expect(above).toHaveLength(2);
    expect(JSON.parse(above[0] ?? '')).toMatchObject({ msg: 'slow host', domain: 'acme.test' });
    expect(above[1]).toBe('acme.test  indexed');
    progress.finish();
    expect(screen(terminal.text()).at(-1)).toBe('');
  });

  it('piped, there is no bar and no escape code: only the lines', () => {
    const pipe = sink(false);
    const progress = new ProgressLine(1, pipe);
    progress.start('acme.test');
    progress.print('acme.test  indexed', pipe);
    progress.advance();
    progress.finish();
    expect(pipe.text()).toBe('acme.test  indexed\n');
  });
});

describe('table', () => {
  const rows = [
    ['org_1', 'paid', '10000', 'Acme Inc'],
    ['org_22', 'free', '500', 'Beta'],
  ];

  it('on a terminal, aligns columns under an upper-case header', () => {
    expect(table(['id', 'plan', 'quota', 'name'], rows, 'none', true).split('\n')).toEqual([
      'ID      PLAN  QUOTA  NAME',
      'org_1   paid  10000  Acme Inc',
      'org_22  free  500    Beta',
    ]);
  });

  it('piped, prints tab-separated rows without a header; no rows prints the empty text', () => {
    expect(table(['id', 'plan', 'quota', 'name'], rows, 'none', false)).toBe('org_1\tpaid\t10000\tAcme Inc\norg_22\tfree\t500\tBeta');
    expect(table(['id'], [], 'no organizations', true)).toBe('no organizations');
  });
});
