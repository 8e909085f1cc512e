import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { deleteSecret } from "../../cli/credentials.js";
import { usageError } from "../../cli/errors.js";
import { confirm } from "../../cli/prompt.js";
import { requireProfile } from "./shared.js";

export async function runProfileRemove(ctx: Context, name: string, opts: { yes?: boolean; quiet?: boolean }): Promise<void> {
  if (name === "local") throw usageError("the local profile cannot be removed");
  const p = requireProfile(ctx, name);
  await confirm(ctx, opts, `remove profile ${name} and its stored key`);
  if (p.kind === "remote") await deleteSecret(ctx, name, p.secret);
  delete ctx.config.profiles[name];
  if (ctx.config.current_profile === name) ctx.config.current_profile = undefined;
  ctx.saveConfig();
  ctx.status(`removed profile ${name}`, opts);
}

export function profileRemoveCommand(ctx: Context): Command {
  return new Command("remove")
    .alias("rm")
    .description("Remove a profile and forget its API key")
    .argument("<profile>", "profile name")
    .option("-y, --yes", "do not ask for confirmation")
    .addHelpText("after", "\nExample:\n  kbox profile remove old-zone --yes")
    .action(async (name: string, _o, cmd: Command) => runProfileRemove(ctx, name, ctx.opts(cmd)));
}
