/**
 * Where a link written in a docs/*.md file leads once the page is served. The Markdown files link each other the
 * way a repository browser expects (`billing.md#payments`, `adr/0014-crawls-in-worker-processes.md`,
 * `docs/errors.md`); served, they must lead to `/docs/billing#payments`. A link to something the service does not
 * serve (`../src/...`, `../shared/...`) has nowhere to lead and is shown as the repository path instead.
 */

export type DocLink = { kind: 'href'; href: string } | { kind: 'repository-path'; path: string };

/** The served URL path of a page, from its path under docs/ (`adr/0011-asset-keys-in-records.md`). */
export function pageUrlPath(basePath: string, file: string): string {
  return `${basePath}/docs/${file.replace(/\.md$/, '')}`;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// Only used to resolve relative paths with URL semantics; never fetched or shown.
const REPO = 'http://repository.invalid';

/** The repository path a relative link points to, as seen from `from` (a file under docs/). */
function repositoryPath(href: string, from: string): { path: string; hash: string } {
  // `docs/errors.md` is how the README and code comments name a page: from the repository root.
  const base = href.startsWith('docs/') ? `${REPO}/` : `${REPO}/docs/${from}`;
  const url = new URL(href, base);
  return { path: decodeURIComponent(url.pathname).slice(1), hash: url.hash };
}

/**
 * `href` as written in `from` (a path under docs/, e.g. `errors.md`), rewritten for the served pages.
 * `pages` holds every served page's path under docs/. `basePath` is the path of the public URL (usually empty).
 */
export function resolveDocLink(href: string, from: string, pages: ReadonlySet<string>, basePath: string): DocLink {
  // External links and in-page anchors stay as they are.
  if (SCHEME.test(href) || href.startsWith('//') || href.startsWith('#')) return { kind: 'href', href };
  // An absolute path names a URL of the service itself (`/v2/agents/access`, `/openapi.json`).
  if (href.startsWith('/')) return { kind: 'href', href: `${basePath}${href}` };
  const { path, hash } = repositoryPath(href, from);
  if (path === 'docs' || path === 'docs/') return { kind: 'href', href: `${basePath}/docs${hash}` };
  if (!path.startsWith('docs/')) return { kind: 'repository-path', path };
  const file = path.slice('docs/'.length);
  if (file === 'adr' || file === 'adr/') return { kind: 'href', href: `${basePath}/docs/adr${hash}` };
  if (pages.has(file)) return { kind: 'href', href: `${pageUrlPath(basePath, file)}${hash}` };
  // The screenshots the browser tests make (docs/dashboard.md) are served next to the pages.
  if (/^screenshots\/[a-z0-9][a-z0-9-]*\.png$/.test(file)) return { kind: 'href', href: `${basePath}/docs/${file}` };
  return { kind: 'repository-path', path };
}
