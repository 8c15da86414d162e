/**
 * The labelled real images of the image-kind eval: eval/images/labels.tsv names each file by Debian package and
 * path with its sha256; scripts/fetch-image-eval-set.ts puts the packages in a cache folder. Files whose bytes
 * differ from the labels (a newer package) are left out and counted.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { imageFeatures, type ImageFeatures } from '../../src/media/image-features.js';
import { classificationRaster } from '../../src/media/classification-raster.js';

/** The package versions the labels were made from (Debian 12). */
export const LABELLED_PACKAGES: Record<string, string> = {
  'gimp-help-en': '2.10.34-2',
  'gnome-backgrounds': '43.1-1',
  'mate-backgrounds': '1.26.0-1',
  'ukui-wallpapers': '20.04.3-1.1',
  'desktop-base': '12.0.6+nmu1~deb12u1',
  'mypaint-data-extras': '2.0.1-9',
  'gnome-user-docs': '43.0-2',
  'lomiri-wallpapers': '20.04.0-2',
  'opencv-doc': '4.6.0+dfsg-12',
  'python3-skimage': '0.19.3-8',
  'python3-sklearn': '1.2.1+dfsg-1',
  'plasma-workspace-wallpapers': '4:5.27.5-2',
  'lomiri-wallpapers-16.04': '20.04.0-2',
  'lomiri-wallpapers-20.04': '20.04.0-2',
  'openclipart-png': '1:0.18+dfsg-19',
};

export const IMAGE_LABELS = ['photographic', 'portrait', 'illustration', 'screenshot', 'pattern', 'text', 'none'] as const;
export type ImageLabel = (typeof IMAGE_LABELS)[number];

export interface LabelledImage {
  pkg: string;
  path: string;
  sha256: string;
  label: ImageLabel;
}

export interface FeaturedImage extends LabelledImage {
  features: ImageFeatures;
}

export function imageSetDir(arg?: string): string {
  return arg ?? process.env['BRANDBASE_IMAGE_EVAL_DIR'] ?? join(homedir(), '.cache', 'brandbase', 'image-eval');
}

export function readImageLabels(): LabelledImage[] {
  const text = readFileSync(new URL('./labels.tsv', import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#') && !line.startsWith('package\t'))
    .map((line) => {
      const [pkg = '', path = '', sha256 = '', label = ''] = line.split('\t');
      if (!(IMAGE_LABELS as readonly string[]).includes(label)) throw new Error(`labels.tsv: unknown label ${label}`);
      return { pkg, path, sha256, label: label as ImageLabel };
    });
}

export interface LoadedSet {
  images: FeaturedImage[];
  /** Labelled files not found in the cache or whose bytes differ from the labels. */
  missing: number;
  changed: number;
  /** Files the crawl would refuse before classifying them (over the decoder's pixel limit). */
  refused: number;
}

/** Features of every labelled file present in the cache (null when the set was never fetched). */
export async function loadImageSet(dir: string = imageSetDir()): Promise<LoadedSet | null> {
  if (!existsSync(join(dir, 'x'))) return null;
  const out: LoadedSet = { images: [], missing: 0, changed: 0, refused: 0 };
  for (const item of readImageLabels()) {
    const file = join(dir, 'x', item.pkg, item.path);
    if (!existsSync(file)) {
      out.missing++;
      continue;
    }
    const bytes = readFileSync(file);
    if (createHash('sha256').update(bytes).digest('hex') !== item.sha256) {
      out.changed++;
      continue;
    }
    try {
      out.images.push({ ...item, features: imageFeatures(await classificationRaster(bytes)) });
    } catch {
      out.refused++;
    }
  }
  return out;
}
