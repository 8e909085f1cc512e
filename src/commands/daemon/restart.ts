import { Command } from "commander";
import type { Context } from "../../cli/context.js";
import { runStart, type StartOptions } from "./start.js";
import { runStop } from "./stop.js";

export function restartCommand(ctx: Context): Command {
  return new Command("restart")
    .description("Stop the daemon (if running) and start it again")
    .option("--listen <[host:]port>", "also listen on TCP")
    .option("--trust-roles-header", "accept X-NUCLIADB-ROLES from loopback TCP clients")
    .addHelpText("after", "\nExample:\n  kbox daemon restart")
    .action(async (_o, cmd: Command) => {
      const opts = ctx.opts<StartOptions>(cmd);
      await runStop(ctx, opts);
      await runStart(ctx, opts);
    });
}
