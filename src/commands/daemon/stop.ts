import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { CliError, EXIT } from "../../cli/errors.js";
import { hello, waitExit, waitGone } from "../../client/connect.js";
import * as daemonApi from "../../client/routes/daemon.js";

/** Ask the daemon to drain and stop; never starts one. Returns whether one was running. */
export async function runStop(ctx: Context, opts: { quiet?: boolean }): Promise<boolean> {
  const client = await ctx.connect({ kind: "unix", socket: ctx.paths.socket });
  const h = await hello(client);
  if (!h) {
    ctx.status("kboxd is not running", opts);
    return false;
  }
  await client.call(daemonApi.shutdown, {});
  // The socket goes quiet first; the process exits once queues are drained and tables closed.
  if (!(await waitGone(client, 60_000)) || !(await waitExit(h.pid, 60_000))) {
    throw new CliError(`kboxd (pid ${h.pid}) did not stop in time`, EXIT.failure, "see `kbox daemon logs`");
  }
  ctx.status(`kboxd stopped (pid ${h.pid})`, opts);
  return true;
}

export function stopCommand(ctx: Context): Command {
  return new Command("stop")
    .description("Stop the daemon after it drains in-flight work (never starts one)")
    .addHelpText("after", "\nExample:\n  kbox daemon stop")
    .action(async (_o, cmd: Command) => {
      await runStop(ctx, ctx.opts(cmd));
    });
}
