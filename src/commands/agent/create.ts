import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson } from "../../cli/output.js";
import * as kbs from "../../client/routes/kbs.js";
import { agentAccount } from "./resolve.js";

interface Opts {
  title?: string;
  description?: string;
  /** false with --no-memory. */
  memory?: boolean;
  model?: string;
  json?: boolean;
  quiet?: boolean;
}

export async function runAgentCreate(ctx: Context, slug: string, o: Opts): Promise<void> {
  const client = await ctx.client(o);
  const body = {
    slug,
    title: o.title ?? slug,
    description: o.description,
    mode: o.memory === false ? ("agent_no_memory" as const) : ("agent" as const),
    ...(o.model ? { learning_configuration: { generative_model: o.model } } : {}),
  };
  const res = await client.call(kbs.accountCreateKb, { params: { account_id: await agentAccount(ctx, o) }, body: body as never });
  if (o.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.id}\n`);
  ctx.status(`created agent ${slug}; add a driver next: kbox agent driver add --agent ${slug} --kb <kb>`, o);
}

export function agentCreateCommand(ctx: Context): Command {
  return new Command("create")
    .description("Create a retrieval agent (a knowledge box of mode agent)")
    .argument("<slug>", "slug: lowercase letters, digits, _ and -")
    .option("--title <title>", "title (defaults to the slug)")
    .option("--description <text>", "description")
    .option("--no-memory", "keep no sessions (mode agent_no_memory)")
    .option("--model <name>", "the generative model that answers (default: the daemon's; extractive without one)")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox agent create helper\n  kbox agent create helper --model openai:gpt-4o-mini")
    .action(async (slug: string, _o, cmd: Command) => runAgentCreate(ctx, slug, ctx.opts<Opts>(cmd)));
}
