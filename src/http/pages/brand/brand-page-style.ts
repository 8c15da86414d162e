/** CSS of the brand pages (a constant of ours; the layout's base style is in html.ts). Backdrops are fixed colors. */
export const BRAND_PAGE_BACKDROPS = { light: '#ffffff', dark: '#18181b' } as const;

export const BRAND_PAGE_STYLE = [
  `.backdrop{border:1px solid var(--line);border-radius:6px;padding:1rem;margin:0;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:.5rem}`,
  `.bd-light{background:${BRAND_PAGE_BACKDROPS.light};color:#1d1d1f}.bd-dark{background:${BRAND_PAGE_BACKDROPS.dark};color:#f4f4f5}`,
  '.hero{min-height:8rem;margin:0 0 1rem}.hero img{max-height:10rem;width:auto}',
  '.backdrops{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:.75rem}.backdrop img{max-height:6rem;width:auto}',
  '.logo-card{border-top:1px solid var(--line);padding-top:.5rem;margin-top:1rem}h3{font-size:1.05rem;margin:.5rem 0}',
  '.swatch{display:inline-block;width:1.25rem;height:1.25rem;border:1px solid #71717a;border-radius:3px;vertical-align:middle;margin-right:.4rem}',
  '.images{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.75rem}.images figure{margin:0}.images img{display:block;max-height:12rem;width:auto}',
  'dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dl.facts dt{font-weight:600}dl.facts dd{margin:0}',
  'form.search .row{display:flex;flex-wrap:wrap;gap:.5rem}form.search input{flex:1 1 12rem}',
  'ul.results{list-style:none;padding:0}ul.results li{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;padding:.35rem 0;border-bottom:1px solid var(--line)}',
  '.noicon{display:inline-block;width:32px;height:32px;background:var(--soft);border-radius:4px}',
  // The layout styles buttons inline-block, which would override `hidden` (copy buttons wait for copy-url.js).
  'button[hidden]{display:none}code.url{font-size:.85rem}ul.files{list-style:none;padding:0;margin:.5rem 0}ul.files li{padding:.4rem 0;border-bottom:1px solid var(--line)}ul.files .button,ul.files button{margin:.3rem .3rem .3rem 0}.copy.small{padding:.1rem .4rem;font-size:.85rem}.lead{font-size:1.05rem}',
].join('');
