/**
 * What a webhook URL may be (docs/webhooks.md, "Limits"): https only, except hosts of the crawler's host map
 * (BRANDBASE_CRAWL_HOSTS: tests and offline demos, reached over plain http like the crawler does); no credentials;
 * not a private, loopback or otherwise non-public address literal; the crawler's port rules. A name that resolves
 * to a private address is refused at send time, where the delivery engine checks every connection.
 */
import { ApiError } from '../../domain/errors.js';
import { checkUrl, type MappedAddress } from '../../platform/fetch-target.js';
import { FetchError } from '../../platform/fetcher.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

function refuse(reason: string): never {
  throw new ApiError('invalid_webhook_url', `Invalid webhook URL: ${reason}.`);
}

/** The URL as it will be stored (WHATWG-normalized), or 400 `invalid_webhook_url` saying why. */
export function checkWebhookUrl(raw: string, hostMap: ReadonlyMap<string, MappedAddress>): string {
  const value = raw.trim();
  if (value.length === 0) refuse('it is empty');
  if (value.length > MAX_WEBHOOK_URL_LENGTH) refuse(`longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  if (value.includes('#')) refuse('a fragment (#...) is never sent; remove it');
  let checked;
  try {
    checked = checkUrl(value, hostMap);
  } catch (error) {
    if (error instanceof FetchError) refuse(error.message);
    throw error;
  }
  if (checked.url.protocol !== 'https:' && !checked.mapped) refuse('only https URLs are accepted');
  return checked.url.href;
}
