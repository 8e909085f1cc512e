import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as cfg from "../../client/routes/agent-config.js";
import { agentId } from "./resolve.js";

interface Opts {
  agent?: string;
  workflow?: string;
  json?: boolean;
  quiet?: boolean;
}

export async function runRuleSet(ctx: Context, rules: string[], o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  const params = { agent_id, workflow_id: o.workflow ?? "default" };
  await (await ctx.client(o)).call(cfg.setWorkflowRules, { params, body: { rules } });
  ctx.status(`set ${rules.length} rule(s) on workflow ${params.workflow_id}`, o);
}

export async function runRuleList(ctx: Context, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  const res = await (await ctx.client(o)).call(cfg.getWorkflowRules, {
    params: { agent_id, workflow_id: o.workflow ?? "default" },
  });
  if (o.json) return printJson(ctx.io, res);
  for (const r of res.rules) ctx.io.stdout.write(`${typeof r === "string" ? r : r.prompt}\n`);
}

export function agentRuleCommand(ctx: Context): Command {
  const agent = ["--agent <agent>", "agent slug or id"] as const;
  const wf = ["--workflow <id>", "workflow (default: default)"] as const;
  return new Command("rule")
    .description("Rules the agent's answers follow (stated to the model)")
    .addCommand(
      new Command("set")
        .description("Replace the rules (none: clear them)")
        .argument("[rules...]")
        .option(...agent)
        .option(...wf)
        .addHelpText("after", '\nExample:\n  kbox agent rule set "Answer in one sentence." "Cite the source." --agent helper')
        .action(async (rules: string[], _o, cmd: Command) => runRuleSet(ctx, rules, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("list")
        .alias("ls")
        .description("Print the rules, one a line")
        .option(...agent)
        .option(...wf)
        .option("--json", "print the wire response")
        .addHelpText("after", "\nExample:\n  kbox agent rule list --agent helper")
        .action(async (_o, cmd: Command) => runRuleList(ctx, ctx.opts<Opts>(cmd))),
    );
}
