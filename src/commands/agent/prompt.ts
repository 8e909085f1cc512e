import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson, printTable } from "../../cli/output.js";
import * as cfg from "../../client/routes/agent-config.js";
import { agentId } from "./resolve.js";

interface Opts {
  agent?: string;
  text?: string;
  description?: string;
  id?: string;
  json?: boolean;
  quiet?: boolean;
}

export async function runPromptAdd(ctx: Context, name: string, o: Opts): Promise<void> {
  if (!o.text) throw usageError("give the prompt's text: --text <prompt>");
  const agent_id = await agentId(ctx, o.agent, o);
  const body = { name, description: o.description ?? "", prompt: o.text, ...(o.id ? { prompt_id: o.id } : {}) };
  const res = await (await ctx.client(o)).call(cfg.addPrompt, { params: { agent_id }, body });
  if (o.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.id}\n`);
  ctx.status(
    `added prompt ${name}; use it with: kbox agent workflow module add generation '{"module":"generate","prompt_id":"${res.id}"}'`,
    o,
  );
}

export async function runPromptList(ctx: Context, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  const res = await (await ctx.client(o)).call(cfg.listPrompts, { params: { agent_id } });
  if (o.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "id", get: (p) => p.prompt_id },
      { header: "name", get: (p) => p.name },
      { header: "description", get: (p) => p.description },
    ],
    res,
  );
}

export async function runPromptShow(ctx: Context, id: string, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  printJson(ctx.io, await (await ctx.client(o)).call(cfg.getPrompt, { params: { agent_id, prompt_id: id } }));
}

export async function runPromptDelete(ctx: Context, id: string, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  await (await ctx.client(o)).call(cfg.deletePrompt, { params: { agent_id, prompt_id: id } });
  ctx.status(`deleted prompt ${id}`, o);
}

export function agentPromptCommand(ctx: Context): Command {
  const agent = ["--agent <agent>", "agent slug or id"] as const;
  return new Command("prompt")
    .description("Stored prompts a generation module can use as its system prompt")
    .addCommand(
      new Command("add")
        .description("Add a prompt")
        .argument("<name>")
        .option(...agent)
        .option("--text <prompt>", "the prompt")
        .option("--description <text>", "what it is for")
        .option("--id <id>", "its id (default: generated)")
        .option("--json", "print the wire response")
        .addHelpText("after", '\nExample:\n  kbox agent prompt add terse --text "Answer in five words." --agent helper')
        .action(async (name: string, _o, cmd: Command) => runPromptAdd(ctx, name, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("list")
        .alias("ls")
        .description("List prompts")
        .option(...agent)
        .option("--json", "print the wire response")
        .addHelpText("after", "\nExample:\n  kbox agent prompt list --agent helper")
        .action(async (_o, cmd: Command) => runPromptList(ctx, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("show")
        .description("Print a prompt (JSON)")
        .argument("<id>")
        .option(...agent)
        .addHelpText("after", "\nExample:\n  kbox agent prompt show terse --agent helper")
        .action(async (id: string, _o, cmd: Command) => runPromptShow(ctx, id, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("delete")
        .alias("rm")
        .description("Delete a prompt")
        .argument("<id>")
        .option(...agent)
        .addHelpText("after", "\nExample:\n  kbox agent prompt delete terse --agent helper")
        .action(async (id: string, _o, cmd: Command) => runPromptDelete(ctx, id, ctx.opts<Opts>(cmd))),
    );
}
