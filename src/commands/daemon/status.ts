import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { EXIT } from "../../cli/errors.js";
import { printFields, printJson } from "../../cli/output.js";
import { hello } from "../../client/connect.js";
import * as daemonApi from "../../client/routes/daemon.js";

/** Report whether the daemon runs, and its health; never starts one (exit 3 when down). */
export async function runStatus(ctx: Context, opts: { json?: boolean }): Promise<void> {
  const client = await ctx.connect({ kind: "unix", socket: ctx.paths.socket });
  if (!(await hello(client))) {
    if (opts.json) printJson(ctx.io, { running: false, socket: ctx.paths.socket });
    else ctx.io.stderr.write(`kboxd is not running (socket ${ctx.paths.socket})\n`);
    ctx.exitCode = EXIT.unreachable;
    return;
  }
  const s = await client.call(daemonApi.status, {});
  if (opts.json) return printJson(ctx.io, { running: true, ...s });
  printFields(ctx.io, [
    ["status", "running"],
    ["version", s.version],
    ["pid", String(s.pid)],
    ["uptime", `${Math.round(s.uptime_s)}s`],
    ["listen", s.listen.join(", ")],
    ["data", s.data_dir],
    ["knowledge boxes", String(s.kbs)],
    [
      "memory",
      `${Math.round(s.rss_bytes / 1048576)} MiB${s.heap_bytes ? ` (JavaScript heap ${Math.round(s.heap_bytes / 1048576)} MiB)` : ""}${s.allocator ? `, ${s.allocator} allocator` : ""}`,
    ],
    ...(s.extract_workers?.workers
      ? [
          ["extraction workers", `${s.extract_workers.workers}, ${Math.round(s.extract_workers.rss_bytes / 1048576)} MiB`] as [
            string,
            string,
          ],
        ]
      : []),
  ]);
}

export function statusCommand(ctx: Context): Command {
  return new Command("status")
    .description("Show whether the daemon runs (exit 3 when it does not); never starts one")
    .option("--json", "print the status as JSON")
    .addHelpText("after", "\nExample:\n  kbox daemon status --json")
    .action(async (_o, cmd: Command) => runStatus(ctx, ctx.opts(cmd)));
}
