import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { confirm } from "../../cli/prompt.js";
import * as kbs from "../../client/routes/kbs.js";
import { agentAccount, agentId } from "./resolve.js";

export async function runAgentDelete(ctx: Context, ref: string, o: { yes?: boolean; quiet?: boolean }): Promise<void> {
  const agent_id = await agentId(ctx, ref, o);
  await confirm(ctx, o, `delete agent ${ref}, its sessions and configuration`);
  await (await ctx.client(o)).call(kbs.accountDeleteKb, { params: { account_id: await agentAccount(ctx, o), kb_id: agent_id } });
  ctx.status(`deleted agent ${ref}`, o);
}

export function agentDeleteCommand(ctx: Context): Command {
  return new Command("delete")
    .alias("rm")
    .description("Delete an agent")
    .argument("<agent>", "slug or id")
    .option("-y, --yes", "do not ask for confirmation")
    .addHelpText("after", "\nExample:\n  kbox agent delete helper --yes")
    .action(async (ref: string, _o, cmd: Command) => runAgentDelete(ctx, ref, ctx.opts(cmd)));
}
