/**
 * SVG logos that cost a renderer far more than their bytes (issue 33): what a hostile site can store as its logo
 * once it passes the sanitizer. Measured with sharp (librsvg) on a 2-core machine: the filter one draws for more than
 * 100 s at 1000 px, and sharp's own timeout does not stop it (measured
 * with named results; the unnamed chain below draws as long).
 */

/**
 * 40 chained feTurbulence (10 octaves) + large feGaussianBlur, applied to 20 full-canvas rectangles. The results are
 * not named, so the renderer keeps two buffers alive, not eighty: the render is CPU-bound at a steady ~100 MB (named
 * results grow ~6 MB/s until a memory limit kills the render), so a test can hold it in flight as long as it likes.
 */
export function filterBombSvg(side = 1000): string {
  let filters = '';
  for (let i = 0; i < 40; i++) {
    filters += `<feTurbulence type="fractalNoise" baseFrequency="0.0${(i % 9) + 1}" numOctaves="10"/>`;
    filters += `<feGaussianBlur stdDeviation="${50 + i}"/>`;
  }
  const rects = Array.from({ length: 20 }, (_, i) => `<rect x="${i}" y="0" width="${side}" height="${side}" filter="url(#f)"/>`).join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}">` +
    `<defs><filter id="f" x="-50%" y="-50%" width="200%" height="200%">${filters}</filter></defs>${rects}</svg>`
  );
}

/** A plain logo: one rectangle of `fill` (drawn in well under a millisecond). */
export function plainSvg(width = 200, height = 100, fill = '#1e40af'): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="${fill}"/></svg>`;
}

/** A canvas whose pixels alone take `side`² × 4 bytes (resvg allocates them at the declared size). */
export function hugeCanvasSvg(side = 16_000): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}"><rect width="${side}" height="${side}" fill="#123456"/></svg>`;
}
