import { describe, expect, it } from 'vitest';
import { MAX_OTHER_LOGOS, mergeRecrawledLogos } from '../../src/crawl/fields/logos/logo-history.js';
import type { Logo } from '../../src/domain/brand.js';

const logo = (src: string, type: Logo['type'], tags: string[] = []): Logo => ({
  theme: 'dark',
  tags,
  type,
  formats: [{ src, format: 'svg', width: 100, height: 20, size: 10, background: 'transparent' }],
});

describe('mergeRecrawledLogos (spec 2.3 re-crawl rule)', () => {
  it('a logo or icon no longer chosen keeps its tags and is listed as other', () => {
    const merged = mergeRecrawledLogos([logo('old.svg', 'logo', ['wordmark']), logo('icon.png', 'icon')], [logo('new.svg', 'logo'), logo('icon.png', 'icon')]);
    expect(merged.map((l) => [l.formats[0]?.src, l.type, l.tags])).toEqual([
      ['new.svg', 'logo', []],
      ['icon.png', 'icon', []],
      ['old.svg', 'other', ['wordmark']],
    ]);
  });

  it('a file still listed is not duplicated, and the history is bounded', () => {
    const previous = Array.from({ length: 8 }, (_, i) => logo(`v${i}.svg`, i === 0 ? 'logo' : 'other'));
    const merged = mergeRecrawledLogos(previous, [logo('v0.svg', 'logo')]);
    expect(merged.filter((l) => l.type === 'other')).toHaveLength(MAX_OTHER_LOGOS);
    expect(merged.filter((l) => l.formats[0]?.src.endsWith('v0.svg'))).toHaveLength(1);
  });

  it('a file listed again keeps the renditions the previous record made for it; a new file gets none yet', () => {
    const rendered: Logo = {
      ...logo('same.svg', 'logo'),
      formats: [...logo('same.svg', 'logo').formats, { src: 'same.png', format: 'png', width: 512, height: 102, size: 900, background: 'transparent' }],
    };
    const merged = mergeRecrawledLogos([rendered], [logo('same.svg', 'logo', ['wordmark']), logo('new.png', 'icon')]);
    expect(merged.map((l) => [l.type, l.tags, l.formats.map((f) => f.src)])).toEqual([
      ['logo', ['wordmark'], ['same.svg', 'same.png']],
      ['icon', [], ['new.png']],
    ]);
  });
});
