/**
 * The folder-level cycle check of `npm run depcheck`: reads `depcruise --output-type json` on stdin, collapses every
 * module to its top-level folder under src/ (src/crawl/fetch/x.ts → crawl) and fails on any cycle between folders.
 * The file-level `no-circular` rule misses these: crawl/a.ts → context/b.ts → crawl/c.ts is no file cycle, but it
 * ties the two folders together all the same.
 */
const input = await new Promise((resolve, reject) => {
  let text = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => (text += chunk));
  process.stdin.on('end', () => resolve(text));
  process.stdin.on('error', reject);
});

const folderOf = (path) => /^src\/([^/]+)\//.exec(path)?.[1];

/** folder → folder → one file-level import that makes the edge (for the message). */
const edges = new Map();
for (const module of JSON.parse(input).modules) {
  const from = folderOf(module.source);
  if (from === undefined) continue;
  for (const dependency of module.dependencies) {
    const to = folderOf(dependency.resolved);
    if (to === undefined || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${module.source} → ${dependency.resolved}`);
  }
}

/** Strongly connected components (Tarjan): every component of more than one folder is a cycle. */
function components(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    found.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const cycles = components(edges).filter((component) => component.length > 1);
if (cycles.length === 0) {
  console.log(`✔ no folder cycles (${edges.size} folders under src/)`);
} else {
  for (const cycle of cycles) {
    console.error(`✘ folder cycle: ${cycle.sort().join(' ↔ ')}`);
    for (const from of cycle) {
      for (const [to, example] of edges.get(from) ?? []) if (cycle.includes(to)) console.error(`    ${from} → ${to} (${example})`);
    }
  }
  process.exitCode = 1;
}
