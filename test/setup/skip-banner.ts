/** A block of lines framed so that it stands out in a long test log (stderr, so it survives quiet reporters). */
export function skipBanner(lines: string[]): string {
  const rule = '!'.repeat(100);
  return `\n${rule}\n${lines.map((line) => `!!! ${line}`).join('\n')}\n${rule}\n\n`;
}
