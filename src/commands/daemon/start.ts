import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { CliError, EXIT } from "../../cli/errors.js";
import { printJson } from "../../cli/output.js";
import { hello, spawnDaemon, waitStarted } from "../../client/connect.js";
import * as daemonApi from "../../client/routes/daemon.js";

export interface StartOptions {
  listen?: string;
  trustRolesHeader?: boolean;
  json?: boolean;
  quiet?: boolean;
}

/** Start kboxd detached (no-op when it already answers) and wait for its hello. */
export async function runStart(ctx: Context, opts: StartOptions): Promise<void> {
  const client = await ctx.connect({ kind: "unix", socket: ctx.paths.socket });
  let h = await hello(client);
  if (h) {
    ctx.status(`kboxd ${h.version} is already running (pid ${h.pid})`, opts);
  } else {
    const args = [...(opts.listen ? ["--listen", opts.listen] : []), ...(opts.trustRolesHeader ? ["--trust-roles-header"] : [])];
    const child = spawnDaemon(ctx.paths, args, ctx.env.raw);
    const hint = `see ${ctx.paths.logs}/kboxd.log and kboxd.out`;
    h = await waitStarted(client, child).catch((e: Error) => {
      throw new CliError(e.message, EXIT.failure, hint);
    });
    if (!h) throw new CliError("kboxd did not start", EXIT.failure, hint);
    ctx.status(`kboxd ${h.version} started (pid ${h.pid}) on ${h.listen.join(", ")}`, opts);
  }
  if (opts.json) printJson(ctx.io, await client.call(daemonApi.hello, {}));
}

export function startCommand(ctx: Context): Command {
  return new Command("start")
    .description("Start the daemon in the background")
    .option("--listen <[host:]port>", "also listen on TCP (loopback unless a host is given; keys required)")
    .option("--trust-roles-header", "accept X-NUCLIADB-ROLES from loopback TCP clients (standalone SDKs)")
    .option("--json", "print the daemon's hello as JSON")
    .addHelpText("after", "\nExamples:\n  kbox daemon start\n  kbox daemon start --listen 127.0.0.1:8080")
    .action(async (_o, cmd: Command) => runStart(ctx, ctx.opts<StartOptions>(cmd)));
}
