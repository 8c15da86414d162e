/**
 * Every setting Brandbase reads, once: its environment name, its type (with its range or form), its default for the
 * embedded one-machine case, and its line in docs/configuration.md. `readSettings` (setting-types.ts) reads them;
 * `loadConfig` (config.ts) derives `Config` from the values and applies the rules that span settings. The tables of
 * docs/configuration.md are generated from this list (`npm run config-docs`, config-doc.ts), and a test fails when
 * they differ from it.
 */
import { EMBEDDED_CARD_NETWORK } from '../domain/access-purchases.js';
import { hostMap, httpUrl, int, ipList, matching, onOff, oneOf, pathSetting, proxyTrust, secret, text, type SettingValues } from './setting-types.js';

/** A placeholder receiving address for the embedded ledger; a remote facilitator requires a real one. */
export const EMBEDDED_PAY_TO = '0x000000000000000000000000000000000000b4b4';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const SERVER = {
  PORT: int({
    default: 8787, min: 0, max: 65_535,
    doc: 'HTTP port of the API.',
  }),
  HOST: text({
    default: '0.0.0.0',
    doc: 'Interface the API listens on. Use `127.0.0.1` to keep it local.',
  }),
  BRANDBASE_CONFIG_FILE: text({
    default: null,
    shown: '`brandbase.env` in the installation folder, when it exists',
    doc: 'The configuration file (see above). When set, the file must exist. Environment only: a configuration file cannot name another one.',
  }),
  BRANDBASE_DATA_DIR: text({
    default: null,
    shown: '`data/` in the installation folder',
    doc: 'Folder for the embedded store (`brandbase.sqlite`, WAL mode) and the asset files (`assets/`). Created on start. A relative value in the environment is relative to the current folder; in the configuration file, to the file\'s folder.',
  }),
  BRANDBASE_PUBLIC_URL: httpUrl({
    shown: '`http://localhost:$PORT`',
    doc: 'The address clients reach the API at: base of links in error bodies and, unless `BRANDBASE_ASSET_BASE_URL` is set, of every asset `src` in answers (`$BRANDBASE_PUBLIC_URL/assets/<key>`). Records store asset keys, so a new value takes effect for every brand on restart ([ADR 0011](adr/0011-asset-keys-in-records.md)).',
  }),
  BRANDBASE_ASSET_BASE_URL: httpUrl({
    shown: 'empty (`$BRANDBASE_PUBLIC_URL/assets/`)',
    doc: 'Base URL of every asset `src` in answers, e.g. a CDN whose origin is `$BRANDBASE_PUBLIC_URL/assets/`: `https://cdn.example.com/brand-assets/` gives `https://cdn.example.com/brand-assets/<sha256>.<ext>`. An http(s) URL; a trailing `/` is added when missing. Takes effect on restart for every brand.',
  }),
  BRANDBASE_CRAWL_HOSTS: hostMap({
    doc: 'Host map for tests and offline demos: a JSON object such as `{"acme.test":"127.0.0.1:4101"}`. A mapped host is fetched over plain HTTP at the mapped address whatever the URL\'s scheme, with its own `Host` header. Only mapped hosts may reach loopback or private addresses.',
  }),
  BRANDBASE_OPERATOR_DOMAIN: text({
    default: null,
    doc: 'Your own domain: lookups of it are free on every route (spec 1 rule 8). Reduced to its registrable domain.',
  }),
  BRANDBASE_DATABASE_URL: text({
    default: null,
    doc: 'A PostgreSQL URL (`postgres://user@host:5432/db`) for the scale-out store. Empty means the embedded SQLite file.',
  }),
  BRANDBASE_SECRET_KEY: secret({
    minLength: 32,
    doc: 'Installation key that seals webhook signing secrets and endpoint `Authorization` values at rest (AES-256-GCM, [webhooks](webhooks.md#secrets-at-rest)); any text of at least 32 characters (e.g. `openssl rand -hex 32`). Empty: a key is generated once into `<BRANDBASE_DATA_DIR>/secret.key` (mode 0600). Every process on a shared PostgreSQL store must use the same key; losing it makes the stored secrets unreadable (rotate every webhook\'s secret). With the payment proof it also keys the seal of a standing-access purchase\'s API key and MCP token during the three-minute retry window ([payments](payments.md#standing-access)).',
  }),
  BRANDBASE_LOG_LEVEL: oneOf({
    values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info',
    doc: 'pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`.',
  }),
  BRANDBASE_WORKER_CONCURRENCY: int({
    default: 2, min: 0,
    doc: 'Crawl jobs one process runs at once. `0` disables the in-process worker pool.',
  }),
  BRANDBASE_CRAWL_TIMEOUT_MS: int({
    default: 20_000, min: 1000,
    doc: 'Budget for one live crawl of a brand website. A crawl that does not finish in time fails cleanly (the lookup answers 404).',
  }),
  BRANDBASE_CRAWL_ISOLATION: oneOf({
    values: ['process', 'thread', 'off'], default: 'process',
    doc: 'Where crawls run ([ADR 0014](adr/0014-crawls-in-worker-processes.md)). `process`: each crawl (fetching, parsing HTML and CSS, decoding and analysing images, logo renditions) runs in a crawl worker, a child process with a memory limit and a hard time limit, so the API\'s event loop never waits on crawl CPU and no site can take the server\'s memory or crash it. `thread`: the same in worker threads (lighter; only the V8 heap is limited, and a native crash in an image library would end the server). `off`: in the API\'s own thread, as before (debugging, `npm run bench`\'s comparison).',
  }),
  BRANDBASE_CRAWL_WORKERS: int({
    default: null, min: 1,
    shown: '`BRANDBASE_WORKER_CONCURRENCY` + 1',
    doc: 'Crawl workers at most: crawls running at once in this process (live lookups, queued jobs, `brandbase crawl`); more wait in line. The default leaves one for live lookups while the job pool is busy. `serve` starts one at start-up; the others start when needed and stop after a minute without work. Each idle worker process holds about 130 MB (PSS; 180 MB RSS under tsx).',
  }),
  BRANDBASE_CRAWL_MEMORY_MB: int({
    default: 512, min: 256,
    doc: 'Memory limit of one crawl worker, in MB (at least 256). A worker process is killed when its resident memory passes it (read every 50 ms while it works; decoded images count) and its V8 heap is capped at the same size; a crawl stopped this way fails with `crawl_error` and the server is unaffected. A worker left holding more than half of the room between its start-up size and the limit after a crawl is replaced by a fresh one. With `thread`, only the V8 heap is capped.',
  }),
  BRANDBASE_CRAWL_KILL_GRACE_MS: int({
    default: 5000, min: 0,
    doc: 'A crawl worker still busy this long after the crawl budget (`BRANDBASE_CRAWL_TIMEOUT_MS`) ran out is killed; the crawl fails with `timeout` and a fresh worker takes its place.',
  }),
  BRANDBASE_CRAWL_FAILURE_MEMORY_MS: int({
    default: 60_000, min: 0,
    doc: 'How long a failed crawl of a domain is remembered: within it, GET answers 404 with the remembered `reason` without crawling again, and HEAD and batch answer 404 without queueing ([errors](errors.md#crawl-failures)). Each failure in a row doubles it (1 min, 2, 4, ...) up to `BRANDBASE_CRAWL_FAILURE_MEMORY_MAX_MS`. The memory is in the store, shared by every process; a successful crawl anywhere (`brandbase crawl DOMAIN` included, which never consults it) forgets it. `0`: failures are never answered from memory ([ADR 0016](adr/0016-shared-crawl-failure-memory.md)).',
  }),
  BRANDBASE_CRAWL_FAILURE_MEMORY_MAX_MS: int({
    default: 6 * 3_600_000, min: 0,
    shown: '`21600000` (6 h)',
    doc: 'Cap of the doubling failure memory; a lower value than `BRANDBASE_CRAWL_FAILURE_MEMORY_MS` is raised to it. A failure older than this is deleted, and the domain\'s next failure counts as the first again.',
  }),
  BRANDBASE_QUEUE_MAX_DEPTH: int({
    default: 1000, min: 1,
    doc: 'Queued crawl jobs beyond which a prefetch cannot be queued (HEAD answers 503).',
  }),
  BRANDBASE_QUEUE_MAX_PER_ORG: int({
    default: 100, min: 1,
    doc: 'Active (queued or running) crawl jobs one organization may have (HEAD prefetches, batch misses, webhook subscriptions); past it, its HEAD answers 503 `temporarily_unavailable` and its batch misses 500, while other organizations still queue. The share of a paid organization, and of an unpaid one older than `BRANDBASE_QUEUE_NEW_ORG_AGE_MS`. Claims take turns between organizations ([ADR 0015](adr/0015-fair-crawl-queue.md), [ADR 0050](adr/0050-crawl-queue-admission.md)).',
  }),
  BRANDBASE_QUEUE_PAID_RESERVE: int({
    default: null, min: 0,
    shown: 'a quarter of `BRANDBASE_QUEUE_MAX_DEPTH` (`250`)',
    doc: 'The last places of `BRANDBASE_QUEUE_MAX_DEPTH` kept for paid organizations (a paid plan, or `BRANDBASE_QUEUE_PAID_MIN_SPEND_CENTS` spent on credits): past `MAX_DEPTH - PAID_RESERVE` queued crawls, unpaid organizations and client IDs are refused, and a paid organization is admitted only while it holds fewer than its share times the room left divided by the reserve (back-pressure: the biggest holders are refused first; one holding none is admitted to the last place). A value above the depth keeps the whole queue for paid organizations; `0`: no reserve ([ADR 0050](adr/0050-crawl-queue-admission.md)).',
  }),
  BRANDBASE_QUEUE_MAX_PER_NEW_ORG: int({
    default: null, min: 1,
    shown: 'a tenth of `BRANDBASE_QUEUE_MAX_PER_ORG` (`10`)',
    doc: 'The share of an unpaid organization younger than `BRANDBASE_QUEUE_NEW_ORG_AGE_MS` (a standing-access account bought for a few dollars, a new free organization) and of a payer with no organization (a wallet paying per request). Never more than `BRANDBASE_QUEUE_MAX_PER_ORG`.',
  }),
  BRANDBASE_QUEUE_NEW_ORG_AGE_MS: int({
    default: 7 * 86_400_000, min: 0,
    shown: '`604800000` (7 days)',
    doc: 'Until this age an unpaid organization has the new organization\'s share (`BRANDBASE_QUEUE_MAX_PER_NEW_ORG`); after it, `BRANDBASE_QUEUE_MAX_PER_ORG`, still outside the paid reserve.',
  }),
  BRANDBASE_QUEUE_PAID_MIN_SPEND_CENTS: int({
    default: 1000, min: 0,
    doc: 'US cents an organization on the free plan must have paid for credits (standing access, top-ups), all time, to count as paid for the crawl queue: a full share and the paid reserve. A paid plan always counts as paid. `0` counts every organization as paid.',
  }),
  BRANDBASE_QUEUE_MAX_PER_CLIENT_ID: int({
    default: null, min: 1,
    shown: 'a fifth of `BRANDBASE_QUEUE_MAX_PER_ORG` (`20`)',
    doc: 'Active crawl jobs queued through an organization\'s public client IDs (logo CDN fallbacks for brands not held), counted apart from its API share so that whoever reads a client ID in a web page cannot make the organization\'s HEAD and batch answer 503/500. Never more than the organization\'s own share; never queued from the paid reserve. Past it a fallback is served and nothing is queued.',
  }),
  BRANDBASE_PREFETCH_PER_MINUTE: int({
    default: 600, min: 0,
    doc: 'Free HEAD prefetches per organization per minute (token bucket per API process), on top of the throughput limit; over it HEAD answers 429 with `x-bf-error: rate_limited`. `0`: no limit.',
  }),
  BRANDBASE_KEY_CACHE_MS: int({
    default: 5000, min: 0,
    doc: 'How long a verified API key is cached in memory. A revocation by another process (the CLI) takes effect within this time; `0` disables the cache.',
  }),
  BRANDBASE_KEY_CACHE_MB: int({
    default: 8, min: 0,
    doc: 'Megabytes (estimated heap) of verified API keys each process keeps in memory, least recently used out ([ADR 0042](adr/0042-byte-bounded-caches.md)).',
  }),
  BRANDBASE_BRAND_CACHE_MB: int({
    default: 256, min: 0,
    doc: 'Megabytes (estimated heap: about 7 bytes per character of a record\'s JSON, some 16 KB for a well-filled record, so about 17,000 records by default) of serialized brands each API process keeps in memory, least recently used out; a lookup that misses reads the store (one indexed query). `0`: no brand is kept (every lookup reads the store). See [performance](performance.md#a-million-brands-issue-22) and [ADR 0042](adr/0042-byte-bounded-caches.md).',
  }),
  BRANDBASE_CACHE_SYNC_MS: int({
    default: 1000, min: 10,
    doc: 'How often each API process polls the brand write log for brands written by other processes (`brandbase crawl`, `brandbase worker`, another `serve`, `brandbase brands set-industry`, a removal) and drops them from its in-memory brand cache (at least `10`). This is the freshness bound: such a write is answered by every API process within this time plus one poll\'s query (two small indexed queries; on an idle log one `max()`), never waiting for the 60 s cache lifetime. Cached lookups stay query-free; the poll runs off the request path. See [architecture](architecture.md#brand-cache-freshness-adr-0017) and [ADR 0017](adr/0017-brand-cache-coherence.md).',
  }),
  BRANDBASE_DEFAULT_FREE_QUOTA: int({
    default: 500, min: 0,
    doc: 'Credits per billing period for a free-plan organization created without `--quota`.',
  }),
  BRANDBASE_DEFAULT_PAID_QUOTA: int({
    default: 10_000, min: 0,
    doc: 'Credits per billing period for a paid-plan organization created without `--quota`.',
  }),
  BRANDBASE_REFRESH_AGE_DAYS: int({
    default: 30, min: 1,
    doc: 'A held brand crawled longer ago than this is stale: the refresh scheduler queues it ([refresh](refresh.md)), and `brandbase crawl DOMAIN` re-crawls it (`--refresh` always re-crawls). The quality score\'s recency factor starts falling after 30 days.',
  }),
  BRANDBASE_CHROMIUM_PATH: text({
    default: null,
    shown: 'empty (`/usr/bin/chromium` when present)',
    doc: 'Chromium used to render sites built with JavaScript (optional: `apt-get install chromium`). Without one, Brandbase crawls statically and logs "rendering is off" at start. Every browser request goes through the crawler\'s safe fetcher (ADR 0007).',
  }),
  BRANDBASE_BATCH_ITEM_TIMEOUT_MS: int({
    default: 2000, min: 1,
    doc: 'Time budget of one batch item; an item not answered in time is `504` with code `timeout`, the rest of the batch is unaffected.',
  }),
  BRANDBASE_BATCH_MAX_RESPONSE_BYTES: int({
    default: 8 * 1024 * 1024, min: 1024,
    doc: 'Byte budget of one batch response; brands that would exceed it answer `413` with code `response_too_large` (not charged).',
  }),
  BRANDBASE_PALETTE_BUDGET_MS: int({
    default: 3000, min: 0,
    doc: 'How long a lookup or batch with `palette=true` waits for a brand\'s first palette build (docs/palette.md); past it `palette` is `null`, the build finishes in the background and a later request reads it. `0` never waits.',
  }),
  BRANDBASE_PALETTE_RENDER: onOff({
    default: true,
    doc: '`on`: after a crawl that did not render the page (most sites are static), a background job renders the brand\'s home page in Chromium (the crawl\'s air-gapped renderer, light and `prefers-color-scheme: dark`) and replaces the CSS-only palette evidence with the rendered one, so palettes gain on-pairs, element usage and themes ([palette](palette.md#the-background-render-chromium-installed)). Queued only when a Chromium executable is found and while fewer than half of `BRANDBASE_QUEUE_MAX_DEPTH` jobs wait; `off` queues none and makes workers skip queued ones. Never changes a brand record.',
  }),
  BRANDBASE_DISCARD_BODY_MAX_BYTES: int({
    default: 16 * 1024 * 1024, min: 0,
    doc: 'A request body larger than the 1 MiB body limit answers `413` (`payload_too_large`). So that the client can read that answer, the body is read and discarded up to this many bytes first (a body declared larger by `Content-Length` is answered at once); past it the answer is sent and the connection closed, and a client still sending may see a reset instead. `0` never reads an oversize body. See [security](security.md#hostile-clients).',
  }),
  BRANDBASE_SHUTDOWN_GRACE_MS: int({
    default: 25_000, min: 0,
    doc: 'On SIGTERM/SIGINT: time for in-flight requests and running crawl jobs to finish; unfinished jobs go back to the queue.',
  }),
  BRANDBASE_JOB_RETENTION_DAYS: int({
    default: 7, min: 0,
    doc: 'Finished jobs (`done`, `failed`) are deleted by the worker processes this many days after they ended, in batches every 10 minutes ([ADR 0041](adr/0041-pg-boss-queue.md)); `0` keeps them forever.',
  }),
  BRANDBASE_JOB_LEASE_MS: int({
    default: 120_000, min: 1000,
    doc: 'A claimed job is leased this long: a worker that dies (SIGKILL, lost machine) leaves its job to another worker once the lease passes. Must be longer than `BRANDBASE_CRAWL_TIMEOUT_MS` + `BRANDBASE_CRAWL_KILL_GRACE_MS` (refused otherwise), so a running crawl is never claimed twice ([deployment](deployment.md#when-a-process-dies)).',
  }),
  BRANDBASE_SMTP_URL: text({
    default: null,
    doc: 'SMTP server for usage warning emails (80% and 100% of the quota, [billing](billing.md)) and dashboard sign-in links ([dashboard](dashboard.md)), as a nodemailer URL: `smtp://user:pass@mail.example.com:587` (STARTTLS when offered) or `smtps://mail.example.com:465`. Empty: no email is sent and each due warning is logged as not sent.',
  }),
  BRANDBASE_MAIL_FROM: text({
    default: 'Brandbase <billing@localhost>',
    doc: 'Sender of billing emails.',
  }),
  BRANDBASE_TRUST_PROXY: proxyTrust({
    doc: 'Whose `X-Forwarded-For` gives the client address that per-address limits count (dashboard sign-in, public brand search): empty trusts nobody (the connection\'s address is the client\'s); `true` trusts any sender (only when nothing but the proxy can reach the service); or the load balancers\' addresses/CIDRs separated by commas, e.g. `10.0.0.0/8` ([deployment](deployment.md#a-load-balancer-in-front)).',
  }),
  BRANDBASE_SESSION_SECRET: secret({
    minLength: 32,
    doc: 'Signs dashboard sessions (JWT, HS256) and keys their CSRF tokens and sign-in codes ([dashboard](dashboard.md#sessions-and-security), ADR 0043); at least 32 characters. Empty: a random secret generated once and kept in the store, so every process on the same store shares it with no setup. Changing it signs everybody out. Dashboard sign-in emails go through `BRANDBASE_SMTP_URL` (without it nobody can sign in by email; `brandbase users link` prints a one-time link).',
  }),
  BRANDBASE_RATE_LIMIT_PER_MINUTE: int({
    default: 60_000, min: 0,
    doc: 'Request throughput limit per organization (token bucket per API process) for organizations without their own (`brandbase orgs set-rate-limit`). Over it: 429 `API key quota exceeded` with `x-bf-error: rate_limited`. `0`: no limit.',
  }),
  BRANDBASE_OVERAGE_SPENDING_LIMIT_CENTS: int({
    default: 10_000, min: 0,
    doc: 'Monthly overage cap (US cents) of paid organizations without their own (`brandbase orgs set-spending-limit`): overage costs 10 cents a request, so 10000 allows 1000 requests beyond quota and prepaid credits. `0` disables overage.',
  }),
  BRANDBASE_CREDIT_LEASE_MS: int({
    default: 30_000, min: 1000,
    doc: 'Each API process serves credits from blocks it leased from the store ([billing](billing.md#credits-across-processes), ADR 0040). A lease is renewed every quarter of this while in use; one not renewed for this long (a crashed process) expires and its credits come back. At least `1000`.',
  }),
  BRANDBASE_CREDIT_BLOCK: int({
    default: 50, min: 1,
    doc: 'Credits a process leases at a time while plenty are left (a busy process doubles it while blocks last under a second, up to 64 blocks); within 10 blocks of a limit it leases only what its waiting requests need. Larger: fewer store round trips; smaller: less held by a process that dies.',
  }),
  BRANDBASE_HTML_MAX_DEPTH: int({
    default: 512, min: 8,
    doc: 'Elements open at once while a crawled page is parsed (the HTML parser\'s stack, `<html>` and `<body>` included). The parse stops at the first element past it and the page keeps what came before. Real pages nest under 40 deep; parsing deep nesting costs time proportional to the depth for every tag. See [security](security.md#bounds-on-what-a-site-can-make-us-parse).',
  }),
  BRANDBASE_HTML_MAX_ELEMENTS: int({
    default: 50_000, min: 16,
    doc: 'Elements created while a page is parsed, the ones the parser adds itself included; start and end tags read are bounded at twice this. The parse stops there (a partial page). Real pages hold under 15,000.',
  }),
  BRANDBASE_HTML_MAX_ATTRIBUTES: int({
    default: 256, min: 1,
    doc: 'Attributes kept on one tag; further ones are dropped, as duplicate attributes are (each attribute read is compared with those before it). Real tags carry under 100.',
  }),
  BRANDBASE_CSS_MAX_SHEET_BYTES: int({
    default: 1024 * 1024, min: 1024,
    doc: 'Bytes of one stylesheet: a linked sheet larger than this is not downloaded; an inline `<style>` block is parsed up to it (at a rule boundary).',
  }),
  BRANDBASE_CSS_MAX_TOTAL_BYTES: int({
    default: 4 * 1024 * 1024, min: 1024,
    doc: 'Bytes of CSS parsed per crawl: inline blocks first, then linked sheets, then their `@import`s, in document order; what is past it is left out.',
  }),
  BRANDBASE_CSS_MAX_RULES: int({
    default: 50_000, min: 1,
    doc: 'Style rules kept per crawl; parsing stops past it.',
  }),
  BRANDBASE_CSS_PARSE_TIME_MS: int({
    default: 1000, min: 1,
    doc: 'Time spent parsing CSS per crawl (downloads not counted), checked between pieces of about 64 KB (the crawl yields to the event loop between them); what is left when it runs out is not parsed. Real sites\' CSS parses in well under this.',
  }),
  BRANDBASE_HTML_MAX_BYTES: int({
    default: 2 * 1024 * 1024, min: 1024,
    doc: 'Bytes of a page that are parsed (2 MB); the rest is ignored (brand evidence sits in `<head>` and the header).',
  }),
  BRANDBASE_HTML_MAX_DOWNLOAD_BYTES: int({
    default: 5 * 1024 * 1024, min: 1024,
    doc: 'Bytes of a home page that are downloaded (5 MB); a larger page fails the crawl as `too_large`.',
  }),
  BRANDBASE_IMAGE_MAX_BYTES: int({
    default: 5 * 1024 * 1024, min: 1024,
    doc: 'Bytes of one image file (logo, icon, banner, picture) that are downloaded and ingested (5 MB); a larger file is not stored.',
  }),
  BRANDBASE_IMAGE_MAX_PIXELS: int({
    default: 40_000_000, min: 256,
    doc: 'Pixels (width × height) of one image file, read from its header before anything is decoded (PNG, JPEG, WebP, GIF, AVIF, SVG rendering; sharp\'s `limitInputPixels`). A larger image is not stored (`too_large`).',
  }),
  BRANDBASE_BITMAP_MAX_PIXELS: int({
    default: 1024 * 1024, min: 256,
    doc: 'Pixels of the image files decoded in JavaScript, for the whole file: a BMP file, or the one entry of an ICO file that is decoded (ICO directory entries naming the same bytes count once; entries over it are skipped).',
  }),
  BRANDBASE_PAYMENTS: onOff({
    default: true,
    doc: 'Pay per request over x402 ([payments](payments.md)): `on` sends the `PAYMENT-REQUIRED` challenge with every 402 of `/v2/brands/*` and accepts `PAYMENT-SIGNATURE`; `off` answers the 402 body only.',
  }),
  BRANDBASE_X402_NETWORK: matching({
    default: 'eip155:84532', pattern: /^eip155:\d+$/, what: 'a CAIP-2 EVM network such as eip155:8453',
    doc: 'CAIP-2 EVM network of the x402 payment (Base Sepolia by default; Base mainnet is `eip155:8453`).',
  }),
  BRANDBASE_X402_ASSET: matching({
    default: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', pattern: ADDRESS, what: 'a 0x-prefixed 20-byte hex address',
    doc: 'The stablecoin\'s contract address (USDC on Base Sepolia; USDC on Base is `0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913`).',
  }),
  BRANDBASE_X402_ASSET_NAME: text({
    default: 'USDC',
    doc: 'The token\'s EIP-712 domain name, which the payer signs (`USD Coin` for USDC on Base mainnet). A wrong name makes every signature invalid.',
  }),
  BRANDBASE_X402_ASSET_VERSION: text({
    default: '2',
    doc: 'The token\'s EIP-712 domain version.',
  }),
  BRANDBASE_X402_PAY_TO: matching({
    default: null, pattern: ADDRESS, what: 'a 0x-prefixed 20-byte hex address',
    shown: `\`${EMBEDDED_PAY_TO}\``,
    doc: 'The operator\'s receiving address. The default is a placeholder for the embedded ledger; required with `BRANDBASE_X402_FACILITATOR_URL`.',
  }),
  BRANDBASE_X402_PRICE_UNITS: matching({
    default: '100000', pattern: /^[1-9]\d{0,15}$/, what: 'a positive whole number of base units',
    doc: 'Price of one paid request in the asset\'s integer base units (0.10 USD of a 6-decimal stablecoin). Never a decimal.',
  }),
  BRANDBASE_X402_MAX_TIMEOUT_SECONDS: int({
    default: 300, min: 60, max: 86_400,
    doc: 'How long a signed payment stays valid (60 to 86400): a client may present the same payment again after an answer that was not charged (a 404) within this window. It is also the longest validity accepted: an x402 authorization whose `validBefore` is later than now + this + 60 s (clock skew) answers 402 `payment_invalid` (pay per request and standing access).',
  }),
  BRANDBASE_X402_FACILITATOR_URL: httpUrl({
    shown: '(unset)',
    doc: 'A remote x402 facilitator (production, e.g. `https://x402.org/facilitator`). Unset: the embedded facilitator verifies real EIP-3009 signatures and settles on a ledger in the store, fully offline (demos, tests; `brandbase payments fund` credits wallets).',
  }),
  BRANDBASE_MPP: onOff({
    default: null,
    shown: '`on` (`off` with a facilitator URL)',
    doc: 'MPP pay per request ([payments](payments.md#mpp)): the 402 also carries a `WWW-Authenticate: Payment` challenge (mppx, `evm` method, same network, asset, payee and price as x402) and `Authorization: Payment <credential>` pays. It settles on the embedded ledger only, so it cannot be on with `BRANDBASE_X402_FACILITATOR_URL`.',
  }),
  BRANDBASE_MPP_SECRET_KEY: secret({
    minLength: 32,
    shown: '(random per process)',
    doc: 'HMAC key (at least 32 characters) that binds MPP challenges to their contents. Unset, each process draws its own, so a challenge is only accepted by the process that issued it: set one shared value when several API processes serve the same clients.',
  }),
  BRANDBASE_MPP_CARD: onOff({
    default: null,
    shown: '`on` where cards can be charged (`off` otherwise)',
    doc: 'Card payments for standing access over MPP ([payments](payments.md#paying-by-card)): the 402 of `POST /v2/agents/access` also carries a `Payment` challenge with `method="stripe"` (amount in cents, `usd`) and a Shared Payment Token in `Authorization: Payment` pays. On by default with `BRANDBASE_MPP_STRIPE_SECRET_KEY`, or offline (MPP on, no facilitator URL) with the embedded card processor; `on` anywhere else is refused. Pay per request is never paid by card.',
  }),
  BRANDBASE_MPP_STRIPE_SECRET_KEY: matching({
    default: null, pattern: /^(sk|rk)_(live|test)_\w+$/, what: 'a Stripe secret or restricted key (sk_live_…, sk_test_…, rk_…)', echo: false,
    shown: '(unset)',
    doc: 'A Stripe secret or restricted key (`sk_live_…`, `sk_test_…`, `rk_…`): card payments are charged by Stripe (a PaymentIntent confirmed with the client\'s Shared Payment Token). Unset: by the embedded card processor over the store, for offline demos and tests (`brandbase payments card-token` grants its tokens). Keep it out of logs and files others can read.',
  }),
  BRANDBASE_MPP_STRIPE_NETWORK_ID: text({
    default: null,
    shown: `\`${EMBEDDED_CARD_NETWORK}\``,
    doc: 'The Stripe business network profile id card challenges name; required with `BRANDBASE_MPP_STRIPE_SECRET_KEY`.',
  }),
} as const;

