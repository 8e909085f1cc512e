import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { authLoginCommand } from "./login.js";
import { authLogoutCommand } from "./logout.js";
import { authStatusCommand } from "./status.js";

/** `kbox auth`: API keys of remote profiles, in the OS keyring or a 0600 file. */
export function authCommand(ctx: Context): Command {
  return new Command("auth")
    .description("Log in to remote zones: store, inspect and forget knowledge box API keys")
    .addCommand(authLoginCommand(ctx))
    .addCommand(authStatusCommand(ctx))
    .addCommand(authLogoutCommand(ctx))
    .addHelpText(
      "after",
      "\nExamples:\n  kbox auth login --zone https://europe-1.nuclia.cloud --kb 7c0e… --api-key - < key.txt\n  kbox auth status",
    );
}
