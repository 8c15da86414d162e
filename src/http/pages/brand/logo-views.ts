/**
 * The logos section of a brand page: the primary mark on the backdrop its theme is made for (spec 2.3: `dark` is
 * shown on a light background, `light` on a dark one), then every logo and icon on both backdrops with its files,
 * each with a download link and a copy-URL button (hidden until copy-url.js shows it; the URL stays visible).
 */
import type { Format, Logo } from '../../../domain/brand.js';
import { html, type Html } from '../html.js';

export type Backdrop = 'light' | 'dark';

/** The backdrop a logo is made for: a `light` logo on dark, everything else (dark or no theme) on light. */
export function rightBackdrop(logo: Logo): Backdrop {
  return logo.theme === 'light' ? 'dark' : 'light';
}

/** The record's main mark: the first wide logo, else symbol, else icon, else whatever comes first. */
export function primaryLogo(logos: readonly Logo[]): Logo | null {
  for (const type of ['logo', 'symbol', 'icon'] as const) {
    const found = logos.find((l) => l.type === type && l.formats.length > 0);
    if (found) return found;
  }
  return logos.find((l) => l.formats.length > 0) ?? null;
}

const FORMAT_PREFERENCE = ['svg', 'png', 'webp', 'jpeg'] as const;

/** The file shown: SVG when there is one (sharp at any size), else the largest raster of the preferred format. */
export function displayFormat(logo: Logo): Format | null {
  for (const format of FORMAT_PREFERENCE) {
    const files = logo.formats.filter((f) => f.format === format).sort((a, b) => (b.width ?? 0) - (a.width ?? 0));
    if (files[0]) return files[0];
  }
  return null;
}

function logoAlt(name: string, logo: Logo): string {
  const what = logo.type === 'logo' ? 'logo' : logo.type === 'icon' ? 'icon' : logo.type === 'symbol' ? 'symbol' : 'mark';
  return `${name} ${what}${logo.theme ? ` (${logo.theme} theme)` : ''}`;
}

export function primaryLogoView(name: string, logo: Logo | null): Html {
  const file = logo ? displayFormat(logo) : null;
  if (!logo || !file) return html`<p class="muted">No logo is held for this brand.</p>`;
  const backdrop = rightBackdrop(logo);
  return html`<div class="hero backdrop bd-${backdrop}" data-backdrop="${backdrop}"><img id="primary-logo" src="${file.src}" alt="${logoAlt(name, logo)}"${dims(file)}></div>`;
}

function dims(file: Format): Html {
  return file.width && file.height ? html` width="${file.width}" height="${file.height}"` : html``;
}

export function logosSection(name: string, logos: readonly Logo[]): Html {
  if (logos.length === 0) return html`<section aria-labelledby="logos"><h2 id="logos">Logos and icons</h2><p class="muted">None held.</p></section>`;
  return html`<section aria-labelledby="logos"><h2 id="logos">Logos and icons</h2>${logos.map((logo, i) => logoCard(name, logo, i))}</section>`;
}

function logoCard(name: string, logo: Logo, index: number): Html {
  const file = displayFormat(logo);
  const right = rightBackdrop(logo);
  const id = `logo-${index + 1}`;
  const theme = logo.theme ? `${logo.theme} theme: made for a ${right} background` : 'no theme';
  return html`<article class="logo-card" aria-labelledby="${id}"><h3 id="${id}">${capitalize(logo.type)} <span class="muted">(${theme})</span></h3>
${file ? backdrops(name, logo, file, right) : html`<p class="muted">No file.</p>`}
${logo.tags.length > 0 ? html`<p>Tags: ${logo.tags.join(', ')}</p>` : ''}
${formatsTable(logo.formats, id)}</article>`;
}

function backdrops(name: string, logo: Logo, file: Format, right: Backdrop): Html {
  const one = (b: Backdrop): Html =>
    html`<figure class="backdrop bd-${b}" data-backdrop="${b}"><img src="${file.src}" alt="${logoAlt(name, logo)} on a ${b} background" loading="lazy"${dims(file)}><figcaption>${b === right ? `On ${b}: the background it is made for` : `On ${b}`}</figcaption></figure>`;
  // The right backdrop first: it is how the brand means the mark to be seen.
  return html`<div class="backdrops">${one(right)}${one(right === 'light' ? 'dark' : 'light')}</div>`;
}

/** A list rather than a table: each file's facts, then its actions, wrap on a phone instead of scrolling sideways. */
function formatsTable(formats: readonly Format[], id: string): Html {
  return html`<ul class="files" aria-labelledby="${id}">${formats.map(
    (f) =>
      html`<li><strong>${f.format.toUpperCase()}</strong>${f.background === 'transparent' ? ' (transparent)' : ''} · ${f.width && f.height ? `${f.width} × ${f.height} px` : 'scalable'} · ${f.size.toLocaleString('en')} bytes<br>${fileActions(f.src, f.format)}</li>`,
  )}</ul>`;
}

/** Download link, the URL as selectable text, and a copy button that copy-url.js reveals. */
export function fileActions(src: string, label: string): Html {
  return html`<a class="button" href="${src}" download>Download ${label.toUpperCase()}</a> <button type="button" class="secondary copy" data-copy="${src}" hidden>Copy URL</button><br><code class="url">${src}</code>`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
