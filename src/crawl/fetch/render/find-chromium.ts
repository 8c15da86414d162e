/**
 * Where the Chromium executable is, checked without loading Playwright: the composition root asks this when it
 * decides whether rendering (and the palette's background render, ADR 0023) is on, and admin commands must not pay
 * for loading playwright-core to know it.
 */
import { accessSync, constants } from 'node:fs';

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The Chromium executable to use: `configured` (BRANDBASE_CHROMIUM_PATH) when given, else the Debian path;
 * null when that file is not an executable, in which case the crawler works without rendering.
 */
export function findChromium(configured: string | null | undefined): string | null {
  const path = configured?.trim() || DEFAULT_CHROMIUM_PATH;
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return null;
  }
}
