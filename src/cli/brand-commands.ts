/**
 * `brandbase brands ...`: operator curation of held brands.
 *   brands industries                               list the industry taxonomy (id, slug, emoji, name)
 *   brands set-industry <domain> <industry...>      set industries (slug or id) with score 1
 *   brands set-industry <domain> --clear [...]      drop the set industries first
 *   brands claim|unclaim <domain|id>                mark the brand claimed by its owner (spec 2.1), or not
 * Register with `registerBrandCommands(program)` from cli/main.ts; each action loads what it needs when it runs.
 */
import type { Command } from 'commander';

export function registerBrandCommands(program: Command): void {
  const brands = program.command('brands').description('curate held brands');
  brands
    .command('industries')
    .description('list the industry taxonomy')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const { TAXONOMY } = await import('../crawl/fields/industries/taxonomy.js');
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
      if (industries.length === 0 && !opts.clear) {
        console.error('name at least one industry, or pass --clear');
        process.exitCode = 2;
        return;
      }
      const [{ cliConfig, withAdmin }, { BrandNotHeldError, UnknownIndustryError }, { registrableDomain }] = await Promise.all([
        import('./cli-runtime.js'),
        import('../brands/set-industry.js'),
        import('../domain/identifiers.js'),
      ]);
      const domain = registrableDomain(input) ?? input;
      await withAdmin(cliConfig(), async ({ brands }) => {
        try {
          const stored = await brands.setIndustries({ domain, industries, clear: opts.clear ?? false });
          const list = stored.brand.company.industries;
          console.log(opts.json ? JSON.stringify({ domain, brandId: stored.brand.id, industries: list }) : list.map((i) => `${i.emoji} ${i.slug}\t${i.score}`).join('\n'));
        } catch (error) {
          if (!(error instanceof UnknownIndustryError || error instanceof BrandNotHeldError)) throw error;
          console.error(error.message);
          process.exitCode = 1;
        }
      });
    });
  for (const [name, claimed] of [['claim', true], ['unclaim', false]] as const) {
    brands
      .command(name)
      .description(claimed ? 'mark a held brand as claimed by its owner (counts in the quality score)' : 'remove the claimed mark of a held brand')
      .argument('<brand>', 'the brand domain or id (brd_...)')
      .option('--json', 'print one JSON object')
      .action(async (input: string, opts: { json?: boolean }) => claimAction(input, claimed, opts.json ?? false));
  }
}

async function claimAction(input: string, claimed: boolean, json: boolean): Promise<void> {
  const [{ cliConfig, withAdmin }, { BrandNotHeldError }, { registrableDomain }, { BRAND_ID_PATTERN }] = await Promise.all([
    import('./cli-runtime.js'),
    import('../brands/set-industry.js'),
    import('../domain/identifiers.js'),
    import('../domain/ids.js'),
  ]);
  // A pasted URL names its site: https://www.acme.com/about → acme.com.
  const host = /^https?:\/\//i.test(input) ? new URL(input).hostname : (input.split('/')[0] ?? input);
  const brand = BRAND_ID_PATTERN.test(input) ? input : (registrableDomain(host) ?? input);
  await withAdmin(cliConfig(), async ({ brands }) => {
    try {
      const { stored, changed } = await brands.setClaimed({ brand, claimed });
      const { id, domain, qualityScore } = stored.brand;
      if (json) console.log(JSON.stringify({ brandId: id, domain, claimed, changed, qualityScore }));
      else console.log(`${domain} (${id}) ${changed ? 'is now' : 'was already'} ${claimed ? 'claimed' : 'not claimed'}; quality score ${qualityScore}`);
    } catch (error) {
      if (!(error instanceof BrandNotHeldError)) throw error;
      console.error(error.message);
      process.exitCode = 1;
    }
  });
}
