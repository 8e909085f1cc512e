import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { requireProfile } from "./shared.js";

export function runProfileUse(ctx: Context, name: string, opts: { quiet?: boolean }): void {
  requireProfile(ctx, name);
  ctx.config.current_profile = name;
  ctx.saveConfig();
  ctx.status(`now using profile ${name}`, opts);
  if (ctx.env.profile && ctx.env.profile !== name)
    ctx.status(`note: KBOX_PROFILE=${ctx.env.profile} overrides it in this shell`, opts);
}

export function profileUseCommand(ctx: Context): Command {
  return new Command("use")
    .description("Make a profile the active one")
    .argument("<profile>", "profile name")
    .addHelpText("after", "\nExamples:\n  kbox profile use work\n  kbox profile use local")
    .action((name: string, _o, cmd: Command) => runProfileUse(ctx, name, ctx.opts(cmd)));
}
