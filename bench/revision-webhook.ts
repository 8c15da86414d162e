/**
 * Webhook delivery of one revision (bench/compare-revisions.ts), from a brand change to the receiver holding the
 * signed POST, through public interfaces only. Each tree holds WEBHOOK_BRANDS brands whose loopback sites change
 * their name, description and theme colour with every generation; a webhook of a paid organization (created and
 * subscribed with `brandbase webhooks`) points at a receiver on loopback, mapped through the host map. A run raises
 * the generation and re-crawls every brand with `brandbase crawl --refresh` (a separate process, as a worker is);
 * each save writes a `brand.updated` event, and the tree's `serve` process fans it out and delivers it. The figure is
 * each delivery's latency: its arrival at the receiver less the event's `timestamp` (the save), verified with the
 * Standard Webhooks library against the secret the tree printed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { brandbase, type RevisionTree } from './revision-cli.js';

export const WEBHOOK_BRANDS = Number(process.env.BENCH_WEBHOOK_BRANDS ?? 40);
/** Generous: a delivery waits for the event consumer's and the sender's polls, on a loaded machine. */
const DELIVERY_TIMEOUT_MS = 180_000;
const AUTHORIZATION = 'Bearer bench-receiver';

export interface ChangingSites {
  /** `127.0.0.1:port`: every webhook brand's host is mapped here. */
  address: string;
  /** Pages served from now on carry this generation's name, description and colour. */
  generation: number;
  close(): Promise<void>;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One server for every webhook brand: a homepage naming the host and the current generation, robots allowing all. */
export async function startChangingSites(): Promise<ChangingSites> {
  const sites: ChangingSites = { address: '', generation: 0, close: async () => undefined };
  const server = await listen((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const host = (req.headers.host ?? 'unknown').split(':')[0] ?? 'unknown';
    const g = sites.generation;
    if (path === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    if (path !== '/') return res.writeHead(404).end();
    const colour = ((g * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(-6);
    const name = `Bench ${host.split('.')[0] ?? ''} ${g}`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title>` +
        `<meta name="description" content="Generation ${g} of a benchmark brand.">` +
        `<meta property="og:site_name" content="${name}"><meta name="theme-color" content="#${colour}">` +
        `</head><body><header><h1>${name}</h1></header><p>Generation ${g} of a benchmark brand.</p></body></html>`,
    );
  });
  sites.address = `127.0.0.1:${server.port}`;
  sites.close = server.close;
  return sites;
}

interface Delivery {
  domain: string;
  latencyMs: number;
}

export interface Receiver {
  /** The webhook URL's host name, mapped to this receiver by the host map. */
  host: string;
  address: string;
  /** Set once the tree printed the webhook's signing secret. */
  secret: string | null;
  deliveries: Delivery[];
  /** Deliveries refused by the checks (bad signature or authorization, unexpected body). */
  refused: string[];
  /** Resolves once `count` deliveries have arrived in all. */
  until(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(host: string): Promise<Receiver> {
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver: Receiver = {
    host,
    address: '',
    secret: null,
    deliveries: [],
    refused: [],
    until: (count) =>
      new Promise<void>((resolve, reject) => {
        if (receiver.deliveries.length >= count) return resolve();
        const timer = setTimeout(() => reject(new Error(`${host}: ${receiver.deliveries.length} of ${count} deliveries after ${DELIVERY_TIMEOUT_MS} ms; refused: ${receiver.refused.slice(0, 3).join('; ')}`)), DELIVERY_TIMEOUT_MS);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      }),
    close: async () => undefined,
  };
  const accept = (body: string, req: IncomingMessage): Delivery => {
    const receivedAt = Date.now();
    if (receiver.secret === null) throw new Error('no secret yet');
    if (req.headers.authorization !== AUTHORIZATION) throw new Error(`authorization ${req.headers.authorization ?? 'missing'}`);
    const event = new Webhook(receiver.secret).verify(body, req.headers as Record<string, string>) as { type?: string; timestamp?: string; data?: { brand?: { domain?: string } } };
    if (event.type !== 'brand.updated' && event.type !== 'brand.rebranded') throw new Error(`event type ${event.type ?? 'missing'}`);
    return { domain: event.data?.brand?.domain ?? '', latencyMs: receivedAt - Date.parse(event.timestamp ?? '') };
  };
  const server = await listen((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      try {
        receiver.deliveries.push(accept(body, req));
      } catch (err) {
        receiver.refused.push(err instanceof Error ? err.message : String(err));
        return res.writeHead(400).end();
      }
      res.writeHead(204).end();
      for (const waiter of waiters.filter((w) => receiver.deliveries.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  receiver.address = `127.0.0.1:${server.port}`;
  receiver.close = server.close;
  return receiver;
}

/** The brands one tree's webhook follows (distinct registrable domains, all served by the changing sites). */
export function webhookDomains(tree: string): string[] {
  return Array.from({ length: WEBHOOK_BRANDS }, (_, i) => `wh-${tree}-${i}.test`);
}

async function crawlAll(tree: RevisionTree, domains: string[], refresh: boolean): Promise<void> {
  const out = await brandbase(tree, ['crawl', ...(refresh ? ['--refresh'] : []), ...domains]);
  const failed = ((out.results ?? []) as { domain: string; status: string; reason?: string }[]).filter((r) => r.status === 'failed');
  if (failed.length > 0) throw new Error(`${tree.name}: crawl failed for ${failed.map((r) => `${r.domain} (${r.reason ?? '?'})`).join(', ')}`);
}

/** Indexes the brands (generation as it stands), then creates the webhook and subscribes it to them. */
export async function setUpWebhook(tree: RevisionTree, orgId: string, receiver: Receiver, domains: string[]): Promise<void> {
  await crawlAll(tree, domains, false);
  const created = await brandbase(tree, ['webhooks', 'create', '--org', orgId, '--url', `http://${receiver.host}/events`, '--authorization', AUTHORIZATION]);
  const webhook = created.webhook as { id?: string } | undefined;
  if (typeof created.secret !== 'string' || !webhook?.id) throw new Error(`${tree.name}: webhooks create printed ${JSON.stringify(created)}`);
  receiver.secret = created.secret;
  await brandbase(tree, ['webhooks', 'subscribe', webhook.id, ...domains, '--org', orgId]);
}

/**
 * Re-crawls every brand (the sites must have moved to a new generation) and waits for one delivery per brand.
 * Returns the deliveries' latencies in milliseconds.
 */
export async function webhookRun(tree: RevisionTree, receiver: Receiver, domains: string[]): Promise<number[]> {
  const before = receiver.deliveries.length;
  await crawlAll(tree, domains, true);
  await receiver.until(before + domains.length);
  const arrived = receiver.deliveries.slice(before);
  const missing = domains.filter((d) => !arrived.some((a) => a.domain === d));
  if (missing.length > 0 || receiver.refused.length > 0) throw new Error(`${tree.name}: no delivery for ${missing.join(', ')}; refused: ${receiver.refused.join('; ')}`);
  return arrived.map((a) => a.latencyMs);
}
