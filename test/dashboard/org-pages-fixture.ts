/**
 * What the organization-page tests (client IDs, usage, billing, webhooks, payments; issue 23) start from: the real
 * service on a temp SQLite store mailing a real SMTP test server, two organizations (A with an owner and a member,
 * B with its own owner), those people signed in through the emailed link, form posts through inject, and a
 * Chromium page on the same app listening on loopback, signed in with the owner's session cookie. `newOrgs()` makes
 * another such pair with people of its own, so each test reads only what it made (the suite runs shuffled).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { LightMyRequestResponse } from 'fastify';
import type { Plan } from '../../src/domain/accounts.js';
import { startSmtpSink, type SmtpSink } from '../billing/smtp-sink.js';
import { checkLayout, launchBrowser, seriousAxeViolations, type AxeViolation } from '../helpers/browser-page.js';
import { addMember, form, FORM, signInThroughEmail } from '../helpers/dashboard-sign-in.js';
import type { Backend } from '../helpers/backends.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';

export interface Person {
  email: string;
  cookie: string;
  csrfToken: string;
}

/** Organization A (an owner and a member) and organization B (its own owner), the people signed in. */
export interface OrgPair {
  orgA: string;
  orgB: string;
  ownerA: Person;
  memberA: Person;
  ownerB: Person;
}

export interface OrgPagesFixture extends OrgPair {
  stack: TestStack;
  smtp: SmtpSink;
  /** A fresh pair for one test: new organizations (A on `plan`/`quota`, default paid/1000) and new people. */
  newOrgs(options?: { plan?: Plan; quota?: number }): Promise<OrgPair>;
  get(person: Person, path: string): Promise<LightMyRequestResponse>;
  /** A form post with the person's CSRF token (unless `_csrf` is given), as the page's own form sends it. */
  post(person: Person, path: string, fields?: Record<string, string | string[]>, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** The page a 303 leads to, with its one-time notice cookie, as a browser would follow it. */
  follow(person: Person, answer: LightMyRequestResponse): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

function body(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) params.append(name, v);
  return params.toString();
}

/** `name=value` of a cookie the answer sets (not a deletion), or null. */
function setCookie(answer: LightMyRequestResponse, name: string): string | null {
  const all = [answer.headers['set-cookie'] ?? []].flat();
  const found = all.find((c) => c.startsWith(`${name}=`) && !/Max-Age=0/i.test(c));
  return found ? (found.split(';')[0] ?? null) : null;
}

/** Two organizations and their people, signed in through the emailed link; `tag` keeps the addresses apart. */
async function makeOrgs(stack: TestStack, smtp: SmtpSink, options: { plan?: Plan; quota?: number }, tag: string): Promise<OrgPair> {
  const { services, app } = stack;
  const orgA = (await services.accounts.createOrganization({ name: 'Acme Widgets', plan: options.plan ?? 'paid', quota: options.quota ?? 1000 })).id;
  const orgB = (await services.accounts.createOrganization({ name: 'Other Co', plan: 'paid', quota: 1000 })).id;
  const [ownerAEmail, memberAEmail, ownerBEmail] = [`owner${tag}@acme.test`, `member${tag}@acme.test`, `owner${tag}@other.test`];
  await addMember(services, orgA, ownerAEmail, 'owner');
  await addMember(services, orgA, memberAEmail, 'member');
  await addMember(services, orgB, ownerBEmail, 'owner');
  const person = async (email: string): Promise<Person> => ({ email, ...(await signInThroughEmail(app, smtp, email)) });
  return { orgA, orgB, ownerA: await person(ownerAEmail), memberA: await person(memberAEmail), ownerB: await person(ownerBEmail) };
}

export async function startOrgPages(options: { plan?: Plan; quota?: number; env?: Record<string, string>; backend?: Backend } = {}): Promise<OrgPagesFixture> {
  const smtp = await startSmtpSink();
  const stack = await startTestStack({ BRANDBASE_SMTP_URL: smtp.url, BRANDBASE_CLIENT_ID_CACHE_MS: '0', ...options.env }, { backend: options.backend });
  const { app } = stack;
  const first = await makeOrgs(stack, smtp, options, '');
  // A sequence, not a random tag: the addresses of each pair are unique in this fixture's store.
  let pairs = 0;
  return {
    stack,
    smtp,
    ...first,
    newOrgs: (pairOptions = {}) => makeOrgs(stack, smtp, pairOptions, `-${++pairs}`),
    get: (p, path) => app.inject({ method: 'GET', url: path, headers: { cookie: p.cookie } }),
    post: (p, path, fields = {}, headers = {}) =>
      app.inject({ method: 'POST', url: path, headers: { ...FORM, cookie: p.cookie, ...headers }, payload: body({ _csrf: p.csrfToken, ...fields }) }),
    async follow(p, answer) {
      const location = answer.headers.location;
      if (answer.statusCode !== 303 || typeof location !== 'string') throw new Error(`expected a 303, got ${answer.statusCode}: ${answer.body.slice(0, 300)}`);
      const notice = setCookie(answer, 'bb_notice');
      return app.inject({ method: 'GET', url: location, headers: { cookie: notice ? `${p.cookie}; ${notice}` : p.cookie } });
    },
    async close() {
      await stack.close();
      await smtp.close();
    },
  };
}

export { form, FORM };

/** The page's visible text, tags dropped and entities of ours undone: what a reader sees, for assertions. */
export function textOf(pageHtml: string): string {
  return pageHtml
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** Chromium on the fixture's app, listening on loopback, with a person's session cookie. */
export interface BrowserSession {
  page: Page;
  base: string;
  /** Opens a path; returns the HTTP status. */
  open(path: string): Promise<number>;
  /** Axe's serious and critical violations, and the overflow at 375 and 1440 px (screenshots `name-<width>.png`). */
  check(name: string): Promise<{ violations: AxeViolation[]; overflow: Record<number, number> }>;
  close(): Promise<void>;
}

/** The fixture's app listens once, on the first browser opened. */
const listening = new WeakMap<OrgPagesFixture, Promise<string>>();

export async function openBrowser(fixture: OrgPagesFixture, person: Person): Promise<BrowserSession> {
  let started = listening.get(fixture);
  if (!started) listening.set(fixture, (started = fixture.stack.app.listen({ port: 0, host: '127.0.0.1' })));
  const address = await started;
  const browser: Browser = await launchBrowser();
  // axe-core is injected as an inline script, which the pages' Content-Security-Policy forbids (rightly).
  const context: BrowserContext = await browser.newContext({ bypassCSP: true });
  const [name, ...value] = person.cookie.split('=');
  await context.addCookies([{ name: name ?? '', value: value.join('='), url: address }]);
  const page = await context.newPage();
  return {
    page,
    base: address,
    async open(path) {
      const response = await page.goto(`${address}${path}`);
      return response?.status() ?? 0;
    },
    async check(shot) {
      await page.setViewportSize({ width: 1440, height: 900 });
      const violations = await seriousAxeViolations(page);
      const overflow = await checkLayout(page, shot);
      return { violations, overflow };
    },
    async close() {
      await context.close();
      await browser.close();
    },
  };
}