const REFRESH = {
  BRANDBASE_REFRESH: onOff({
    default: true,
    doc: '`off`: no process schedules refreshes (`brandbase refresh run` still queues by hand). `on`: every process that crawls jobs (`serve`, `worker`) runs the scheduler; one at a time leads, through a lease in the store.',
  }),
  BRANDBASE_REFRESH_INTERVAL_MS: int({
    default: 60_000, min: 1000, max: 86_400_000,
    doc: 'Time between two ticks of the leader (1 s to 1 day). The lease lasts three intervals: a leader that dies is replaced within that.',
  }),
  BRANDBASE_REFRESH_PER_TICK: int({
    default: 20, min: 1, max: 10_000,
    doc: 'Refresh crawls one tick queues at most: a store that goes stale at once is refreshed over many ticks.',
  }),
  BRANDBASE_REFRESH_MAX_ACTIVE: int({
    default: 50, min: 1, max: 100_000,
    doc: 'Refresh crawls queued or running at once at most. Refreshes also never take the queue past half of `BRANDBASE_QUEUE_MAX_DEPTH`, so prefetches and batch misses keep their room.',
  }),
  BRANDBASE_ANALYSIS_CACHE_ROWS: int({
    default: 200_000, min: 0, max: 100_000_000,
    doc: 'Rows of the content-hash analysis cache (a brand\'s crawl uses a few dozen); the least recently used go first. `0` keeps none: every re-crawl analyses every file.',
  }),
  BRANDBASE_POPULARITY_FLUSH_MS: int({
    default: 5000, min: 10, max: 3_600_000,
    doc: 'How often an API process writes the lookups it counted (`brand_popularity`, one batch); what a process killed outright had not written is lost.',
  }),
} as const;

