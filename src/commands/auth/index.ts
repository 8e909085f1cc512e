import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { authLoginCommand } from "./login.js";
import { authLogoutCommand } from "./logout.js";
import { authStatusCommand } from "./status.js";
import { authTokenCommand } from "./token.js";

/** `kbox auth`: API keys of remote profiles, in the OS keyring or a 0600 file. */
export function authCommand(ctx: Context): Command {
  return new Command("auth")
    .description("Log in to zones: store, inspect and forget credentials; personal access tokens")
    .addCommand(authLoginCommand(ctx))
    .addCommand(authStatusCommand(ctx))
    .addCommand(authLogoutCommand(ctx))
    .addCommand(authTokenCommand(ctx))
    .addHelpText(
      "after",
      "\nExamples:\n  kbox auth login --zone https://europe-1.nuclia.cloud --kb 7c0e… --api-key - < key.txt\n  kbox auth status",
    );
}
