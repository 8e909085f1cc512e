import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson, printTable } from "../../cli/output.js";
import * as cfg from "../../client/routes/agent-config.js";
import { agentId, jsonObject } from "./resolve.js";

interface Opts {
  agent?: string;
  name?: string;
  kb?: string;
  url?: string;
  key?: string;
  topK?: string;
  config?: string;
  json?: boolean;
  quiet?: boolean;
}

/** A driver from the flags: `--kb` alone is a box of this daemon; with `--url` (and `--key`) one of another kbox or zone. */
export function driverOf(identifier: string, o: Opts) {
  const config: Record<string, unknown> = jsonObject(o.config, "--config");
  if (o.kb) config.kbid = o.kb;
  if (o.url) config.url = o.url;
  if (o.key) config.key = o.key;
  if (o.topK) config.top_k = Number(o.topK);
  if (!config.kbid) throw usageError("name the knowledge box the driver queries: --kb <slug|id>");
  return { identifier, name: o.name ?? identifier, provider: config.url ? "nucliadb" : "local", config };
}

export async function runDriverAdd(ctx: Context, identifier: string, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  const res = await (await ctx.client(o)).call(cfg.addDriver, { params: { agent_id }, body: driverOf(identifier, o) });
  if (o.json) return printJson(ctx.io, res);
  ctx.io.stdout.write(`${res.id}\n`);
  ctx.status(`added driver ${identifier}`, o);
}

export async function runDriverList(ctx: Context, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  const res = await (await ctx.client(o)).call(cfg.listDrivers, { params: { agent_id } });
  if (o.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "identifier", get: (d) => d.identifier },
      { header: "id", get: (d) => d.id },
      { header: "provider", get: (d) => d.provider },
      { header: "kb", get: (d) => String(d.config.kbid ?? "") },
      { header: "url", get: (d) => String(d.config.url ?? "") },
    ],
    res,
  );
}

export async function runDriverDelete(ctx: Context, ref: string, o: Opts): Promise<void> {
  const agent_id = await agentId(ctx, o.agent, o);
  const client = await ctx.client(o);
  const all = await client.call(cfg.listDrivers, { params: { agent_id } });
  const id = all.find((d) => d.id === ref || d.identifier === ref)?.id ?? ref;
  await client.call(cfg.deleteDriver, { params: { agent_id, driver: id } });
  ctx.status(`deleted driver ${ref}`, o);
}

export function agentDriverCommand(ctx: Context): Command {
  const agent = ["--agent <agent>", "agent slug or id"] as const;
  return new Command("driver")
    .description("Drivers: the knowledge boxes an agent retrieves from (configs encrypted at rest)")
    .addCommand(
      new Command("add")
        .description("Add a driver: a knowledge box of this daemon, or of another kbox / zone with --url and --key")
        .argument("<identifier>")
        .option(...agent)
        .option("--kb <kb>", "the knowledge box (slug or id; an id with --url)")
        .option("--url <url>", "base URL of another kbox or a zone (https://europe-1.rag.example)")
        .option("--key <key>", "its API key (stored encrypted, never shown again)")
        .option("--name <name>", "display name (defaults to the identifier)")
        .option("--top-k <n>", "paragraphs to retrieve (default 5)")
        .option("--config <json>", "more configuration (filters, filter_expression)")
        .option("--json", "print the wire response")
        .addHelpText(
          "after",
          "\nExamples:\n  kbox agent driver add notes --agent helper --kb notes\n  kbox agent driver add team --agent helper --url https://kbox.example --kb <uuid> --key kbox_sa_…",
        )
        .action(async (id: string, _o, cmd: Command) => runDriverAdd(ctx, id, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("list")
        .alias("ls")
        .description("List drivers (secrets are never shown)")
        .option(...agent)
        .option("--json", "print the wire response")
        .addHelpText("after", "\nExample:\n  kbox agent driver list --agent helper")
        .action(async (_o, cmd: Command) => runDriverList(ctx, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("delete")
        .alias("rm")
        .description("Delete a driver")
        .argument("<driver>", "identifier or id")
        .option(...agent)
        .addHelpText("after", "\nExample:\n  kbox agent driver delete notes --agent helper")
        .action(async (ref: string, _o, cmd: Command) => runDriverDelete(ctx, ref, ctx.opts<Opts>(cmd))),
    );
}
