import sharp from 'sharp';
import { siGithub } from 'simple-icons';
import { describe, expect, it } from 'vitest';
import { sanitizeSvg, svgDimensions, svgFittedTo } from '../../src/media/svg.js';

const NS = 'xmlns="http://www.w3.org/2000/svg"';

describe('svgDimensions', () => {
  it.each([
    ['px and unitless sides', `<svg ${NS} width="120px" height="40"/>`, 120, 40],
    ['percentages fall back to the viewBox', `<svg ${NS} width="100%" height="100%" viewBox="0 0 300 150"/>`, 300, 150],
    ['viewBox only, comma separated', `<svg ${NS} viewBox="0,0,64.4,31.6"/>`, 64, 32],
    ['absolute units convert to px', `<svg ${NS} width="2in" height="72pt"/>`, 192, 96],
    ['mm and cm', `<svg ${NS} width="25.4mm" height="2.54cm"/>`, 96, 96],
    ['width only derives height from the viewBox', `<svg ${NS} width="200" viewBox="0 0 100 25"/>`, 200, 50],
    ['height only derives width from the viewBox', `<svg ${NS} height="10mm" viewBox="0 0 20 10"/>`, 76, 38],
    ['em is unusable, viewBox wins', `<svg ${NS} width="10em" height="2em" viewBox="0 0 50 10"/>`, 50, 10],
  ])('%s', (_name, svg, width, height) => {
    expect(svgDimensions(svg)).toEqual({ width, height });
  });

  it('is null when nothing usable is declared', () => {
    expect(svgDimensions(`<svg ${NS}><rect width="5" height="5"/></svg>`)).toEqual({ width: null, height: null });
    expect(svgDimensions(`<svg ${NS} width="100%" viewBox="0 0 0 10"/>`)).toEqual({ width: null, height: null });
  });

  it('keeps a lone absolute side when there is no viewBox', () => {
    expect(svgDimensions(`<svg ${NS} width="48"/>`)).toEqual({ width: 48, height: null });
  });

  it('reads a real simple-icons file (viewBox 0 0 24 24)', () => {
    expect(svgDimensions(siGithub.svg)).toEqual({ width: 24, height: 24 });
  });

  it('is null for documents that are not SVG', () => {
    expect(svgDimensions('<html><body><svg width="10" height="10"/></body></html>')).toEqual({ width: null, height: null });
  });
});

