import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import * as agents from "../../client/routes/agents.js";
import { agentId } from "./resolve.js";

interface Opts {
  agent?: string;
  session?: string;
  workflow?: string;
  json?: boolean;
  quiet?: boolean;
}

type Item = agents.AragAnswer;

/** Steps go to stderr as they happen, the answer's text to stdout as it streams; --json prints the items. */
export async function runAgentAsk(ctx: Context, question: string, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  const client = await ctx.client(o);
  let streamed = false;
  let failed: string | undefined;
  for await (const raw of client.stream(agents.interact, {
    params: { agent_id, session: o.session ?? "ephemeral" },
    query: { workflow_id: o.workflow ?? "default" },
    body: { question, streaming: true },
  })) {
    const i = raw as Item;
    if (o.json) {
      ctx.io.stdout.write(`${JSON.stringify(i)}\n`);
      continue;
    }
    if (i.step) {
      const s = i.step;
      const why = s.error ? ` (error: ${s.error})` : s.reason ? ` (${s.reason})` : "";
      ctx.status(`· ${s.module}: ${s.title.toLowerCase() === s.module ? "" : `${s.title}: `}${s.value}${why}`, o);
    } else if (i.generated_text) {
      streamed = true;
      ctx.io.stdout.write(i.generated_text);
    } else if (typeof i.answer === "string") {
      ctx.io.stdout.write(streamed ? "\n" : `${i.answer}\n`);
    } else if (i.exception) failed = i.exception.detail;
  }
  if (failed) throw new Error(failed);
}

export function agentAskCommand(ctx: Context): Command {
  return new Command("ask")
    .description("Ask an agent: steps stream to stderr, the answer to stdout")
    .argument("<question>")
    .option("--agent <agent>", "agent slug or id")
    .option("--session <id>", "a session (id or slug) whose history the agent uses and extends; default: none")
    .option("--workflow <id>", "the workflow (default: default)")
    .option("--json", "print the stream's items (NDJSON)")
    .addHelpText(
      "after",
      '\nExamples:\n  kbox agent ask "Who leads the project and where is it built?" --agent helper\n  kbox agent ask "And when?" --agent helper --session chat-1',
    )
    .action(async (q: string, _o, cmd: Command) => runAgentAsk(ctx, q, ctx.opts<Opts>(cmd)));
}
