/**
 * A command's refusal (a `CliError`, or an `ApiError` from the service it calls) is one line on stderr and exit code
 * 2, never a stack trace; anything else is a bug and propagates. Shared by the commands that manage one
 * organization's things (webhooks, merchant corrections).
 */
export class CliError extends Error {}

export async function guarded(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (error instanceof CliError || (error instanceof Error && error.name === 'ApiError')) {
      console.error(`brandbase: ${error.message}`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
}
