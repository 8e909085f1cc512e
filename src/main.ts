import type { Command } from "commander";
import type { Context, ContextDeps } from "./cli/context.js";
import { CliError, EXIT } from "./cli/errors.js";
import { type IO, processIO } from "./cli/io.js";
import { styles } from "./cli/output.js";
import { ApiError, UnreachableError } from "./client/errors.js";
import { VERSION } from "./client/routes/version.js";

/** Map an API error to a message, a hint and an exit code. */
function apiFailure(e: ApiError): CliError {
  if (e.status === 401)
    return new CliError(`authentication failed: ${e.message}`, EXIT.auth, "check the profile's API key (`kbox auth status`)");
  if (e.status === 403)
    return new CliError(
      e.message && e.message !== "Forbidden" ? `forbidden: ${e.message}` : "forbidden: the key's role does not allow this",
      EXIT.auth,
    );
  if (e.status === 404) return new CliError(e.message, EXIT.failure);
  return new CliError(e.status === 422 ? `invalid request: ${e.message}` : e.message, EXIT.failure);
}

/** Print an error the way every command does, and return its exit code. */
export function reportError(ctx: Context, e: unknown): number {
  const st = styles(ctx.io, ctx.io.stderr);
  let err: CliError;
  if (e instanceof CliError) err = e;
  else if (e instanceof ApiError) err = apiFailure(e);
  else if (e instanceof UnreachableError)
    err = new CliError(e.message, EXIT.unreachable, e.hint ?? "start it with `kbox daemon start`");
  else err = new CliError((e as Error)?.message ?? String(e), EXIT.failure);
  ctx.io.stderr.write(`${st.red("kbox:")} ${err.message}\n`);
  if (err.hint) ctx.io.stderr.write(`${st.dim(`hint: ${err.hint}`)}\n`);
  return err.exitCode;
}

/**
 * Run the CLI with `argv` (without node and script) and return the exit code. This is where the
 * program is composed: the CLI library (context, output, program) and the command table of
 * src/commands meet here and nowhere else. `deps` replaces the transport in tests.
 */
export async function main(argv: string[], io: IO = processIO(), deps: ContextDeps = {}): Promise<number> {
  // `kbox --version` answers before the command tree (and every wire schema) is loaded.
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  // Commander and the context are loaded only past the --version check.
  const [{ CommanderError }, { Context }] = await Promise.all([import("commander"), import("./cli/context.js")]);
  const ctx = new Context(io, deps);
  let program: Command;
  try {
    const { buildProgram } = await import("./commands/index.js");
    // Only the named command's module is imported (the whole tree for help and unknown words).
    program = await buildProgram(ctx, argv);
  } catch (e) {
    return reportError(ctx, e);
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return ctx.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return EXIT.ok;
      return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    return reportError(ctx, e);
  }
}
