/**
 * Folder-layout rules from docs/architecture.md. `npm run depcheck` fails the test command on any violation; it also
 * runs scripts/folder-cycles.mjs, the cycle check between top-level folders that `no-circular` (files) cannot see.
 * Arrows point inward: domain <- platform <- db (the database kernel) <- features (crawl, media, billing, ...) <-
 * adapters (database backends, store, jobs backends, http, cli) <- main (the composition root).
 * Every path named here exists (test/architecture/dependency-rules.test.ts).
 */
// search/ is a feature too (ports only, no backend package), but not in the list features may import: use cases
// reach the search service through the port they declare (usecases/search-brands.ts: NameSearch).
const FEATURES = '^src/(brands|crawl|media|assets|palette|billing|webhooks|events|usecases|refdata|payments|search|context|transactions|cdn|dashboard-accounts)/';
// A product's own storage (issue 30): an adapter over the kernel (src/db/), inside the product's folder.
const PRODUCT_STORAGE = '^src/(palette|context|brands/logo-evidence|brands|billing|dashboard-accounts|payments|refdata|search|events|webhooks|transactions/corrections)/store/';
const BACKEND_PACKAGES = '^(fastify|@fastify|pg|better-sqlite3|pg-boss|kysely)($|/)';

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'domain/ holds types and rules only; it imports nothing else from src/.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'platform-only-domain',
      comment: 'platform/ is generic infrastructure; it may use domain/ only.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: '^src/(domain|platform)/' },
    },
    {
      name: 'config-only-domain',
      comment: 'config/ reads the environment and may use domain/ only.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: '^src/(domain|config)/' },
    },
    {
      name: 'db-knows-no-product',
      comment: 'src/db/ is the database kernel: the handle, dialect quirks, migration runner and codecs; it may use domain/ and platform/ only.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/', pathNot: '^src/(db|domain|platform)/' },
    },
    {
      name: 'features-use-ports-only',
      comment: 'Features use domain/, platform/, other features and the port files; never a concrete backend or http/cli/main.',
      severity: 'error',
      from: { path: FEATURES, pathNot: PRODUCT_STORAGE },
      to: {
        path: '^src/',
        pathNot: [
          '^src/(domain|platform|config|brands|crawl|media|palette|billing|webhooks|events|usecases|refdata|payments|context|transactions|cdn|dashboard-accounts)/',
          '^src/assets/[^/]+\\.ts$',
          // The search index's storage port (issue 30): the merchant matcher reads the same candidate names.
          '^src/search/search-store\\.ts$',
          // The kernel's port, for the transaction type brand save hooks are called with.
          '^src/db/database\\.ts$',
          '^src/jobs/queue\\.ts$',
          // The one worker loop (ADR 0049): brand event consumers and the webhook sender run their jobs with it.
          '^src/jobs/worker-pool\\.ts$',
          // The kernel's port: a transaction handle features pass on (brand save hooks, enqueue in the caller's transaction).
          '^src/db/database\\.ts$',
        ],
      },
    },
    {
      name: 'features-no-backend-packages',
      comment: 'Features never import Fastify, Kysely, pg, better-sqlite3 or pg-boss.',
      severity: 'error',
      from: { path: FEATURES, pathNot: PRODUCT_STORAGE },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer'], path: BACKEND_PACKAGES },
    },
    {
      name: 'product-storage-is-private',
      comment: "A product's store/ folder (its Kysely rows, tables, migrations) is imported only by that product and main/ (issue 30).",
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: '^src/main/' },
      to: { path: PRODUCT_STORAGE, pathNot: '^src/$1/' },
    },
    {
      name: 'adapters-do-not-import-each-other',
      comment: 'database backends, jobs backends, http and cli never import each other (main wires them).',
      severity: 'error',
      from: { path: '^src/(db/sqlite|db/postgres|jobs/sql|http|cli)/' },
      to: {
        path: '^src/(db/sqlite|db/postgres|jobs/sql|http|cli)/',
        pathNot: '^src/$1/',
      },
    },
    {
      name: 'only-main-wires-backends',
      comment: 'Only main/ may import a concrete backend (database, store, queue or asset-store backend).',
      severity: 'error',
      from: { pathNot: '^src/(main|db/sqlite|db/postgres|jobs/sql|assets/local|assets/s3)/' },
      to: { path: '^src/(db/sqlite|db/postgres|jobs/sql|assets/local|assets/s3)/' },
    },
    {
      name: 'http-no-sql',
      comment: 'http/ handlers call services; no database packages in routes.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { dependencyTypes: ['npm'], path: '^(pg|better-sqlite3|kysely|pg-boss)($|/)' },
    },
    {
      name: 'transports-never-read-storage',
      comment: "Transports (cli/, http/, mcp/) call use cases and services, never storage (issue 31): no product's store port or store/ folder, nor the database kernel, not even their types.",
      severity: 'error',
      from: { path: '^src/(cli|http|mcp)/' },
      to: { path: [PRODUCT_STORAGE, '-store\\.ts$', '^src/db/'], pathNot: '^src/assets/' },
    },
    {
      name: 'transports-use-billing-services',
      comment: 'Transports reach billing/ through its services (accounts, billing, its administration, client IDs, the period rule), never its meters, leases, limiters or secrets; nor its authenticators: a credential is verified only by the resolver main/ hands them (usecases/credential-payer.ts, ADR 0047).',
      severity: 'error',
      from: { path: '^src/(cli|http|mcp)/' },
      to: { path: '^src/billing/', pathNot: '^src/billing/(accounts|billing|billing-admin|billing-period|client-ids)\\.ts$' },
    },
    {
      name: 'routes-charge-through-use-cases',
      comment: 'Route files parse, call one use case and shape the answer; holds, charges and admission live in usecases/ (ADR 0012).',
      severity: 'error',
      from: { path: '^src/http/routes/' },
      to: { path: '^src/(billing|brands)/' },
    },
    {
      name: 'usecases-know-no-transport',
      comment: 'Use cases know nothing of HTTP (or any transport): no http/, cli/, main/ and no Fastify.',
      severity: 'error',
      from: { path: '^src/usecases/' },
      to: { path: ['^src/(http|cli|main)/', '^(fastify|@fastify)($|/)'] },
    },
    {
      name: 'mcp-tools-know-no-transport',
      comment: 'mcp/ defines the MCP tools over the use cases (ADR 0037); the Streamable HTTP transport is registered by http/.',
      severity: 'error',
      from: { path: '^src/mcp/' },
      to: { path: ['^src/(http|cli|main|brands|db|jobs/sql|assets/local)/', '^(fastify|@fastify|pg|better-sqlite3|pg-boss|kysely)($|/)', '^@modelcontextprotocol/sdk/server/(streamableHttp|sse|stdio)'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