const WEBHOOKS = {
  BRANDBASE_WEBHOOK_SOURCE_ADDRESSES: ipList({
    doc: 'Comma-separated IP addresses deliveries leave from, taken in turn (each request\'s socket is bound to one of them), so receivers can allow-list them ([source addresses](webhooks.md#source-addresses)). The spec promises three fixed addresses: configure the three this host owns. Empty: the system picks the outgoing address. An endpoint whose address family no configured address has is refused (`network`).',
  }),
  BRANDBASE_WEBHOOK_TIMEOUT_MS: int({
    default: 15_000, min: 1000, max: 60_000,
    doc: 'Whole time of one delivery attempt (connect, request, response head and the first 1 KB of the body), 1,000 to 60,000. A leased delivery is taken back after four times this, so a process that died mid-request is replaced by the next sender.',
  }),
  BRANDBASE_WEBHOOK_SENDERS: int({
    default: 4, min: 0, max: 64,
    doc: 'Deliveries one process (`serve` with its worker, or `worker`) sends at once, 0 to 64. `0`: the process still turns brand events into deliveries but sends none (another process does).',
  }),
  BRANDBASE_GRAPHQL_MAX_COST: int({
    default: 50_000, min: 1,
    doc: 'The most one `POST /graphql` request may cost: its fields, each counted once per object it is resolved on (a connection\'s `first`, 100 when absent, multiplies what is selected under it; every alias counts), estimated before it runs ([webhooks](webhooks.md#query-cost)). Over it: 400 `query_too_expensive`, nothing runs. The standard introspection query costs about 26,000; 100 webhooks with a page of 100 deliveries each (a few fields) about 40,000.',
  }),
  BRANDBASE_GRAPHQL_COST_PER_MINUTE: int({
    default: 500_000, min: 0,
    doc: 'GraphQL cost one organization may spend per minute (token bucket per API process, holding up to a minute\'s worth): each request takes its estimated cost before it runs. Over it: 429 `rate_limited` with `Retry-After`, nothing runs; other organizations are served. At least `BRANDBASE_GRAPHQL_MAX_COST`; `0`: no limit.',
  }),
  BRANDBASE_WEBHOOK_SENDS_PER_ORG: int({
    default: 2, min: 1, max: 64,
    doc: 'Deliveries of one organization being sent at once, across every sending process (1 to 64); its other due deliveries wait while other organizations\' are sent ([fairness](webhooks.md#fairness)). Keep it below `BRANDBASE_WEBHOOK_SENDERS`, so an organization whose endpoint never answers cannot occupy every sender of a process.',
  }),
  BRANDBASE_WEBHOOKS_PER_ORG: int({
    default: 20, min: 1, max: 10_000,
    doc: 'Webhooks one organization may have; `createWebhook` past it answers `too_many_webhooks` (409) ([limits](webhooks.md#limits)).',
  }),
  BRANDBASE_WEBHOOK_TESTS_PER_MINUTE: int({
    default: 10, min: 1, max: 10_000,
    doc: 'Test events (`sendTestEvent`, `brandbase webhooks test`) one organization may queue per minute, over all its webhooks; past it `rate_limited` (429) ([limits](webhooks.md#limits)).',
  }),
} as const;

