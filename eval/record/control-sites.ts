/**
 * Control sites that are not brands: NSFW positives and look-alikes, and pages that must score in the lower
 * third of the quality score (a parked domain, a placeholder). Written for this evaluation.
 */
import type { GeneratedSite, SiteFile } from './site-generator.js';

const page = (body: string): Record<string, SiteFile> => ({ '/': { type: 'text/html; charset=utf-8', body } });

export function controlSites(): GeneratedSite[] {
  return [
    {
      host: 'velvetnights.test', nsfw: true, truth: null,
      files: page(`<!doctype html><html><head><meta name="rating" content="RTA-5042-1996-1400-1577-RTA"><title>Velvet Nights</title>
        <meta name="description" content="Members-only entertainment for adults."></head><body><div class="age-gate"><p>You must be 18 or older.</p></div></body></html>`),
    },
    {
      host: 'hotcams.test', nsfw: true, truth: null,
      files: page(`<!doctype html><html><head><title>HotCams — live sex cams and nude models</title>
        <meta name="description" content="Free porn videos and live sex cams with nude models. 18+ only."></head>
        <body><div id="age-verification" role="dialog"><p>Are you 18 or older?</p><button>Enter</button></div></body></html>`),
    },
    {
      host: 'hopsandbarley.test', nsfw: false, truth: null,
      files: page(`<!doctype html><html><head><title>Hops &amp; Barley Brewery</title><meta name="description" content="Craft lagers and ales brewed in Portland since 1994."></head>
        <body><div class="age-gate" role="dialog"><p>You must be 21 or older to enter this site.</p><button>I am 21</button></div><main><p>Our taproom is open daily. Adult beverages, responsibly brewed.</p></main></body></html>`),
    },
    {
      host: 'cityclinic.test', nsfw: false, truth: null,
      files: page(`<!doctype html><html><head><title>City Clinic — sexual health and breast cancer screening</title><meta name="description" content="Sexual health services, adult vaccinations and breast cancer screening for the whole community."></head>
        <body><main><p>Walk in for sexual health checks, contraception advice and adult education on healthy relationships.</p></main></body></html>`),
    },
    {
      host: 'bestdeals-domain.test', nsfw: false, truth: null, lowQuality: true,
      files: page(`<!doctype html><html><head><title>bestdeals-domain.test is for sale</title><meta name="description" content="This domain is for sale! Buy this domain today."></head>
        <body><h1>This domain is for sale</h1><p>Make an offer. Related searches: cheap flights, car insurance, online degree.</p></body></html>`),
    },
    {
      host: 'comingsoon.test', nsfw: false, truth: null, lowQuality: true,
      files: page(`<!doctype html><html><head><title>Coming soon</title></head><body><h1>Coming soon</h1><p>Our new website is under construction.</p></body></html>`),
    },
  ];
}
