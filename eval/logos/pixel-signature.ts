/**
 * Which served file a stored asset came from, judged by pixels: both are drawn into a 32×32 box on mid-grey
 * (aspect kept) and compared by mean absolute channel difference. Survives what the crawler legitimately
 * does to a file (SVG sanitizing, ICO → PNG, sprite crop, re-encoding) and tells different marks apart.
 */
import sharp from 'sharp';

const SIDE = 32;
/** Mean channel difference (0–255) under which two drawings are the same file. */
export const SAME_FILE_DISTANCE = 14;

export async function pixelSignature(bytes: Buffer | string): Promise<Uint8Array | null> {
  try {
    const input = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    const { data } = await sharp(input, { density: 96 })
      .resize(SIDE, SIDE, { fit: 'contain', background: { r: 128, g: 128, b: 128, alpha: 0 } })
      .flatten({ background: '#808080' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return new Uint8Array(data);
  } catch {
    return null;
  }
}

export function signatureDistance(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / Math.max(1, a.length);
}

/** The registry id whose drawing is nearest to `signature`, or null when none is close enough. */
export function identify(signature: Uint8Array | null, registry: Map<string, Uint8Array>): string | null {
  if (!signature) return null;
  let best: { id: string; distance: number } | null = null;
  for (const [id, candidate] of registry) {
    const distance = signatureDistance(signature, candidate);
    if (!best || distance < best.distance) best = { id, distance };
  }
  return best && best.distance <= SAME_FILE_DISTANCE ? best.id : null;
}
