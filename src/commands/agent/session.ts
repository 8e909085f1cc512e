import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printJson, printTable } from "../../cli/output.js";
import * as agents from "../../client/routes/agents.js";
import { agentId } from "./resolve.js";

interface Opts {
  agent?: string;
  name?: string;
  summary?: string;
  data?: string;
  json?: boolean;
  quiet?: boolean;
}

export async function runSessionCreate(ctx: Context, slug: string, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  const body = { slug, name: o.name ?? slug, summary: o.summary ?? "", data: o.data ?? "", format: "PLAIN" as const };
  const res = await (await ctx.client(o)).call(agents.createSession, { params: { agent_id }, body });
  if (o.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.uuid}\n`);
  ctx.status(`created session ${slug}`, o);
}

export async function runSessionList(ctx: Context, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  const res = await (await ctx.client(o)).call(agents.listSessions, { params: { agent_id }, query: { page: 0, size: 200 } });
  if (o.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "slug", get: (s) => s.slug },
      { header: "id", get: (s) => s.id },
      { header: "name", get: (s) => s.title },
      { header: "turns", get: (s) => String(s.data.conversations.history?.value.messages.length / 2 || 0) },
      { header: "modified", get: (s) => s.modified },
    ],
    res.resources,
  );
}

export async function runSessionShow(ctx: Context, ref: string, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  printJson(ctx.io, await (await ctx.client(o)).call(agents.getSession, { params: { agent_id, session: ref } }));
}

export async function runSessionDelete(ctx: Context, ref: string, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  await (await ctx.client(o)).call(agents.deleteSession, { params: { agent_id, session: ref } });
  ctx.status(`deleted session ${ref}`, o);
}

export function agentSessionCommand(ctx: Context): Command {
  const agent = ["--agent <agent>", "agent slug or id"] as const;
  return new Command("session")
    .description("Sessions of an agent: their history is the conversation the agent continues")
    .addCommand(
      new Command("create")
        .description("Create a session")
        .argument("<slug>")
        .option(...agent)
        .option("--name <name>", "its name (defaults to the slug)")
        .option("--summary <text>", "a summary")
        .option("--data <text>", "data the session carries")
        .option("--json", "print the wire response")
        .addHelpText("after", "\nExample:\n  kbox agent session create chat-1 --agent helper")
        .action(async (slug: string, _o, cmd: Command) => runSessionCreate(ctx, slug, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("list")
        .alias("ls")
        .description("List sessions, newest first")
        .option(...agent)
        .option("--json", "print the wire response")
        .addHelpText("after", "\nExample:\n  kbox agent session list --agent helper")
        .action(async (_o, cmd: Command) => runSessionList(ctx, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("show")
        .description("Print a session with its history (JSON)")
        .argument("<session>", "id or slug")
        .option(...agent)
        .addHelpText("after", "\nExample:\n  kbox agent session show chat-1 --agent helper")
        .action(async (ref: string, _o, cmd: Command) => runSessionShow(ctx, ref, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("delete")
        .alias("rm")
        .description("Delete a session and its history")
        .argument("<session>", "id or slug")
        .option(...agent)
        .addHelpText("after", "\nExample:\n  kbox agent session delete chat-1 --agent helper")
        .action(async (ref: string, _o, cmd: Command) => runSessionDelete(ctx, ref, ctx.opts<Opts>(cmd))),
    );
}
