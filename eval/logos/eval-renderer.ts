/** The eval renders with the same renderer the service uses, when Chromium is installed (null otherwise). */
import { BrowserRenderer, findChromium } from '../../src/crawl/fetch/render/browser-renderer.js';
import type { Fetcher } from '../../src/platform/fetcher.js';
import { USER_AGENT } from '../../src/platform/safe-fetcher.js';

export async function evalRenderer(fetcher: Fetcher): Promise<BrowserRenderer | null> {
  const executablePath = findChromium(process.env['BRANDBASE_CHROMIUM_PATH']);
  return executablePath ? new BrowserRenderer({ executablePath, fetcher, userAgent: USER_AGENT }) : null;
}
