/**
 * `brandbase refdata import FILE --format <name>` and `brandbase refdata status`. Registration loads nothing but
 * commander; the actions load the reference data and the importer when they run. On a terminal the import shows a progress
 * bar over the bytes read (per pass: two-pass formats fill it twice).
 */
import type { Command } from 'commander';
import { print, table } from './cli-output.js';

interface ImportOpts {
  format: string;
  sourceDate?: string;
  json?: boolean;
}

/** A mistake in the command line: one line on stderr, exit code 2, no stack trace (like main.ts's user errors). */
function usageError(message: string): void {
  console.error(`brandbase: ${message}`);
  process.exitCode = 2;
}

async function runImport(file: string, opts: ImportOpts): Promise<void> {
  const [{ cliConfig, withAdmin }, { importReferenceFile }, { FORMATS, formatByName }, { ProgressLine }, { existsSync }] = await Promise.all([
    import('./cli-runtime.js'),
    import('../refdata/import/import-file.js'),
    import('../refdata/import/formats.js'),
    import('./progress-line.js'),
    import('node:fs'),
  ]);
  if (formatByName(opts.format) === undefined) return usageError(`unknown format "${opts.format}"; one of: ${FORMATS.map((f) => f.name).join(', ')}`);
  if (!existsSync(file)) return usageError(`no such file: ${file}`);
  if (opts.format === 'nsi') {
    const { nsiPackageFiles, NotAnNsiPackageError } = await import('../refdata/import/nsi-package.js');
    if (nsiPackageFiles(file) === null) return usageError(new NotAnNsiPackageError(file).message);
  }
  if (opts.sourceDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(opts.sourceDate)) return usageError('--source-date must be YYYY-MM-DD');
  const bar = new ProgressLine(100);
  let shown = 0;
  bar.start(file);
  const report = await withAdmin(cliConfig(), ({ referenceData }) =>
    importReferenceFile(referenceData, {
      file,
      format: opts.format,
      ...(opts.sourceDate === undefined ? {} : { sourceDate: opts.sourceDate }),
      onProgress: (read, total) => {
        const percent = total === 0 ? 100 : Math.floor((read / total) * 100);
        // A second pass starts again from 0: the bar follows the current pass.
        if (percent < shown) shown = 0;
        while (shown < percent) {
          bar.advance();
          shown += 1;
        }
      },
    }),
  ).finally(() => bar.finish());
  const skipped = Object.entries(report.skipped).map(([reason, t]) => `  skipped ${reason}: ${t.count} (e.g. ${t.examples.slice(0, 2).join('; ')})`);
  const corrected = Object.entries(report.corrected).map(([reason, t]) => `  corrected ${reason}: ${t.count} (e.g. ${t.examples.slice(0, 2).join('; ')})`);
  const text = [
    `imported ${file} as ${report.format} (source ${report.source}, ${report.sourceDate}): read ${report.rowsRead}, inserted ${report.inserted}, updated ${report.updated}, unchanged ${report.unchanged}${report.removed > 0 ? `, removed ${report.removed}` : ''}, contradictions ${report.contradictions.count}`,
    ...skipped,
    ...corrected,
  ].join('\n');
  print(opts.json, { ...report }, text);
}

async function runStatus(opts: { json?: boolean }): Promise<void> {
  const { cliConfig, withAdmin } = await import('./cli-runtime.js');
  const status = await withAdmin(cliConfig(), ({ referenceData }) => referenceData.referenceStatus());
  const imports = status.imports.map((i) => ({ source: i.source, format: i.format, file: i.file, sourceDate: i.sourceDate, importedAt: i.importedAt.toISOString() }));
  const rows = status.sources.map((s) => [s.table, s.source, String(s.rows), s.sourceDate ?? '']);
  print(opts.json, { sources: status.sources, imports }, table(['table', 'source', 'rows', 'source date'], rows, 'no reference data'));
}

export function registerRefdataCommands(program: Command): void {
  const refdata = program.command('refdata').description('reference data for tickers, ISINs, ETFs and crypto symbols, and the brand knowledge set (docs/reference-data.md)');
  refdata
    .command('import')
    .description('import a reference file (streamed; idempotent); prints what was skipped and why')
    .argument('<file>', 'the file (.gz is decompressed), or for --format nsi the unpacked name-suggestion-index package folder')
    .requiredOption('--format <name>', 'file format, e.g. sec-company-tickers-exchange, gleif-isin-lei, wikidata-json, nsi (docs/reference-data.md)')
    .option('--source-date <YYYY-MM-DD>', "the file's date, recorded on every row (default: the date the source states, else the file's modification date)")
    .option('--json', 'print one JSON object')
    .action(async (file: string, opts: ImportOpts) => {
      await runImport(file, opts);
    });
  refdata
    .command('status')
    .description('rows and newest source date per reference table and source')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      await runStatus(opts);
    });
}
