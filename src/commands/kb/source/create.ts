import { Command } from "commander";
import type { Context } from "../../../cli/context.js";
import * as api from "../../../client/routes/sources.js";
import { type SourceOpts, sourceOf } from "./body.js";

export async function runSourceCreate(ctx: Context, id: string, o: SourceOpts): Promise<void> {
  const kbid = await ctx.kbid(o);
  const body = (await sourceOf(ctx, o)) as api.Source;
  await (await ctx.client(o)).call(api.createSource, { params: { kbid, source_id: id }, body });
  ctx.status(`created source ${id}`, o);
}

export function sourceCreateCommand(ctx: Context): Command {
  return new Command("create")
    .description("Create a source (types: nucliadb, perplexity, google, mcp, sync; only nucliadb runs in an ask)")
    .argument("<id>")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--type <type>", "nucliadb, perplexity, google, mcp or sync")
    .option("--description <text>", "what the source holds")
    .option("--config <json>", "the source, as JSON")
    .option("--file <path|->", "read the source from a file or stdin")
    .addHelpText(
      "after",
      `\nExamples:\n  kbox kb source create manuals --type nucliadb --config '{"filter_expression":{"field":{"prop":"label","labelset":"topic","label":"manuals"}}}'\n  kbox kb agentic-config create support --config '{"smart_agent":{"sources":["manuals"]}}'`,
    )
    .action(async (id: string, _o, cmd: Command) => runSourceCreate(ctx, id, ctx.opts<SourceOpts>(cmd)));
}