const CLIENT_IDS = {
  BRANDBASE_SEARCH_RATE_PER_CLIENT_ID: int({
    default: 6000, min: 1,
    doc: 'Search requests per window (`BRANDBASE_CLIENT_ID_RATE_WINDOW_MS`) per client ID, across all addresses (spec 8). Over it: 429 `rate_limited` with `Retry-After`; it lifts as the rate drops.',
  }),
  BRANDBASE_SEARCH_RATE_PER_IP: int({
    default: 200, min: 1,
    doc: 'Search requests per window per client ID and address (spec 8).',
  }),
  BRANDBASE_SEARCH_ALLOWANCE_FREE: int({
    default: 500_000, min: 0,
    doc: 'Monthly search allowance of a free-plan organization (all its client IDs). Soft: past it requests pass with `x-bf-over-allowance: true`; 429 `quota_exceeded` only past it × `BRANDBASE_CLIENT_ID_HARD_LIMIT_FACTOR`.',
  }),
  BRANDBASE_SEARCH_ALLOWANCE_PAID: int({
    default: 1_000_000, min: 0,
    doc: 'Monthly search allowance of a paid-plan organization (spec 8: 1 to 5 million).',
  }),
  BRANDBASE_LOGO_RATE_PER_CLIENT_ID: int({
    default: 60_000, min: 1,
    doc: 'Logo CDN requests per window per client ID (not in the spec: a page shows many logos at once).',
  }),
  BRANDBASE_LOGO_RATE_PER_IP: int({
    default: 2000, min: 1,
    doc: 'Logo CDN requests per window per client ID and address.',
  }),
  BRANDBASE_LOGO_ALLOWANCE_FREE: int({
    default: 1_000_000, min: 0,
    doc: 'Monthly logo allowance of a free-plan organization (soft, as search\'s).',
  }),
  BRANDBASE_LOGO_ALLOWANCE_PAID: int({
    default: 10_000_000, min: 0,
    doc: 'Monthly logo allowance of a paid-plan organization.',
  }),
  BRANDBASE_CLIENT_ID_RATE_WINDOW_MS: int({
    default: 300_000, min: 1000,
    doc: 'The throughput window (5 minutes); the limits refill continuously over it.',
  }),
  BRANDBASE_CLIENT_ID_HARD_LIMIT_FACTOR: int({
    default: 2, min: 1,
    doc: '429 `quota_exceeded` once an organization\'s month passes its allowance times this (an integer ≥ 1; 1 makes the allowance a hard stop).',
  }),
  BRANDBASE_API_PROCESSES: int({
    default: 1, min: 1,
    doc: 'API processes sharing the traffic behind a load balancer: each enforces 1/N of the throughput limits, kept in its memory (ADR 0033).',
  }),
  BRANDBASE_CLIENT_ID_CACHE_MS: int({
    default: 5000, min: 0,
    doc: 'How long a process keeps a client ID (and its organization\'s plan) before reading it again: a revocation or referrer change takes effect within it. `0` reads it on every request.',
  }),
  BRANDBASE_SEARCH_TIMEOUT_MS: int({
    default: 2000, min: 1,
    doc: 'A search answering later than this is cut off with 503 `temporarily_unavailable` (`Retry-After: 10`), not counted.',
  }),
} as const;

