import { readFile } from "node:fs/promises";
import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import * as agents from "../../client/routes/agent-audit.js";
import { readAll } from "../../client/transport.js";
import { agentId } from "./resolve.js";

interface Opts {
  passphrase?: string;
  overwrite?: boolean;
  quiet?: boolean;
}

export async function runAgentImport(ctx: Context, ref: string, file: string, o: Opts): Promise<void> {
  if (!o.passphrase) throw usageError("give the export's passphrase: --passphrase <text>");
  const agent_id = await agentId(ctx, ref, o);
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await readFile(file))]), "agent.kboxagent");
  form.set("passphrase", o.passphrase);
  form.set("overwrite", o.overwrite ? "true" : "false");
  const req = new Request("http://kbox/", { method: "POST", body: form });
  const res = await (await ctx.client(o)).exchange(agents.importAgent, {
    params: { agent_id },
    headers: { "content-type": req.headers.get("content-type") ?? "multipart/form-data" },
    body: Buffer.from(await req.arrayBuffer()),
  });
  const text = (await readAll(res.body)).toString("utf8");
  if (res.status >= 400) {
    let detail = text;
    try {
      detail = String(JSON.parse(text).detail);
    } catch {
      // not JSON: the text as is
    }
    throw new Error(`import failed (${res.status}): ${detail}`);
  }
  ctx.status(`imported ${file} into agent ${ref}`, o);
}

export function agentImportCommand(ctx: Context): Command {
  return new Command("import")
    .description("Import an exported configuration into an agent")
    .argument("<agent>", "slug or id")
    .argument("<file>")
    .option("--passphrase <text>", "the passphrase of the export")
    .option("--overwrite", "replace the agent's configuration (else a configured agent refuses)")
    .addHelpText("after", '\nExample:\n  kbox agent import helper-copy helper.kboxagent --passphrase "a long passphrase here"')
    .action(async (ref: string, file: string, _o, cmd: Command) => runAgentImport(ctx, ref, file, ctx.opts<Opts>(cmd)));
}
