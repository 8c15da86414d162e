import { Command } from 'commander';
import { loadConfig, ConfigError } from '../config/config.js';
import { createLogger } from '../platform/logger.js';
import { AccountError } from '../billing/accounts.js';
import { registerAdminCommands } from './admin-commands.js';
import { registerBillingCommands } from './billing-commands.js';
import { registerBrandCommands } from './brand-commands.js';
import { registerServeCommands } from './serve-commands.js';

function buildProgram(): Command {
  const program = new Command('brandbase')
    .description('Brandbase: self-hosted brand data service')
    .showHelpAfterError()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  const config = () => loadConfig();
  // Admin commands log warnings only, to stderr, so `--json` output on stdout stays one JSON object.
  const quietLogger = () => createLogger({ level: 'warn', destination: process.stderr });
  registerServeCommands(program, config);
  registerAdminCommands(program, config, quietLogger);
  registerBillingCommands(program, config, quietLogger);
  registerBrandCommands(program, config, quietLogger);
  return program;
}

async function main(): Promise<void> {
  try {
    await buildProgram().parseAsync(process.argv);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof AccountError) {
      console.error(`brandbase: ${error.message}`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
}

await main();
