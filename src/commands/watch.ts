import { resolve } from "node:path";
import { Command } from "commander";
import type { Context } from "../cli/context.js";
import { collect } from "../cli/options.js";
import * as sync from "../client/routes/sync.js";
import { followConfig, formatLog } from "./sync/follow.js";
import { type AddOptions, addSync } from "./sync/shared.js";

/** Keep a folder indexed: reuse its sync configuration or create one; the daemon watches it from then on. */
export async function runWatch(ctx: Context, folder: string, opts: AddOptions & { follow?: boolean }): Promise<void> {
  const kbid = await ctx.kbid(opts);
  const client = await ctx.client(opts);
  const root = resolve(ctx.io.cwd, folder);
  const existing = (await client.call(sync.listConfigs, { params: { kbid } })).find(
    (c) => c.external_connection.provider === "local_folder" && c.sync_root_path === root,
  );
  const config = existing ?? (await addSync(ctx, root, opts)).config;
  ctx.status(
    `${existing ? "already watching" : "watching"} ${root}: kboxd keeps it indexed (stop with \`kbox sync remove ${config.id}\`)`,
    opts,
  );
  if (opts.json) ctx.io.stdout.write(`${JSON.stringify(config)}\n`);
  if (!opts.follow) return;
  await followConfig(client, kbid, config.id, { print: (e) => ctx.io.stdout.write(`${formatLog(ctx, e)}\n`) });
}

export function watchCommand(ctx: Context): Command {
  return new Command("watch")
    .description("Keep a folder indexed: adds a folder sync (once) that the daemon watches live")
    .argument("<folder>", "the folder")
    .option("--kb <kb>", "knowledge box slug or uuid")
    .option("--label <labelset/label>", "label every resource (repeatable)", collect)
    .option("--include <glob>", "only files matching this glob (repeatable)", collect)
    .option("--exclude <pattern>", ".gitignore-style pattern to skip (repeatable)", collect)
    .option("-f, --follow", "stay and print what the daemon syncs, live, until Ctrl+C")
    .option("--json", "print the configuration")
    .addHelpText("after", "\nExamples:\n  kbox watch ~/notes\n  kbox watch . --include '*.md' --follow")
    .action(async (folder: string, _o, cmd: Command) => runWatch(ctx, folder, ctx.opts(cmd)));
}
