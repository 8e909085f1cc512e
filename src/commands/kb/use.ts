import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import * as kbs from "../../client/routes/kbs.js";

/** Make a knowledge box the current one of the active profile. */
export async function runKbUse(ctx: Context, ref: string, opts: { quiet?: boolean; profile?: string }): Promise<void> {
  const kbid = await ctx.kbid({ ...opts, kb: ref });
  const kb = await (await ctx.client(opts)).call(kbs.getKb, { params: { kbid } });
  const name = ctx.profileName(opts);
  ctx.config.profiles[name] = { ...ctx.profile(opts), kb: kb.slug };
  ctx.saveConfig();
  ctx.status(`now using knowledge box ${kb.slug} (profile ${name})`, opts);
}

export function kbUseCommand(ctx: Context): Command {
  return new Command("use")
    .description("Set the current knowledge box for later commands")
    .argument("<kb>", "slug or uuid")
    .addHelpText("after", "\nExample:\n  kbox kb use notes")
    .action(async (ref: string, _o, cmd: Command) => runKbUse(ctx, ref, ctx.opts(cmd)));
}