const CDN = {
  BRANDBASE_CDN_PORT: int({
    default: null, min: 0, max: 65_535,
    doc: 'A port for the CDN\'s own listener (on `HOST`), serving nothing but logos, e.g. behind a caching CDN. `0` picks a free port (logged at start as `logo CDN serving`). Empty: the CDN is served by the API\'s listener.',
  }),
  BRANDBASE_CDN_HOST: text({
    default: null,
    doc: 'On the API\'s listener, answer CDN URLs only for requests whose `Host` is this name (any port), e.g. `logo.example.com`; other host names get the API only. Empty: any host. Ignored with `BRANDBASE_CDN_PORT`.',
  }),
  BRANDBASE_CDN_PATH: pathSetting({
    default: null, form: 'prefix', example: '/logo',
    shown: '`/logo` on the API\'s listener without `BRANDBASE_CDN_HOST`, else empty (the root)',
    doc: 'Path prefix of every CDN URL, such as `/logo` or `/brand/logos`; `/` or empty for the root.',
  }),
  BRANDBASE_CDN_BASE_URL: httpUrl({
    shown: 'the CDN\'s address: `$BRANDBASE_PUBLIC_URL` + path, `http(s)://$BRANDBASE_CDN_HOST` + path, or `http://localhost:$BRANDBASE_CDN_PORT` + path',
    doc: 'The public base of CDN URLs, as users reach them (e.g. the caching CDN in front); logged at start. An http(s) URL; a trailing `/` is dropped.',
  }),
  BRANDBASE_CDN_MAX_AGE: int({
    default: 7 * 86_400, min: 0,
    doc: '`Cache-Control: public, max-age` of a brand\'s logo, in seconds (7 days).',
  }),
  BRANDBASE_CDN_FALLBACK_MAX_AGE: int({
    default: 300, min: 0,
    doc: '`max-age` of a fallback and of the 404 fallback, in seconds: short, so the logo shows soon after the brand is crawled.',
  }),
  BRANDBASE_CDN_MEMORY_MB: int({
    default: 64, min: 0,
    doc: 'Megabytes of rendered variants each process keeps in memory (least recently used out); the rest are read from the asset store\'s variant area. `0`: none in memory.',
  }),
  BRANDBASE_CDN_VARIANT_BUDGET_MB: int({
    default: 1024, min: 1,
    doc: 'Megabytes of rendered variants kept in the asset store\'s variant area; past it the least recently used are deleted. Counted by each process over what it wrote and read (and, on the local store, what it found at start).',
  }),
  BRANDBASE_CDN_VARIANTS_PER_BRAND: int({
    default: 64, min: 1,
    doc: 'Variants of one brand kept in the variant area at most. Past it a new size is scaled from the logo\'s stored raster (never drawn from its SVG again) and kept in memory only.',
  }),
  BRANDBASE_SVG_RENDER_WORKERS: int({
    default: 2, min: 1, max: 64,
    doc: 'Worker processes that draw SVG logos for the CDN and the palette (one SVG each at a time), never on the API\'s thread.',
  }),
  BRANDBASE_SVG_RENDER_QUEUE: int({
    default: 32, min: 0,
    doc: 'SVG renders waiting for a worker at most; past it the CDN answers the request\'s fallback at once (docs/logo-cdn.md).',
  }),
  BRANDBASE_SVG_RENDER_TIMEOUT_MS: int({
    default: 5000, min: 100,
    doc: 'Hard time limit of one SVG render: past it the worker is killed and the CDN answers the fallback (and draws no variant of that SVG again for 10 minutes).',
  }),
  BRANDBASE_SVG_RENDER_MEMORY_MB: int({
    default: 256, min: 160,
    doc: 'Memory of one SVG render worker (V8 heap and resident memory, read every 50 ms): past it the worker is killed, as at the time limit.',
  }),
} as const;

