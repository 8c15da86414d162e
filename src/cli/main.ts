/** The `brandbase` command's entry point (bin/brandbase.js runs its build, dist/cli/main.js). */
import { buildProgram } from './program.js';

/** Errors a person caused (a bad setting, an unknown organization): one line, exit code 2, no stack trace. */
const USER_ERRORS = new Set(['ConfigError', 'AccountError', 'ClientIdError', 'DashboardAccountError']);

async function main(): Promise<void> {
  try {
    await buildProgram().parseAsync(process.argv);
  } catch (error) {
    // Matched by name: importing the classes would load the configuration and billing modules at every start.
    if (error instanceof Error && USER_ERRORS.has(error.name)) {
      console.error(`brandbase: ${error.message}`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
}

await main();
