import { readFile } from "node:fs/promises";
import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { usageError } from "../../cli/errors.js";
import { printJson, printTable } from "../../cli/output.js";
import { readStdin } from "../../cli/prompt.js";
import * as api from "../../client/routes/search-configs.js";

interface Opts {
  kb?: string;
  kind?: string;
  config?: string;
  file?: string;
  json?: boolean;
  yes?: boolean;
}

/** The configuration JSON from `--config <json>`, `--file <path|->`. */
async function configOf(ctx: Context, o: Opts): Promise<Record<string, unknown>> {
  const text = o.config ?? (o.file === "-" ? await readStdin(ctx) : o.file ? await readFile(o.file, "utf8") : undefined);
  if (text === undefined) throw usageError("give the configuration with --config '<json>' or --file <path|->");
  try {
    const v = JSON.parse(text);
    if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error("not an object");
    return v;
  } catch (e) {
    throw usageError(`the configuration is not a JSON object: ${(e as Error).message}`);
  }
}

export async function runSearchConfigSave(ctx: Context, name: string, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const client = await ctx.client(o);
  const body = { kind: (o.kind ?? "find") as "find", config: await configOf(ctx, o) };
  const existing = await client.call(api.listSearchConfigs, { params: { kbid } });
  if (existing[name]) await client.call(api.updateSearchConfig, { params: { kbid, name }, body });
  else await client.call(api.createSearchConfig, { params: { kbid, name }, body });
  ctx.status(`saved ${body.kind} configuration ${name}`, o);
}

export async function runSearchConfigList(ctx: Context, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const res = await (await ctx.client(o)).call(api.listSearchConfigs, { params: { kbid } });
  if (o.json) return printJson(ctx.io, res);
  printTable(
    ctx.io,
    [
      { header: "name", get: (r) => r[0] },
      { header: "kind", get: (r) => r[1].kind },
      { header: "config", get: (r) => JSON.stringify(r[1].config) },
    ],
    Object.entries(res),
  );
}

export async function runSearchConfigShow(ctx: Context, name: string, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  printJson(ctx.io, await (await ctx.client(o)).call(api.getSearchConfig, { params: { kbid, name } }));
}

export async function runSearchConfigDelete(ctx: Context, name: string, o: Opts): Promise<void> {
  const kbid = await ctx.kbid(o);
  await (await ctx.client(o)).call(api.deleteSearchConfig, { params: { kbid, name } });
  ctx.status(`deleted ${name}`, o);
}

export function searchConfigCommand(ctx: Context): Command {
  const kb = ["--kb <kb>", "knowledge box slug or uuid"] as const;
  return new Command("search-config")
    .description("Stored search configurations (named find or ask parameters)")
    .addCommand(
      new Command("save")
        .description("Create or replace a configuration")
        .argument("<name>")
        .option(...kb)
        .option("--kind <kind>", "find or ask", "find")
        .option("--config <json>", "the parameters, as JSON")
        .option("--file <path|->", "read the parameters from a file or stdin")
        .addHelpText(
          "after",
          `\nExamples:\n  kbox search-config save reports --config '{"features":["keyword"],"top_k":5}'\n  kbox find revenue --config reports`,
        )
        .action(async (name: string, _o, cmd: Command) => runSearchConfigSave(ctx, name, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("list")
        .alias("ls")
        .description("List configurations")
        .addHelpText("after", "\nExamples:\n  kbox search-config list --kb notes\n  kbox search-config list --json")
        .option(...kb)
        .option("--json", "print the wire response")
        .action(async (_o, cmd: Command) => runSearchConfigList(ctx, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("show")
        .description("Print one configuration (JSON)")
        .addHelpText("after", "\nExample:\n  kbox search-config show reports --kb notes")
        .argument("<name>")
        .option(...kb)
        .action(async (name: string, _o, cmd: Command) => runSearchConfigShow(ctx, name, ctx.opts<Opts>(cmd))),
    )
    .addCommand(
      new Command("delete")
        .alias("rm")
        .description("Delete a configuration")
        .addHelpText("after", "\nExample:\n  kbox search-config delete reports --kb notes")
        .argument("<name>")
        .option(...kb)
        .action(async (name: string, _o, cmd: Command) => runSearchConfigDelete(ctx, name, ctx.opts<Opts>(cmd))),
    );
}
