/**
 * Browser tests of the served pages (issue 23): Debian's Chromium driven by playwright-core, axe-core for
 * accessibility, a horizontal-overflow check at phone and desktop widths, and screenshots kept as test artifacts
 * (test-output/screenshots, git-ignored: a run never rewrites a tracked file). Tests skip only when Chromium is
 * missing (needsChromium('browser'), counted in the closing report), which CI never allows (.ci/run installs it).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from './optional.js';

/**
 * Where screenshots are written: test-output/screenshots, git-ignored, remade on every run. The ones docs/dashboard.md
 * shows are docs/screenshots, copied from here on purpose when a release updates them (docs/dashboard.md says how).
 */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-output/screenshots');

/** The widths every page is checked at (issue 23): a small phone and a desktop. */
export const WIDTHS = [375, 1440] as const;

const AXE_SOURCE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export async function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM_PATH) throw new Error('Chromium is not installed (apt-get install chromium)');
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Runs axe-core in the page; returns the violations of impact `serious` or `critical` (issue 23: zero allowed). */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, not a <script> tag: the pages' CSP (script-src 'self') blocks inline tags.
  await page.evaluate(await readFile(AXE_SOURCE_PATH, 'utf8'));
  // A string, not a function: the project compiles without the DOM library, and axe is a global of the page.
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)),
  })))`)) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** How many CSS pixels the document is wider than the viewport (0 when nothing overflows horizontally). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return (await page.evaluate('Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth)')) as number;
}

/**
 * Checks the page at each width: no horizontal overflow, a full-page screenshot `name-<width>.png` kept. Returns the
 * overflow per width so a test can assert all are 0 (and say which width failed).
 */
export async function checkLayout(page: Page, name: string): Promise<Record<number, number>> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const overflow: Record<number, number> = {};
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    overflow[width] = await horizontalOverflow(page);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
  }
  return overflow;
}
