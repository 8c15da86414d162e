/**
 * Streams the elements of the first JSON array found under a key (`"bindings": [ ... ]`, `"data": [ ... ]`)
 * without parsing the whole document: each element's text is cut out by tracking strings and nesting, then
 * JSON.parse'd alone. Memory is bounded by the largest element, whatever the file size (a Wikidata export can be
 * hundreds of MB). Only arrays of objects or arrays are supported (the formats we read have no scalar items).
 */
import type { Readable } from 'node:stream';

class ItemScanner {
  done = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private item = '';

  /** Feeds text from inside the array; returns the elements completed by it. */
  feed(text: string): unknown[] {
    const out: unknown[] = [];
    for (let j = 0; j < text.length && !this.done; j++) {
      const c = text[j] as string;
      if (this.depth === 0) {
        if (c === ']') this.done = true;
        else if (c === '{' || c === '[') {
          this.depth = 1;
          this.item = c;
        }
        continue;
      }
      this.item += c;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
      } else if (c === '"') this.inString = true;
      else if (c === '{' || c === '[') this.depth += 1;
      else if (c === '}' || c === ']') {
        this.depth -= 1;
        if (this.depth === 0) out.push(JSON.parse(this.item));
      }
    }
    return out;
  }
}

export async function* jsonArrayItems(input: Readable, key: string): AsyncGenerator<unknown> {
  const marker = `"${key}"`;
  let head = ''; // text before the array, kept short until the marker is found
  let scanner: ItemScanner | null = null;
  input.setEncoding('utf8');
  for await (const chunk of input as AsyncIterable<string>) {
    let text = chunk;
    if (scanner === null) {
      head += chunk;
      const at = head.indexOf(marker);
      const open = at < 0 ? -1 : head.indexOf('[', at + marker.length);
      if (open < 0) {
        if (at < 0) head = head.slice(-marker.length);
        continue;
      }
      scanner = new ItemScanner();
      text = head.slice(open + 1);
      head = '';
    }
    yield* scanner.feed(text);
    if (scanner.done) return;
  }
}
