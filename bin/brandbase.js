#!/usr/bin/env node
// The brandbase command. TypeScript sources run through tsx's loader, so a checkout works right after `npm ci`
// with no build step (docs/adr/0002-run-typescript-with-tsx.md).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
