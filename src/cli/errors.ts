/** Exit codes of STYLE.md. */
export const EXIT = { ok: 0, failure: 1, usage: 2, unreachable: 3, auth: 4, partial: 5, interrupted: 130 } as const;

/** A failure the CLI reports as one message (and a hint) with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
    readonly hint?: string,
  ) {
    super(message);
  }
}

export const usageError = (msg: string, hint?: string) => new CliError(msg, EXIT.usage, hint);