const ASSET_STORE = {
  BRANDBASE_ASSET_STORE: oneOf({
    values: ['local', 's3'], default: 'local',
    doc: '`local`: files in `$BRANDBASE_DATA_DIR/assets/` (one machine). `s3`: an S3-compatible bucket shared by every process of a fleet.',
  }),
  BRANDBASE_S3_BUCKET: matching({
    default: null, pattern: /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, what: 'an S3 bucket name',
    doc: 'The bucket\'s name; required with `BRANDBASE_ASSET_STORE=s3`. The bucket must exist.',
  }),
  BRANDBASE_S3_ENDPOINT: httpUrl({
    echo: false,
    shown: 'empty (AWS S3)',
    doc: 'An S3-compatible server\'s URL (MinIO, Cloudflare R2, Ceph, s3rver), e.g. `http://127.0.0.1:9000`.',
  }),
  BRANDBASE_S3_REGION: text({
    default: 'us-east-1',
    doc: 'The bucket\'s region (any value for most S3-compatible servers; `auto` for R2).',
  }),
  BRANDBASE_S3_ACCESS_KEY_ID: text({
    default: null,
    doc: 'Access key; set together with the secret below. Both empty: the AWS SDK\'s default chain (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE`, an instance or task role).',
  }),
  BRANDBASE_S3_SECRET_ACCESS_KEY: text({
    default: null,
    doc: 'The secret of that key. Never logged nor echoed in errors; crawl workers receive it by message to write the crawl\'s files (scope the key to the prefix: `s3:GetObject` and `s3:PutObject` on `bucket/prefix/*`, and `s3:ListBucket` on the bucket so a missing object answers 404 rather than 403).',
  }),
  BRANDBASE_S3_PREFIX: pathSetting({
    default: '', form: 'key', example: 'brandbase/assets',
    doc: 'Prepended to every object name (`brandbase/` gives `brandbase/<sha256>.<ext>` and `brandbase/variants/<key>`), so installations can share a bucket. Letters, digits, `.`, `_`, `-` and `/`.',
  }),
  BRANDBASE_S3_FORCE_PATH_STYLE: onOff({
    default: null,
    shown: '`on` with an endpoint, else `off`',
    doc: '`on`: `endpoint/bucket/key` URLs (what most S3-compatible servers need); `off`: `bucket.endpoint/key` (virtual-hosted, AWS\'s preference).',
  }),
} as const;

