import { writeFile } from "node:fs/promises";
import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import * as agents from "../../client/routes/agent-audit.js";
import { readAll } from "../../client/transport.js";
import { agentId } from "./resolve.js";

interface Opts {
  passphrase?: string;
  output?: string;
  quiet?: boolean;
}

/** Export the agent's configuration, encrypted with the passphrase, to a file (drivers' keys included). */
export async function runAgentExport(ctx: Context, ref: string, o: Opts): Promise<void> {
  if (!o.passphrase || o.passphrase.length < 16)
    throw usageError("give a passphrase of at least 16 characters: --passphrase <text>");
  if (!o.output) throw usageError("name the file to write: --output <path>");
  const agent_id = await agentId(ctx, ref, o);
  const client = await ctx.client(o);
  const ex = await client.call(agents.exportAgent, { params: { agent_id }, body: { passphrase: o.passphrase } });
  const res = await client.exchange(agents.exportDownload, { params: { agent_id, export_id: ex.id } });
  const bytes = await readAll(res.body);
  if (res.status !== 200) throw new Error(`the export download failed (${res.status}): ${bytes.toString("utf8").slice(0, 200)}`);
  await writeFile(o.output, bytes, { mode: 0o600 });
  ctx.status(`exported agent ${ref} to ${o.output} (${bytes.length} bytes, encrypted)`, o);
}

export function agentExportCommand(ctx: Context): Command {
  return new Command("export")
    .description("Export an agent's configuration (workflows, rules, prompts, drivers) encrypted with a passphrase")
    .argument("<agent>", "slug or id")
    .option("--passphrase <text>", "at least 16 characters; needed to import")
    .option("-o, --output <path>", "the file to write")
    .addHelpText("after", '\nExample:\n  kbox agent export helper -o helper.kboxagent --passphrase "a long passphrase here"')
    .action(async (ref: string, _o, cmd: Command) => runAgentExport(ctx, ref, ctx.opts<Opts>(cmd)));
}
