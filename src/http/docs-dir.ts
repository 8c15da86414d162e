import { fileURLToPath } from 'node:url';

/**
 * The docs/ folder of the installation: the pages the service serves are the project's own Markdown files. This
 * file sits two levels below the root, as every module does once bundled into dist/ (ADR 0018), so the same
 * relative path holds when run from the sources and from the build.
 */
export const DOCS_DIR = fileURLToPath(new URL('../../docs/', import.meta.url));
