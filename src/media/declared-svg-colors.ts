const COLOR_PROPERTIES = 'fill|stroke|stop-color|flood-color|lighting-color|color';
const AS_ATTRIBUTE = new RegExp(`\\s(?:${COLOR_PROPERTIES})\\s*=\\s*(["'])([^"']*)\\1`, 'gi');
const AS_CSS = new RegExp(`(?:^|[\\s;{"'])(?:${COLOR_PROPERTIES})\\s*:\\s*([^;}"'!]+)`, 'gi');

/**
 * Colour values an SVG declares for painting (attributes, style attributes and style elements), e.g.
 * `#635bff`, `rgb(…)`, `red`. Raw strings: non-colours such as `none` or `url(#g)` are left for the caller's
 * colour parser to reject.
 */
export function declaredSvgColors(svg: string): string[] {
  const values = new Set<string>();
  for (const match of svg.matchAll(AS_ATTRIBUTE)) values.add((match[2] ?? '').trim());
  for (const match of svg.matchAll(AS_CSS)) values.add((match[1] ?? '').trim());
  values.delete('');
  return [...values];
}
