import { describe } from 'vitest';
import { logoCdnSuite } from './logo-cdn.suite.js';

describe('logo CDN on SQLite', () => {
  logoCdnSuite(async () => ({ env: {}, cleanup: async () => undefined }));
});
