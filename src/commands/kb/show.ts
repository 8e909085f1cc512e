import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { printFields, printJson } from "../../cli/output.js";
import * as kbs from "../../client/routes/kbs.js";

export async function runKbShow(ctx: Context, ref: string | undefined, opts: { json?: boolean; kb?: string }): Promise<void> {
  const kbid = await ctx.kbid({ ...opts, kb: ref ?? opts.kb });
  const client = await ctx.client(opts);
  const kb = await client.call(kbs.getKb, { params: { kbid } });
  if (opts.json) return printJson(ctx.io, kb);
  const counters = await client.call(kbs.counters, { params: { kbid } });
  printFields(ctx.io, [
    ["slug", kb.slug],
    ["uuid", kb.uuid],
    ["title", kb.config.title],
    ["description", kb.config.description],
    ["created", kb.config.created],
    ["resources", String(counters.resources)],
    ["paragraphs", String(counters.paragraphs)],
    ["enforce security", String(kb.config.enforce_security)],
    [
      "semantic search",
      kb.model?.semantic_search
        ? `${kb.model.semantic_search === "active" ? "active" : "keyword only"}${kb.model.default_semantic_model ? ` (${kb.model.default_semantic_model})` : ""}`
        : "",
    ],
    ["generative model", kb.model?.generative_model ?? ""],
  ]);
}

export function kbShowCommand(ctx: Context): Command {
  return new Command("show")
    .description("Show a knowledge box (the current one by default)")
    .argument("[kb]", "slug or uuid")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--json", "print the wire response")
    .addHelpText("after", "\nExamples:\n  kbox kb show\n  kbox kb show notes --json")
    .action(async (ref: string | undefined, _o, cmd: Command) => runKbShow(ctx, ref, ctx.opts(cmd)));
}
