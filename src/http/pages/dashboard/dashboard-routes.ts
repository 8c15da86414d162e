/**
 * The dashboard (issue 23): every page under /dashboard, registered in one encapsulated scope that parses
 * urlencoded forms (the pages post plain HTML forms) and keeps the pages out of the OpenAPI document (they are for
 * people, not API operations). Each section registers its own routes from its own file.
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { registerKeysPages } from './keys-pages.js';
import { registerOverviewPages } from './overview-page.js';
import { registerSessionPages } from './session-pages.js';
import { registerSignInPages } from './sign-in-pages.js';
import { registerClientIdsPages } from './client-ids-pages.js';
import { registerUsagePages } from './usage-pages.js';
import { registerBillingPages } from './billing-pages.js';
import { registerWebhookPages } from './webhook-pages.js';
import { registerPaymentPages } from './payment-pages.js';
import { registerCorrectionPages } from './correction-pages.js';

/** A dashboard form is a few fields; anything bigger is refused by Fastify with 413. */
const FORM_MAX_BYTES = 64 * 1024;

/** Fields of an urlencoded body: one value as a string, repeated names as a list. No prototype to pollute. */
export function parseForm(body: string): Record<string, string | string[]> {
  const params = new URLSearchParams(body);
  const fields = Object.create(null) as Record<string, string | string[]>;
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    fields[name] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return fields;
}

export function registerDashboard(app: FastifyInstance, deps: AppDeps): void {
  void app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_MAX_BYTES }, (_request, body, done) => {
      done(null, parseForm(body as string));
    });
    registerSignInPages(scope, deps);
    registerOverviewPages(scope, deps);
    registerKeysPages(scope, deps);
    registerSessionPages(scope, deps);
    // The other organization sections (helper F): client IDs, usage, billing, webhooks, payments.
    registerClientIdsPages(scope, deps);
    registerUsagePages(scope, deps);
    registerBillingPages(scope, deps);
    registerWebhookPages(scope, deps);
    registerPaymentPages(scope, deps);
    // Merchant corrections (issue 34).
    registerCorrectionPages(scope, deps);
  });
}
