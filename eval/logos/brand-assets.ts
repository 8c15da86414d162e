/**
 * Real brand artwork for the evaluation sites: full horizontal logos and their square icons from
 * `@iconify-json/logos` (drawn as the brands publish them), third-party marks with official colours from
 * `simple-icons`. Nothing is drawn by hand, so the corpus has the shapes, colours and aspect ratios real
 * logos have (thin wordmarks, multi-colour symbols, tall-ish lockups).
 */
import { createRequire } from 'node:module';
import * as simpleIcons from 'simple-icons';

interface IconifyIcon {
  body: string;
  width?: number;
  height?: number;
}
interface IconifySet {
  width: number;
  height: number;
  icons: Record<string, IconifyIcon>;
}

const require = createRequire(import.meta.url);
const LOGOS = require('@iconify-json/logos/icons.json') as IconifySet;

export interface EvalBrand {
  /** Host label and iconify name, e.g. `linear`. */
  slug: string;
  /** Display name used in alt text, titles and JSON-LD. */
  name: string;
  /** The full horizontal logo (original colours), sized at 200 px wide. */
  logo: string;
  /** The square icon (original colours), on a transparent 24-unit square. */
  icon: string;
  /** Logo aspect (width / height). */
  aspect: number;
  /** The logo's shapes only (no <svg> wrapper), to inline or recolour. */
  logoBody: string;
  logoViewBox: string;
}

/** Brands whose iconify logo is wide (2.5–6:1), flat-filled and has a matching `-icon`. */
export const EVAL_BRAND_SLUGS = [
  'linear', 'asana', 'basecamp', 'airbyte', 'amplitude', 'apify', 'appwrite', 'auth0', 'bitrise', 'buildkite',
  'chargebee', 'clerk', 'codecov', 'cohere', 'dashlane', 'deepgram', 'descript', 'discourse', 'dovetail', 'eventbrite',
  'fauna', 'grammarly', 'hashnode', 'hasura', 'heap', 'hotjar', 'incident', 'kong', 'loom', 'mailgun',
  'mapbox', 'miro', 'monday', 'n8n', 'notion', 'okta', 'pagerduty', 'posthog', 'pulumi', 'resend',
  'retool', 'rollbar', 'sentry', 'shortcut', 'temporal', 'twilio', 'upstash', 'vultr', 'workos', 'zapier',
  'mailjet', 'mantine', 'nhost', 'ory', 'passbolt', 'pusher', 'replit', 'sensu', 'stackblitz', 'typesense',
  'unbounce', 'xata', 'zenhub', 'sendgrid', 'vercel',
] as const;

export function evalBrand(slug: string): EvalBrand {
  const logo = iconOf(slug);
  const icon = iconOf(`${slug}-icon`);
  const w = logo.width ?? LOGOS.width;
  const h = logo.height ?? LOGOS.height;
  const height = Math.round((200 * h) / w);
  const viewBox = `0 0 ${w} ${h}`;
  return {
    slug,
    name: displayName(slug),
    logo: `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="${height}" viewBox="${viewBox}">${logo.body}</svg>`,
    icon: squareSvg(icon, 64),
    aspect: w / h,
    logoBody: logo.body,
    logoViewBox: viewBox,
  };
}

/** The logo with every fill set to one colour: the white-on-dark or black-on-light versions sites ship. */
export function recoloredLogo(brand: EvalBrand, fill: string, height = 40): string {
  const [, , w = 1, h = 1] = brand.logoViewBox.split(' ').map(Number);
  const width = Math.round((height * w) / h);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${brand.logoViewBox}"><g fill="${fill}">${recolor(brand.logoBody, fill)}</g></svg>`;
}

export function recolor(body: string, fill: string): string {
  return body.replace(/fill="(?!none)[^"]*"/g, `fill="${fill}"`).replace(/stop-color="[^"]*"/g, `stop-color="${fill}"`);
}

function iconOf(name: string): IconifyIcon {
  const icon = LOGOS.icons[name];
  if (!icon) throw new Error(`@iconify-json/logos has no icon ${name}`);
  return icon;
}

/** The icon centred on a transparent square canvas (iconify icons are not all square). */
function squareSvg(icon: IconifyIcon, size: number): string {
  const w = icon.width ?? LOGOS.width;
  const h = icon.height ?? LOGOS.height;
  const side = Math.max(w, h);
  const viewBox = `${-(side - w) / 2} ${-(side - h) / 2} ${side} ${side}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="${viewBox}">${icon.body}</svg>`;
}

function displayName(slug: string): string {
  const known: Record<string, string> = { n8n: 'n8n', posthog: 'PostHog', pagerduty: 'PagerDuty', workos: 'WorkOS', auth0: 'Auth0' };
  return known[slug] ?? slug.replace(/(^|-)(\w)/g, (_, sep: string, c: string) => `${sep ? ' ' : ''}${c.toUpperCase()}`);
}

export interface ThirdPartyMark {
  slug: string;
  title: string;
  svg: string;
}

/** A simple-icons mark in its official colour, as customers' and partners' logos appear on logo walls. */
export function thirdPartyMark(key: keyof typeof simpleIcons, size = 40): ThirdPartyMark {
  const icon = simpleIcons[key] as { slug: string; title: string; path: string; hex: string };
  return {
    slug: icon.slug,
    title: icon.title,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24"><path fill="#${icon.hex}" d="${icon.path}"/></svg>`,
  };
}

export const PARTNER_KEYS = ['siStripe', 'siShopify', 'siTrello', 'siFigma', 'siAirbnb', 'siSpotify', 'siDropbox', 'siAtlassian', 'siHubspot', 'siIntercom'] as const;
export const PAYMENT_KEYS = ['siVisa', 'siMastercard', 'siPaypal', 'siApplepay'] as const;
export const SOCIAL_KEYS = ['siX', 'siFacebook', 'siInstagram', 'siYoutube', 'siGithub'] as const;
