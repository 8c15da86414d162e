/**
 * The `default` fallback: a neutral placeholder (a picture outline on light grey), the same for every brand, so a
 * page never shows a broken-image icon and never shows a wrong brand's colours.
 */
export function placeholderSvg(width: number, height: number): string {
  const side = Math.min(width, height);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" fill="#e5e7eb"/>` +
    `<svg x="${(width - side) / 2}" y="${(height - side) / 2}" width="${side}" height="${side}" viewBox="0 0 100 100">` +
    '<circle cx="36" cy="38" r="8" fill="#9ca3af"/><path d="M18 74 40 50l12 13 10-9 20 20z" fill="#9ca3af"/></svg></svg>'
  );
}

/** The `transparent` fallback as SVG (`.svg` answers): an empty document of the size. */
export function transparentSvg(width: number, height: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"/>`;
}
