import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { collect } from "../../cli/options.js";
import { printJson } from "../../cli/output.js";
import { type AddOptions, addSync, sourceOf } from "./shared.js";

export async function runSyncAdd(ctx: Context, target: string, opts: AddOptions): Promise<void> {
  const { config } = await addSync(ctx, target, opts);
  if (opts.json) return printJson(ctx.io, config);
  ctx.io.stdout.write(`${config.id}\n`);
  ctx.status(
    `syncing ${sourceOf(config)}; the first sync has started (follow it with \`kbox sync logs ${config.name === config.sync_root_path ? config.id : config.name} --follow\`)`,
    opts,
  );
}

export function syncAddCommand(ctx: Context): Command {
  return new Command("add")
    .description("Keep a folder (watched live) or a sitemap (re-synced) in a knowledge box")
    .argument("<folder|sitemap-url>", "a local folder, or the http(s) URL of a sitemap or sitemap index")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--name <name>", "a name for the configuration (default: the path or URL)")
    .option("--label <labelset/label>", "label every synced resource (repeatable)", collect)
    .option("--include <glob>", "only files matching this glob (repeatable), e.g. '*.md'", collect)
    .option("--exclude <pattern>", ".gitignore-style pattern to skip (repeatable)", collect)
    .option("--interval <minutes>", "also run a full pass every N minutes")
    .option("--css-selector <selector>", "sitemaps: index only this part of each page")
    .option("--xpath <xpath>", "sitemaps: index only this part of each page")
    .option("--json", "print the wire response")
    .addHelpText(
      "after",
      "\nExamples:\n  kbox sync add ~/notes --include '*.md' --label source/notes\n  kbox sync add https://example.com/sitemap.xml --interval 60 --css-selector main",
    )
    .action(async (target: string, _o, cmd: Command) => runSyncAdd(ctx, target, ctx.opts<AddOptions>(cmd)));
}
