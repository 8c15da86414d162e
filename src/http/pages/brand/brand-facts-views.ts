/** The brand page's other sections: colors with WCAG contrast, fonts, images, company facts, industries, palette, links. */
import type { Brand, Color, Company, Font, Image } from '../../../domain/brand.js';
import type { Palette } from '../../../domain/palette.js';
import { roundedContrast, wcagLevel } from '../../../domain/wcag.js';
import { html, type Html } from '../html.js';

function section(id: string, title: string, body: Html): Html {
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${body}</section>`;
}

function none(): Html {
  return html`<p class="muted">None held.</p>`;
}

/** A color swatch is decoration: the HEX next to it is the information (and what a screen reader reads). */
function swatch(hex: string): Html {
  return html`<span class="swatch" style="background:${safeHex(hex)}" aria-hidden="true"></span>`;
}

/** Only `#rrggbb` reaches a style attribute (the record's colors are that shape; anything else is dropped). */
function safeHex(hex: string): string {
  return /^#[0-9a-f]{6}$/i.test(hex) ? hex : 'transparent';
}

function contrastCell(hex: string, against: string): Html {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return html`<td>n/a</td>`;
  const ratio = roundedContrast(hex, against);
  return html`<td>${ratio.toFixed(2)}:1 <span class="muted">${wcagLevel(ratio)}</span></td>`;
}

export function colorsSection(colors: readonly Color[]): Html {
  if (colors.length === 0) return section('colors', 'Colors', none());
  return section(
    'colors',
    'Colors',
    html`<table><thead><tr><th scope="col">Color</th><th scope="col">Type</th><th scope="col">Contrast on white</th><th scope="col">Contrast on black</th></tr></thead><tbody>${colors.map(
      (c) => html`<tr><td>${swatch(c.hex)}<code>${c.hex.toUpperCase()}</code> ${copyButton(c.hex)}</td><td>${c.type}</td>${contrastCell(c.hex, '#ffffff')}${contrastCell(c.hex, '#000000')}</tr>`,
    )}</tbody></table>`,
  );
}

function copyButton(text: string): Html {
  return html`<button type="button" class="secondary copy small" data-copy="${text}" hidden>Copy</button>`;
}

export function fontsSection(fonts: readonly Font[]): Html {
  if (fonts.length === 0) return section('fonts', 'Fonts', none());
  return section(
    'fonts',
    'Fonts',
    html`<table><thead><tr><th scope="col">Font</th><th scope="col">Used for</th><th scope="col">Origin</th><th scope="col">Weights</th></tr></thead><tbody>${fonts.map(
      (f) => html`<tr><td>${f.name ?? 'unnamed'}</td><td>${f.type}</td><td>${f.origin}</td><td>${f.weights.map((w) => `${w.weight}${w.style === 'italic' ? ' italic' : ''}`).join(', ') || 'n/a'}</td></tr>`,
    )}</tbody></table>`,
  );
}

export function imagesSection(name: string, images: readonly Image[]): Html {
  const shown = images.filter((i) => i.formats[0]);
  if (shown.length === 0) return section('images', 'Images', none());
  return section('images', 'Images', html`<div class="images">${shown.map((image) => imageFigure(name, image))}</div>`);
}

function imageFigure(name: string, image: Image): Html {
  const file = [...image.formats].sort((a, b) => (b.width ?? 0) - (a.width ?? 0))[0];
  if (!file) return html``;
  const alt = image.pictureMetadata?.alt || `${name} ${image.type} image`;
  const size = file.width && file.height ? `${file.width} × ${file.height} px` : '';
  return html`<figure><img src="${file.src}" alt="${alt}" loading="lazy"${file.width && file.height ? html` width="${file.width}" height="${file.height}"` : ''}><figcaption>${image.type}, ${file.format.toUpperCase()} ${size} <a href="${file.src}" download>Download</a></figcaption></figure>`;
}

export function companySection(company: Company): Html {
  const loc = company.location;
  const place = [loc.city, loc.state ?? loc.region, loc.country].filter((p): p is string => !!p).join(', ');
  const facts: [string, string | null][] = [
    ['Kind', company.kind ? company.kind.toLowerCase().replace(/_/g, ' ') : null],
    ['Employees', company.employees === null ? null : company.employees.toLocaleString('en')],
    ['Founded', company.foundedYear === null ? null : String(company.foundedYear)],
    ['Location', place || null],
    ['Tickers', company.financialIdentifiers?.ticker.join(', ') || null],
    ['ISINs', company.financialIdentifiers?.isin.join(', ') || null],
  ];
  const known = facts.filter((f): f is [string, string] => f[1] !== null);
  return section('company', 'Company', known.length === 0 ? none() : html`<dl class="facts">${known.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`);
}

export function industriesSection(company: Company): Html {
  if (company.industries.length === 0) return section('industries', 'Industries', none());
  return section(
    'industries',
    'Industries',
    html`<ul>${company.industries.map(
      (i) => html`<li><span aria-hidden="true">${i.emoji}</span> ${i.name}${i.parent?.length ? html` <span class="muted">in ${i.parent.map((p) => p.name).join(', ')}</span>` : ''} <span class="muted">(score ${i.score.toFixed(2)})</span></li>`,
    )}</ul>`,
  );
}

/** The palette as stored (spec 2.8 builds it on an API request; a page view never builds one). */
export function paletteSection(palette: Palette | null): Html {
  if (!palette) return section('palette', 'Palette', html`<p class="muted">No palette built yet: the API builds it on the first request with <code>palette=true</code>.</p>`);
  return section(
    'palette',
    'Palette',
    html`<table><thead><tr><th scope="col">Color</th><th scope="col">Name</th><th scope="col">Role</th><th scope="col">Text on it</th></tr></thead><tbody>${palette.colors.map(
      (c) => html`<tr><td>${swatch(c.hex)}<code>${c.hex.toUpperCase()}</code></td><td>${c.name ?? ''}</td><td>${c.role}</td><td>${c.legibleText.toUpperCase()} at ${c.legibleTextContrast.toFixed(2)}:1</td></tr>`,
    )}</tbody></table>`,
  );
}

export function linksSection(brand: Brand): Html {
  // Site-provided URLs: only http(s) ones become links (never `javascript:`).
  const links = brand.links.filter((l) => /^https?:\/\//i.test(l.url));
  if (links.length === 0) return section('links', 'Links', none());
  return section('links', 'Links', html`<ul>${links.map((l) => html`<li>${l.name}: <a href="${l.url}" rel="nofollow noopener">${l.url}</a></li>`)}</ul>`);
}
