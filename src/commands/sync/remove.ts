import { Command } from "commander";
import type { Context, GlobalOptions } from "../../cli/context.js";
import { confirm } from "../../cli/prompt.js";
import * as sync from "../../client/routes/sync.js";
import { resolveConfig } from "./shared.js";

export async function runSyncRemove(
  ctx: Context,
  ref: string,
  opts: GlobalOptions & { deleteResources?: boolean },
): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  const c = await resolveConfig(client, kbid, ref);
  await confirm(ctx, opts, `stop syncing ${c.name}${opts.deleteResources ? " and delete its resources" : ""}`);
  await client.call(sync.deleteConfig, {
    params: { kbid, config_id: c.id },
    query: { delete_resources: Boolean(opts.deleteResources) },
  });
  ctx.status(`removed sync ${c.name}`, opts);
}

export function syncRemoveCommand(ctx: Context): Command {
  return new Command("remove")
    .alias("rm")
    .description("Stop syncing (resources stay unless --delete-resources)")
    .argument("<config>", "configuration id or name")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--delete-resources", "also delete the resources it created")
    .option("-y, --yes", "do not ask for confirmation")
    .addHelpText("after", "\nExample:\n  kbox sync remove notes --yes")
    .action(async (ref: string, _o, cmd: Command) => runSyncRemove(ctx, ref, ctx.opts(cmd)));
}