const METRICS = {
  BRANDBASE_METRICS_TOKEN: secret({
    minLength: 16,
    doc: 'A token of at least 16 characters: `/metrics` on the API\'s port answers scrapes that send `Authorization: Bearer <token>` (compared in constant time) and 401 otherwise.',
  }),
  BRANDBASE_METRICS_PORT: int({
    default: null, min: 0, max: 65_535,
    doc: 'A port for a listener of its own (on `HOST`) serving `/metrics` without a token, `/healthz` and `/readyz`, nothing else; every process started with it listens there, `brandbase worker` included. Keep it on a private network. `0` picks a free port.',
  }),
} as const;
/** The schema in documentation order: one table of docs/configuration.md per section (`<!-- settings:ID -->`). */
export const CONFIG_SECTIONS = [
  { id: 'server', settings: SERVER },
  { id: 'refresh', settings: REFRESH },
  { id: 'webhooks', settings: WEBHOOKS },
  { id: 'clientIds', settings: CLIENT_IDS },
  { id: 'cdn', settings: CDN },
  { id: 'assetStore', settings: ASSET_STORE },
  { id: 'metrics', settings: METRICS },
] as const;

export const CONFIG_SCHEMA = { ...SERVER, ...REFRESH, ...WEBHOOKS, ...CLIENT_IDS, ...CDN, ...ASSET_STORE, ...METRICS } as const;

export type SettingName = keyof typeof CONFIG_SCHEMA;

/** Each setting's value as read: the parsed value, or its default (null where config.ts derives it). */
export type ConfigValues = SettingValues<typeof CONFIG_SCHEMA>;
