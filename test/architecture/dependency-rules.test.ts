/**
 * The dependency rules (.dependency-cruiser.cjs) name only paths that exist: a rule that allows or forbids a file no
 * longer there (a `store/types.ts` once) proves nothing and hides the rule the layout needs instead.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface RuleEnd {
  path?: string | string[];
  pathNot?: string | string[];
}
interface Rule {
  name: string;
  from: RuleEnd;
  to: RuleEnd;
}

const rules = (createRequire(import.meta.url)(path.join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: Rule[] }).forbidden;

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** `^src/(a|b/(c|d))/` → `^src/a/`, `^src/b/c/`, `^src/b/d/`: one pattern per path a rule names. */
function alternatives(pattern: string): string[] {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '(') {
      if (depth++ === 0) open = i;
    } else if (c === ')' && --depth === 0) {
      const inner = pattern.slice(open + 1, i);
      const parts: string[] = [];
      let level = 0;
      let start = 0;
      for (let j = 0; j < inner.length; j++) {
        if (inner[j] === '\\') j++;
        else if (inner[j] === '(') level++;
        else if (inner[j] === ')') level--;
        else if (inner[j] === '|' && level === 0) {
          parts.push(inner.slice(start, j));
          start = j + 1;
        }
      }
      parts.push(inner.slice(start));
      const before = pattern.slice(0, open);
      return parts.flatMap((part) => alternatives(before + part + pattern.slice(i + 1)));
    }
  }
  return [pattern];
}

/** Every `^src/…` pattern of every rule, split into its alternatives (back-references like `$1` are not paths). */
function namedPaths(): { rule: string; pattern: string }[] {
  const out: { rule: string; pattern: string }[] = [];
  for (const rule of rules) {
    for (const end of [rule.from, rule.to]) {
      for (const value of [end.path, end.pathNot].flat()) {
        if (typeof value !== 'string' || !value.startsWith('^src/')) continue;
        for (const pattern of alternatives(value)) if (!pattern.includes('$1')) out.push({ rule: rule.name, pattern });
      }
    }
  }
  return out;
}

describe('.dependency-cruiser.cjs', () => {
  const files = filesUnder('src');

  it('names only paths that exist: every path pattern matches a file under src/', () => {
    const named = namedPaths();
    expect(named.length).toBeGreaterThan(20);
    const missing = named.filter(({ pattern }) => !files.some((file) => new RegExp(pattern).test(file)));
    expect(missing).toEqual([]);
  });

  it('would notice a rule naming a file that is gone', () => {
    const gone = alternatives('^src/(brands/brand-store\\.ts|store/store\\.ts)$');
    expect(gone).toEqual(['^src/brands/brand-store\\.ts$', '^src/store/store\\.ts$']);
    expect(gone.filter((pattern) => !files.some((file) => new RegExp(pattern).test(file)))).toEqual(['^src/store/store\\.ts$']);
  });
});
