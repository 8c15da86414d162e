/**
 * `brandbase merchants add|list|remove` (src/cli/merchant-commands.ts) through the real program (`node
 * bin/brandbase.js`, the build) on a SQLite store: operator aliases filed under the descriptor's merchant words,
 * replaced, listed with the audit trail, removed once; `--org` acts on an organization's corrections; refusals are
 * one line on stderr with exit code 2; `--json` prints one object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/brandbase-process.js';
import { sharedSqlite, type SharedDatabase } from '../helpers/shared-database.js';

describe('brandbase merchants', () => {
  let database: SharedDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await sharedSqlite();
    env = database.env;
  });
  afterAll(async () => database?.cleanup());

  type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- printed JSON

  it('adds an alias under the merchant words, replaces it, lists the audit trail and removes it once', async () => {
    const added = (await runJson(['merchants', 'add', 'SQ *BLUE BOTTLE COF 4', 'www.BlueBottleCoffee.com', '--country', 'us'], env)) as Json;
    expect(added.replaced).toBeNull();
    expect(added.correction).toMatchObject({
      id: expect.stringMatching(/^mco_[a-z2-7]{24}$/),
      scope: 'operator',
      transactionLabel: 'SQ *BLUE BOTTLE COF 4',
      key: 'blue bottle cof',
      countryCode: 'US',
      domain: 'bluebottlecoffee.com',
      notMerchant: false,
      createdBy: 'cli',
      removedAt: null,
    });

    // Another store number reads to the same words: it replaces the alias.
    const replacing = (await runJson(['merchants', 'add', 'SQ *BLUE BOTTLE COF 7', '--not-a-merchant', '--country', 'US'], env)) as Json;
    expect(replacing.correction).toMatchObject({ key: 'blue bottle cof', domain: null, notMerchant: true });
    expect(replacing.replaced).toMatchObject({ id: added.correction.id, removedBy: 'cli', removedAt: replacing.correction.createdAt });

    const text = await runCli(['merchants', 'list'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(replacing.correction.id);
    expect(text.stdout).toContain('not a merchant');
    expect(text.stdout).not.toContain(added.correction.id);

    const trail = (await runJson(['merchants', 'list', '--removed'], env)) as Json;
    expect(trail.corrections.map((c: Json) => c.id)).toEqual([replacing.correction.id, added.correction.id]);
    expect(trail.nextCursor).toBeNull();

    const removed = (await runJson(['merchants', 'remove', replacing.correction.id], env)) as Json;
    expect(removed).toMatchObject({ id: replacing.correction.id, removedBy: 'cli', removedAt: expect.any(String) });
    expect(((await runJson(['merchants', 'list'], env)) as Json).corrections).toEqual([]);
    const again = await runCli(['merchants', 'remove', replacing.correction.id], env);
    expect(again).toMatchObject({ code: 2, stdout: '' });
    expect(again.stderr.trim()).toBe('brandbase: Correction not found.');
  });

  it('refuses a bad domain, a missing answer, a descriptor without merchant words and an unknown organization in one line, exit 2', async () => {
    const cases: [string[], string][] = [
      [['merchants', 'add', 'ACME STORE', 'https://acme.example/shop'], 'brandbase: Invalid correction: domain "https://acme.example/shop" is not a domain name'],
      [['merchants', 'add', 'ACME STORE'], "brandbase: Invalid correction: send either domain (the merchant's domain) or notMerchant: true."],
      [['merchants', 'add', 'ACME STORE', 'acme.example', '--not-a-merchant'], "brandbase: Invalid correction: send either domain (the merchant's domain) or notMerchant: true."],
      [['merchants', 'add', 'POS 1234 03/14', 'acme.example'], 'brandbase: Invalid correction: the descriptor has no merchant words'],
      [['merchants', 'add', 'ACME STORE', 'acme.example', '--country', 'USA'], 'brandbase: Invalid correction: countryCode must be an ISO 3166 alpha-2 code'],
      [['merchants', 'list', '--org', 'org_nope'], 'brandbase: unknown organization org_nope'],
      [['merchants', 'list', '--after', 'garbage'], 'brandbase: Invalid cursor'],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(message);
    }
  });

  it("acts on an organization's corrections with --org, apart from the operator's aliases", async () => {
    const org = (await runJson(['orgs', 'create', '--name', 'Ledger'], env)) as Json;
    const mine = (await runJson(['merchants', 'add', 'NORTHWIND TRADERS 0042', 'northwind.test', '--org', org.id], env)) as Json;
    expect(mine.correction).toMatchObject({ scope: org.id, key: 'northwind traders', countryCode: null, createdBy: 'cli' });
    expect(((await runJson(['merchants', 'list', '--org', org.id], env)) as Json).corrections.map((c: Json) => c.id)).toEqual([mine.correction.id]);
    expect(((await runJson(['merchants', 'list'], env)) as Json).corrections.map((c: Json) => c.id)).not.toContain(mine.correction.id);
    // The operator scope cannot remove the organization's correction, nor another organization.
    expect((await runCli(['merchants', 'remove', mine.correction.id], env)).code).toBe(2);
    const removed = (await runJson(['merchants', 'remove', mine.correction.id, '--org', org.id], env)) as Json;
    expect(removed).toMatchObject({ scope: org.id, removedBy: 'cli' });
  });
});
