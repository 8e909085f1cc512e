import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { profileAddCommand } from "./add.js";
import { profileListCommand } from "./list.js";
import { profileRemoveCommand } from "./remove.js";
import { profileShowCommand } from "./show.js";
import { profileUseCommand } from "./use.js";

/** `kbox profile`: the local daemon or remote zones, one active at a time. */
export function profileCommand(ctx: Context): Command {
  return new Command("profile")
    .description("Manage profiles: the local daemon (default) or remote zones with an API key")
    .addCommand(profileListCommand(ctx))
    .addCommand(profileAddCommand(ctx))
    .addCommand(profileUseCommand(ctx))
    .addCommand(profileShowCommand(ctx))
    .addCommand(profileRemoveCommand(ctx))
    .addHelpText("after", "\nExamples:\n  kbox profile list\n  kbox profile use work\n  KBOX_PROFILE=work kbox resource list");
}
