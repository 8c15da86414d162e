/**
 * `brandbase brands ...`: operator curation of held brands.
 *   brands industries                               list the industry taxonomy (id, slug, emoji, name)
 *   brands set-industry <domain> <industry...>      set industries (slug or id) with score 1
 *   brands set-industry <domain> --clear [...]      drop the set industries first
 * Register with `registerBrandCommands(program, config, logger)` from cli/main.ts.
 */
import type { Command } from 'commander';
import { BrandNotHeldError, setBrandIndustries, UnknownIndustryError } from '../brands/set-industry.js';
import { TAXONOMY } from '../crawl/fields/industries/taxonomy.js';
import type { Config } from '../config/config.js';
import { registrableDomain } from '../domain/identifiers.js';
import { createServices } from '../main/services.js';
import type { Logger } from '../platform/logger.js';

type ConfigFn = () => Readonly<Config>;

export function registerBrandCommands(program: Command, config: ConfigFn, logger: () => Logger): void {
  const brands = program.command('brands').description('curate held brands');
  brands
    .command('industries')
    .description('list the industry taxonomy')
    .option('--json', 'print one JSON object')
    .action((opts: { json?: boolean }) => {
      if (opts.json) return void console.log(JSON.stringify({ industries: TAXONOMY.map(({ id, slug, name, emoji, parent }) => ({ id, slug, name, emoji, parent })) }));
      console.log(TAXONOMY.map((e) => `${e.parent ? '  ' : ''}${e.emoji} ${e.slug}\t${e.id}\t${e.name}`).join('\n'));
    });
  brands
    .command('set-industry')
    .description('set industries of a held brand (score 1); predicted industries stay listed after them')
    .argument('<domain>', 'the brand domain')
    .argument('[industries...]', 'industry slugs or ids (see `brands industries`)')
    .option('--clear', 'remove the industries set before')
    .option('--json', 'print one JSON object')
    .action(async (input: string, industries: string[], opts: { clear?: boolean; json?: boolean }) => {
      const domain = registrableDomain(input) ?? input;
      if (industries.length === 0 && !opts.clear) {
        console.error('name at least one industry, or pass --clear');
        process.exitCode = 2;
        return;
      }
      const services = await createServices(config(), logger());
      try {
        const stored = await setBrandIndustries(services.store, { domain, industries, clear: opts.clear ?? false });
        const list = stored.brand.company.industries;
        console.log(opts.json ? JSON.stringify({ domain, brandId: stored.brand.id, industries: list }) : list.map((i) => `${i.emoji} ${i.slug}\t${i.score}`).join('\n'));
      } catch (error) {
        if (!(error instanceof UnknownIndustryError || error instanceof BrandNotHeldError)) throw error;
        console.error(error.message);
        process.exitCode = 1;
      } finally {
        await services.close();
      }
    });
}
