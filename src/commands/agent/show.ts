import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as cfg from "../../client/routes/agent-config.js";
import * as kbs from "../../client/routes/kbs.js";
import { agentAccount, agentId } from "./resolve.js";

/** The agent's record with its workflows, drivers (secrets stripped) and prompts, as one JSON document. */
export async function runAgentShow(ctx: Context, ref: string, o: { json?: boolean }): Promise<void> {
  const client = await ctx.client(o);
  const agent_id = await agentId(ctx, ref, o);
  const params = { agent_id };
  const record = await client.call(kbs.accountGetKb, { params: { account_id: await agentAccount(ctx, o), kb_id: agent_id } });
  printJson(ctx.io, {
    ...record,
    workflows: await client.call(cfg.listWorkflows, { params }),
    rules: (await client.call(cfg.getRules, { params })).rules,
    drivers: await client.call(cfg.listDrivers, { params }),
    prompts: await client.call(cfg.listPrompts, { params }),
  });
}

export function agentShowCommand(ctx: Context): Command {
  return new Command("show")
    .description("Print an agent with its workflows, rules, drivers and prompts (JSON)")
    .argument("<agent>", "slug or id")
    .addHelpText("after", "\nExample:\n  kbox agent show helper")
    .action(async (ref: string, _o, cmd: Command) => runAgentShow(ctx, ref, ctx.opts(cmd)));
}
