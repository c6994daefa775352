/**
 * Errors that reach the user as one line. `exitCode` is the process's exit status:
 * 1 runtime failure, 2 usage or configuration error.
 */
export class AishError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'AishError';
  }
}

export class UsageError extends AishError {
  constructor(message: string) {
    super(message, 2);
    this.name = 'UsageError';
  }
}

export class ConfigError extends AishError {
  constructor(message: string) {
    super(message, 2);
    this.name = 'ConfigError';
  }
}

/** One line for the user; the stack only with AISH_DEBUG=1. */
export function formatError(err: unknown): string {
  if (process.env.AISH_DEBUG === '1' && err instanceof Error && err.stack) return err.stack;
  if (err instanceof Error) return err.message.split('\n')[0] ?? String(err);
  return String(err);
}

export function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
