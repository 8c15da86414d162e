/**
 * The `brandbase` program's commands. Only commander and the command registrations load at start: each action
 * imports what it runs (the store, the crawler, the server) when it runs, so `--version`, `--help` and admin
 * commands start in a fraction of a second (docs/performance.md, "CLI start"; ADR 0018).
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerAdminCommands } from './admin-commands.js';
import { registerBillingCommands } from './billing-commands.js';
import { registerBrandCommands } from './brand-commands.js';
import type { GlobalOptions } from './cli-runtime.js';
import { registerCrawlCommand } from './crawl-command.js';
import { registerFleetCommand } from './fleet-command.js';
import { registerPaymentCommands } from './payment-commands.js';
import { registerRefdataCommands } from './refdata-commands.js';
import { registerRefreshCommands } from './refresh-commands.js';
import { registerServeCommands } from './serve-commands.js';
import { registerWebhookCommands } from './webhook-commands.js';
import { registerClientIdCommands } from './client-id-commands.js';
import { registerUserCommands } from './user-commands.js';
import { registerGenerateCommands } from './generate-commands.js';
import { registerMerchantCommands } from './merchant-commands.js';

/** package.json is two levels up from src/cli/ and from the built program (dist/cli/ or dist/chunks/) alike. */
function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export function buildProgram(): Command {
  const program = new Command('brandbase')
    .description('Brandbase: self-hosted brand data service')
    .version(version(), '-V, --version', 'print the version')
    .option('--log-file <path>', 'append log lines to this file instead of the terminal')
    .showHelpAfterError()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  const globals = (): GlobalOptions => program.opts<GlobalOptions>();
  registerServeCommands(program, globals);
  registerFleetCommand(program, globals);
  registerAdminCommands(program);
  registerBillingCommands(program);
  registerCrawlCommand(program, globals);
  registerRefreshCommands(program);
  registerBrandCommands(program);
  registerRefdataCommands(program);
  registerPaymentCommands(program);
  registerWebhookCommands(program);
  registerClientIdCommands(program);
  registerUserCommands(program);
  registerGenerateCommands(program);
  registerMerchantCommands(program);
  return program;
}