describe('sanitizeSvg', () => {
  const hostile = `<?xml version="1.0"?>
<?xml-stylesheet type="text/css" href="https://evil.test/x.css"?>
<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64" onload="alert(1)">
  <script>alert('x')</script>
  <SCRIPT type="text/ecmascript">alert(2)</SCRIPT>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>
  <style>@import url(https://evil.test/a.css); .a { fill: url(https://evil.test/p.svg#x); stroke: url(#grad) }</style>
  <linearGradient id="grad"><stop offset="0" stop-color="#123456"/></linearGradient>
  <a href="javascript:alert(3)"><rect width="10" height="10" onclick="alert(4)"/></a>
  <use xlink:href="https://evil.test/sprite.svg#icon"/>
  <use href="#grad"/>
  <image href="data:image/png;base64,iVBORw0KGgo="/>
  <image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="/>
  <rect style="fill: url('https://evil.test/bg.png'); stroke:#000" fill="url(#grad)" width="5" height="5"/>
  <set attributeName="href" to="javascript:alert(5)"/>
</svg>`;

  it('removes scripts, handlers, foreign content and external references', () => {
    const clean = sanitizeSvg(hostile) ?? '';
    expect(clean.toLowerCase()).not.toContain('script');
    expect(clean).not.toContain('alert');
    expect(clean).not.toContain('foreignObject');
    expect(clean).not.toContain('evil.test');
    expect(clean).not.toContain('xml-stylesheet');
    expect(clean).not.toContain('@import');
    expect(clean).not.toContain('svg+xml');
    expect(clean).not.toMatch(/\son[a-z]+=/i);
  });

  it('keeps local references and inline raster data', () => {
    const clean = sanitizeSvg(hostile) ?? '';
    expect(clean).toContain('url(#grad)');
    expect(clean).toContain('href="#grad"');
    expect(clean).toContain('data:image/png;base64,iVBORw0KGgo=');
    expect(clean).toContain('stop-color="#123456"');
  });

  it('drops entity declarations without expanding them (billion laughs)', () => {
    const lol = `<?xml version="1.0"?>
<!DOCTYPE svg [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
 <!ENTITY xxe SYSTEM "file:///etc/passwd">
]>
<svg ${NS} width="32" height="32"><text>&lol9;&xxe;</text><title>a &amp; b</title></svg>`;
    const clean = sanitizeSvg(lol) ?? '';
    expect(clean.length).toBeLessThan(200);
    expect(clean).not.toContain('lol');
    expect(clean).not.toContain('ENTITY');
    expect(clean).not.toContain('passwd');
    expect(clean).toContain('a &amp; b');
  });

  it('repairs Illustrator entity namespaces so the result still renders', async () => {
    const ai = `<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 16.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
  <!ENTITY ns_ai "http://ns.adobe.com/AdobeIllustrator/10.0/">
  <!ENTITY ns_svg "http://www.w3.org/2000/svg">
  <!ENTITY ns_xlink "http://www.w3.org/1999/xlink">
]>
<svg xmlns:i="&ns_ai;" xmlns="&ns_svg;" xmlns:xlink="&ns_xlink;" width="40px" height="20px" viewBox="0 0 40 20">
<g i:extraneous="self"><rect fill="#FF0000" width="40" height="20"/></g>
<i:pgf id="adobe_illustrator_pgf"><![CDATA[ eJzs ]]></i:pgf>
</svg>`;
    const clean = sanitizeSvg(ai) ?? '';
    expect(clean).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(clean).not.toContain('i:pgf');
    const { data, info } = await sharp(Buffer.from(clean)).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([40, 20]);
    expect([...data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
  });

  it('refuses absurdly deep or large documents before parsing them', () => {
    // No clock here: parsing a million nested elements is quadratic (200k levels take about a minute), so a
    // sanitizer that parsed before refusing would run for hours and fail on the test's timeout, however fast the
    // machine; refusing first takes milliseconds, however slow it is.
    const depth = 1_000_000;
    const deep = `<svg ${NS}>${'<g>'.repeat(depth)}${'</g>'.repeat(depth)}</svg>`;
    expect(sanitizeSvg(deep)).toBeNull();
    // Bogus close tags and comments must not hide the nesting from the pre-parse scan.
    expect(sanitizeSvg(`<svg ${NS}>${'<g a=x"></zz><!-- </g> -->'.repeat(1000)}</svg>`)).toBeNull();
    expect(sanitizeSvg(`<svg ${NS}>${'<rect/>'.repeat(60_000)}</svg>`)).toBeNull();
    expect(sanitizeSvg(`<svg ${NS}>${'<g>'.repeat(50)}<rect/>${'</g>'.repeat(50)}</svg>`)).toContain('<rect/>');
  });

  it('does not let CSS escapes or image-set smuggle in external images', () => {
    const css = `<svg ${NS}><style>.a{background:\\75 rl(https://evil.test/a.png)} .b{background:image-set("https://evil.test/b.png" 1x)}</style></svg>`;
    expect(sanitizeSvg(css)).not.toContain('evil.test');
    const quoting = `<svg ${NS}><rect style="fill:url('https://evil.test/a)b.png')" filter="url( &quot;https://evil.test/c&quot;"/></svg>`;
    const clean = sanitizeSvg(quoting) ?? '';
    expect(clean).not.toMatch(/url\(\s*['"&]*\s*https/i);
    expect(clean).not.toContain('evil.test/a');
  });

  it('rejects documents whose root is not <svg>', () => {
    expect(sanitizeSvg('<!doctype html><html><svg/></html>')).toBeNull();
    expect(sanitizeSvg('just text')).toBeNull();
  });

  it('leaves a real simple-icons SVG renderable', async () => {
    const clean = sanitizeSvg(siGithub.svg) ?? '';
    expect(clean).toContain('<path');
    const meta = await sharp(Buffer.from(clean)).metadata();
    expect([meta.width, meta.height]).toEqual([24, 24]);
  });
});

describe('svgFittedTo', () => {
  it('scales a huge declared size down to the box without a pixel blow-up', async () => {
    const huge = `<svg ${NS} width="100000" height="50000"><rect width="100000" height="50000" fill="#00f"/></svg>`;
    const fitted = svgFittedTo(huge, 128) ?? '';
    const meta = await sharp(Buffer.from(fitted), { limitInputPixels: 40_000_000 }).metadata();
    expect([meta.width, meta.height]).toEqual([128, 64]);
  });
});
