/**
 * Consent banners cover headers and hide logos in screenshots and in the DOM order: accept them the way a
 * visitor would (the widely used CMPs' accept buttons, then any button in a cookie/consent container whose
 * text says accept), then remove what is left of the overlay. Failures are ignored: a banner that stays is
 * excluded by the static candidate rules anyway.
 */
import type { Page } from 'playwright-core';

const KNOWN_ACCEPT_BUTTONS = [
  '#onetrust-accept-btn-handler',
  '#CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll',
  '#CybotCookiebotDialogBodyButtonAccept',
  '.cc-allow',
  '.cky-btn-accept',
  '#didomi-notice-agree-button',
  '[data-testid="uc-accept-all-button"]',
  '.fc-cta-consent',
];
const CONSENT_CONTAINER = '[id*="cookie" i], [class*="cookie" i], [id*="consent" i], [class*="consent" i], [class*="gdpr" i], [aria-label*="cookie" i]';
const ACCEPT_TEXT = /^(accept|accept all|allow all|agree|i agree|got it|ok|okay|alle akzeptieren|tout accepter|aceptar)( cookies)?$/i;

export async function dismissConsent(page: Page): Promise<void> {
  try {
    for (const selector of KNOWN_ACCEPT_BUTTONS) {
      const button = page.locator(selector).first();
      if (await button.isVisible({ timeout: 50 }).catch(() => false)) {
        await button.click({ timeout: 500 }).catch(() => undefined);
        return;
      }
    }
    const buttons = page.locator(`${CONSENT_CONTAINER.split(', ').map((c) => `${c} button`).join(', ')}`);
    const count = Math.min(await buttons.count(), 10);
    for (let i = 0; i < count; i++) {
      const button = buttons.nth(i);
      const text = ((await button.textContent({ timeout: 200 }).catch(() => '')) ?? '').trim();
      if (ACCEPT_TEXT.test(text)) {
        await button.click({ timeout: 500 }).catch(() => undefined);
        break;
      }
    }
    // A string script: it runs in the page, whose DOM types this Node project does not compile against.
    await page.evaluate(`for (const el of document.querySelectorAll(${JSON.stringify(CONSENT_CONTAINER)})) { if (getComputedStyle(el).position === 'fixed') el.remove(); }`);
  } catch {
    // The page may have navigated or closed; consent is best effort.
  }
}
